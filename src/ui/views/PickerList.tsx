import { Box, Text } from "ink";
import { memo, useMemo } from "react";
import type { PickerHit, PickerModel } from "../state/picker.js";
import { useTheme } from "../theme/context.js";
import { fitCell, MARK, type PickerColumn, pickerColumns, rowCells } from "./picker-rows.js";

/** `now`: the time ages are counted to (to the minute, so a redraw within it draws no row anew). */
export type PickerListProps = { picker: PickerModel; width: number; height: number; now: number; home: string };

type RowProps = { hit: PickerHit; selected: boolean; columns: PickerColumn[]; now: number; home: string };

/**
 * One row: the marker, the name in its own colour (inverse when selected), the other cells as one text. Memoized:
 * moving the selection draws two rows anew, not all of them.
 */
const PickerRowLine = memo(function PickerRowLine({ hit, selected, columns, now, home }: RowProps) {
	const theme = useTheme();
	const cells = rowCells(hit, now, home);
	const [title, ...rest] = columns;
	const color = hit.row.problem ? theme.warning : selected ? theme.accent : theme.text;
	const titleColor = !hit.row.named && !hit.row.problem ? theme.muted : color;
	const others = rest.map((column) => fitCell(cells[column.key], column.width, column.right)).join("  ");
	return (
		<Text wrap="truncate-end">
			<Text color={theme.accent}>{selected ? "› " : "  "}</Text>
			<Text color={titleColor} inverse={selected}>
				{title ? fitCell(cells.title, title.width) : ""}
			</Text>
			<Text color={color}>{`  ${others}`}</Text>
		</Text>
	);
});

/** The picker's column header and the rows on screen (only those: the list may hold thousands). */
export function PickerList({ picker, width, height, now, home }: PickerListProps) {
	const theme = useTheme();
	const all = picker.all;
	const columns = useMemo(() => pickerColumns(width - 1, all), [width, all]);
	const shown = picker.hits.slice(picker.top, picker.top + Math.max(0, height - 1));
	const header = columns.map((column) => fitCell(column.header, column.width, column.right)).join("  ");
	return (
		<Box flexDirection="column" width={width} height={height}>
			<Text color={theme.muted} bold wrap="truncate-end">
				{`${" ".repeat(MARK)}${header}`}
			</Text>
			{picker.loading ? <Text color={theme.muted}> reading the sessions…</Text> : null}
			{!picker.loading && shown.length === 0 ? (
				<Text color={theme.muted} wrap="truncate-end">
					{picker.query
						? "  no session matches: Esc clears the filter"
						: `  no sessions ${picker.all ? "yet" : "in this project: Tab shows every project's"}`}
				</Text>
			) : null}
			{shown.map((hit, i) => (
				<PickerRowLine
					key={hit.row.file}
					hit={hit}
					selected={picker.top + i === picker.selected}
					columns={columns}
					now={now}
					home={home}
				/>
			))}
		</Box>
	);
}
