import { Box, Text } from "ink";
import { memo } from "react";
import type { ApprovalLayout, PreviewRow, RowTone } from "../state/approval-layout.js";
import { useTheme } from "../theme/context.js";
import type { Theme } from "../theme/theme.js";

export type ApprovalPanelProps = { layout: ApprovalLayout; width: number; version: number };

function toneColor(tone: RowTone, theme: Theme): string | undefined {
	switch (tone) {
		case "added":
			return theme.diff.added;
		case "removed":
			return theme.diff.removed;
		case "hunk":
			return theme.diff.hunk;
		case "context":
			return theme.diff.context;
		case "error":
			return theme.error;
		case "plain":
			return undefined;
	}
}

/** Marks that stand for something the person should notice: a long run of blanks, a hidden character. */
const MARK = /([␣⇥]×\d+|⟨U\+[0-9A-F]+⟩|␛)/;

/** A preview row with its marks drawn apart from the text (a blank run in the warning colour, hidden ones in red). */
function Row({ row, theme }: { row: PreviewRow; theme: Theme }) {
	const parts = row.text.split(MARK);
	return (
		<Text wrap="truncate-end" color={toneColor(row.tone, theme)}>
			{row.lead ? <Text color={theme.muted}>{row.lead}</Text> : null}
			{parts.map((part, i) =>
				i % 2 === 0 ? (
					part
				) : (
					// biome-ignore lint/suspicious/noArrayIndexKey: the parts of one row, in order.
					<Text key={i} color={part.startsWith("⟨") || part === "␛" ? theme.error : theme.warning} bold>
						{part}
					</Text>
				),
			)}
			{row.text === "" && !row.lead ? " " : ""}
		</Text>
	);
}

/**
 * The approval question, drawn from its layout (approval-layout.ts): the headline, a warning about hidden
 * characters, the whole command or diff wrapped to the width and scrolled with ↑/↓/PgUp/PgDn (the line under it
 * says how much is below), what the permission rules said, and the keys: y once, a always (this session), p commands
 * starting with the prefix shown (a rule saved to the config), n no (then a reason), Esc stop.
 */
export const ApprovalPanel = memo(function ApprovalPanel({ layout, width }: ApprovalPanelProps) {
	const theme = useTheme();
	const { header, warning, reason, rules, body, start, rows, status, urgent, keys } = layout;
	return (
		<Box
			flexDirection="column"
			width={width}
			height={layout.height}
			borderStyle="single"
			borderColor={theme.warning}
			paddingX={1}
		>
			{header.map((text, i) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: the headline's rows, in order.
				<Text key={`h${i}`} color={theme.warning} bold wrap="truncate-end">
					{text}
				</Text>
			))}
			{warning.map((text, i) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: the warning's rows, in order.
				<Text key={`w${i}`} color={theme.error} wrap="truncate-end">
					{text}
				</Text>
			))}
			{reason.map((text, i) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: the hook's reason's rows, in order.
				<Text key={`r${i}`} color={theme.text} wrap="truncate-end">
					{text}
				</Text>
			))}
			{rules.map((text, i) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: the rules' note's rows, in order.
				<Text key={`u${i}`} color={theme.muted} wrap="truncate-end">
					{text}
				</Text>
			))}
			{body.slice(start, start + rows).map((row, i) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: a row of the scrolled preview is its row number.
				<Row key={`${start + i}`} row={row} theme={theme} />
			))}
			{status ? (
				<Text color={urgent ? theme.warning : theme.muted} bold={urgent} wrap="truncate-end">
					{status}
				</Text>
			) : null}
			{keys.map((text, i) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: the keys' rows, in order.
				<Text key={`k${i}`} color={theme.muted} wrap="truncate-end">
					{text}
				</Text>
			))}
		</Box>
	);
});
