import { Box, Text } from "ink";
import { memo } from "react";
import { hasHostileControls, sanitizeForTerminal } from "../term/sanitize.js";
import type { ToolPreview } from "../tools/types.js";
import { previewBody, previewHeadline } from "../view/format.js";
import { fitSpans } from "./chat/lines.js";
import type { PendingApproval } from "./store.js";
import type { Theme } from "./theme.js";
import { useTheme } from "./theme-context.js";

export type ApprovalPanelProps = { pending: PendingApproval; width: number; height: number; version: number };

function lineColor(line: string, preview: ToolPreview, theme: Theme): string | undefined {
	if (preview.kind !== "write" && preview.kind !== "edit") return preview.kind === "invalid" ? theme.error : undefined;
	if (line.startsWith("+")) return theme.diff.added;
	if (line.startsWith("-")) return theme.diff.removed;
	if (line.startsWith("@@")) return theme.diff.hunk;
	return theme.diff.context;
}

/** Whether the text shown was written to look like something else on a terminal. */
function hostile(preview: ToolPreview): boolean {
	return previewBody(preview).some(hasHostileControls) || ("path" in preview && hasHostileControls(preview.path));
}

/** Cuts a line to `width` terminal columns (wide characters count two). */
function clip(line: string, width: number): string {
	return fitSpans([{ text: line.replace(/\t/g, "    ") }], width)
		.map((span) => span.text)
		.join("");
}

/**
 * The approval question: what the call will do — the whole command with its cwd and timeout, or the whole diff,
 * scrollable with ↑/↓/PgUp/PgDn — and the keys: y once, a always (this session), n no (then a reason), Esc stop.
 */
export const ApprovalPanel = memo(function ApprovalPanel({ pending, width, height }: ApprovalPanelProps) {
	const theme = useTheme();
	const { request } = pending;
	const body = previewBody(request.preview).map(sanitizeForTerminal);
	const warn = hostile(request.preview);
	const rows = Math.max(1, height - 3 - (warn ? 1 : 0));
	const start = Math.min(pending.scroll, Math.max(0, body.length - rows));
	const shown = body.slice(start, start + rows);
	const more = body.length - start - shown.length;
	const keys =
		pending.stage === "reason"
			? "type why (optional) · Enter deny with this reason · Esc deny"
			: `y allow once · a allow ${request.name} for this session · n deny · Esc deny and stop${body.length > rows ? " · ↑↓ scroll" : ""}`;
	return (
		<Box flexDirection="column" width={width} borderStyle="single" borderColor={theme.warning} paddingX={1}>
			<Text color={theme.warning} bold wrap="truncate-end">
				{sanitizeForTerminal(previewHeadline(request.name, request.preview))}
			</Text>
			{warn ? (
				<Text color={theme.error} wrap="truncate-end">
					⚠ this call contains terminal control characters or bidi overrides, shown as ␛ / ⟨U+…⟩
				</Text>
			) : null}
			{shown.map((line, i) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: a row of the scrolled preview is its line number.
				<Text key={`${start + i}`} color={lineColor(line, request.preview, theme)}>
					{clip(line, width - 4) || " "}
				</Text>
			))}
			<Text color={theme.muted} wrap="truncate-end">
				{more > 0 ? `… ${more} more lines · ` : ""}
				{keys}
			</Text>
		</Box>
	);
});
