import { Box, Text } from "ink";
import { memo } from "react";
import { plural } from "../../text/plural.js";
import type { PickerPreview, PickerRow } from "../state/picker.js";
import { useTheme } from "../theme/context.js";
import { fitCell, flat } from "./picker-rows.js";

export type PickerPreviewProps = {
	row: PickerRow | undefined;
	preview: PickerPreview | null;
	width: number;
	height: number;
};

/** Up to `rows` lines of `text` cut to `width`: its lines, each flattened (a preview never wraps). */
function linesOf(text: string, rows: number): string[] {
	return text
		.split("\n")
		.map((line) => flat(line).trimEnd())
		.filter((line) => line !== "")
		.slice(0, rows);
}

/**
 * Under the list: the selected session's id, folder and labels, then its last exchange (the prompt, the tools, the
 * reply). Drawn anew only when the selection (or the size) changes.
 */
export const PickerPreviewBox = memo(function PickerPreviewBox({ row, preview, width, height }: PickerPreviewProps) {
	const theme = useTheme();
	const facts = row
		? [
				row.id,
				row.problem ? row.file : row.cwd,
				...(row.labels.length > 0 ? [`labels: ${row.labels.join(", ")}`] : []),
				...(row.forkOf ? [`fork of ${row.forkOf}`] : []),
				...(row.damaged > 0 ? [`${plural(row.damaged, "damaged line")} (skipped when opened)`] : []),
			]
		: [];
	const body = height - 2;
	const tools = preview?.tools.map(([name, n]) => `${name} ${n}`).join(" · ") ?? "";
	const prompt = preview?.prompt ? linesOf(preview.prompt, Math.max(1, Math.floor(body / 3))) : [];
	const reply = preview?.reply ? linesOf(preview.reply, Math.max(0, body - prompt.length - (tools ? 1 : 0))) : [];
	return (
		<Box flexDirection="column" width={width} height={height}>
			<Text color={theme.border}>
				{fitCell(`── ${flat(facts.join(" · "))} ${"─".repeat(width)}`, width, false, "")}
			</Text>
			{row?.problem ? (
				<Text color={theme.warning} wrap="wrap">
					{flat(row.problem)}
				</Text>
			) : null}
			{prompt.map((line, i) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: the lines of one preview, drawn in order
				<Text key={`p${i}`} color={theme.user} wrap="truncate-end">
					{`${i === 0 ? "you › " : "      "}${line}`}
				</Text>
			))}
			{tools ? (
				<Text color={theme.tool} wrap="truncate-end">
					{`      ${tools}`}
				</Text>
			) : null}
			{reply.map((line, i) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: the lines of one preview, drawn in order
				<Text key={`r${i}`} color={theme.assistant} wrap="truncate-end">
					{`${i === 0 ? "gar › " : "      "}${line}`}
				</Text>
			))}
		</Box>
	);
});
