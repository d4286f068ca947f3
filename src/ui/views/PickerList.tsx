import { Box, Text } from "ink";
import type { PickerModel } from "../state/picker.js";
import { useTheme } from "../theme/context.js";
import { fitCell, MARK, type PickerColumn, pickerColumns, rowCells } from "./picker-rows.js";

export type PickerListProps = { picker: PickerModel; width: number; height: number; now: number; home: string };

/** The picker's column header and the rows on screen (only those: the list may hold thousands). */
export function PickerList({ picker, width, height, now, home }: PickerListProps) {
	const theme = useTheme();
	const columns = pickerColumns(width - 1, picker.all);
	const shown = picker.hits.slice(picker.top, picker.top + Math.max(0, height - 1));
	const line = (cells: (column: PickerColumn) => string) =>
		columns.map((column) => fitCell(cells(column), column.width, column.right)).join("  ");
	return (
		<Box flexDirection="column" width={width} height={height}>
			<Text color={theme.muted} bold wrap="truncate-end">
				{`${" ".repeat(MARK)}${line((column) => column.header)}`}
			</Text>
			{picker.loading ? <Text color={theme.muted}> reading the sessions…</Text> : null}
			{!picker.loading && shown.length === 0 ? (
				<Text color={theme.muted} wrap="truncate-end">
					{picker.query
						? "  no session matches: Esc clears the filter"
						: `  no sessions ${picker.all ? "yet" : "in this project: Tab shows every project's"}`}
				</Text>
			) : null}
			{shown.map((hit, i) => {
				const selected = picker.top + i === picker.selected;
				const cells = rowCells(hit, now, home);
				const color = hit.row.problem ? theme.warning : selected ? theme.accent : theme.text;
				// One text node per row (its cells nested): the layout has a row to place, not nine.
				return (
					<Text key={hit.row.file} wrap="truncate-end">
						<Text color={theme.accent}>{selected ? "› " : "  "}</Text>
						{columns.map((column, c) => (
							<Text
								key={column.key}
								color={column.key === "title" && !hit.row.named && !hit.row.problem ? theme.muted : color}
								inverse={selected && column.key === "title"}
							>
								{`${c === 0 ? "" : "  "}${fitCell(cells[column.key], column.width, column.right)}`}
							</Text>
						))}
					</Text>
				);
			})}
		</Box>
	);
}
