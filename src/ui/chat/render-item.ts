import type { PastedRange, UserSource } from "../../agent/events.js";
import { fileBlockLabel } from "../../text/mentions.js";
import { formatCost, formatDuration, formatSubagents, formatTokens, formatUsage } from "../../view/format.js";
import type { ChatItem } from "../../view/state.js";
import { labelFor } from "../editor/paste.js";
import type { Theme } from "../theme/theme.js";
import { replyLines } from "./assistant-text.js";
import { hookRows } from "./hook-rows.js";
import { clean, expandTabs, fitSpans, type Line, makeLine, prefixRows, type Span, wrapSpans } from "./lines.js";
import { toolLines } from "./tool-lines.js";

type Rows = Span[][];

/** Options that change how an item looks: `expanded` shows whole diffs, outputs and thinking (Ctrl+O). */
export type RenderOptions = { expanded: boolean };

const keyed = (key: string, rows: Rows, width: number): Line[] =>
	rows.map((row, i) => makeLine(`${key}:${i}`, row, width));

/** Text wrapped behind a label on its first row and as much indent on the others. */
function labelled(label: Span, spans: Span[], width: number): Rows {
	const indent = label.text.length;
	return prefixRows(wrapSpans(spans, width - indent), [label], [{ text: " ".repeat(indent) }]);
}

/** Where a two-column line's second column starts (text, 2+ spaces, text): its wrapped rows align under it. */
const COLUMN = /^(\s*\S.*?\s{2,})\S/;

/** One line of a notice, wrapped; a line laid out in columns (the /help tables) wraps under its second column. */
function hanging(line: string, color: string, width: number): Rows {
	const hang = COLUMN.exec(line)?.[1]?.length ?? 0;
	if (hang === 0 || hang > width / 2) return wrapSpans([{ text: line, color }], width);
	const rows = wrapSpans([{ text: line, color }], width, width - hang);
	return rows.map((row, i) => (i === 0 ? row : [{ text: " ".repeat(hang) }, ...row]));
}

const USER_LABELS: Partial<Record<UserSource, string>> = {
	prompt: "you › ",
	steer: "you (steer) › ",
	follow_up: "you (follow-up) › ",
};

/** Output lines of a `!command` shown before "… N earlier lines" unless expanded. */
const SHELL_TAIL = 5;

/** A `!command` the person ran: the command, then the last lines of its output, muted (the model reads it all). */
function shellRows(text: string, width: number, theme: Theme, expanded: boolean): Rows {
	const body = text.replace(/^I ran a shell command myself[^\n]*\n/, "").replace(/\n+$/, "");
	const [command = "", ...output] = body.split("\n");
	const rows = labelled(
		{ text: "you ! ", color: theme.user, bold: true },
		[{ text: command, color: theme.text }],
		width,
	);
	const shown = expanded ? output : output.slice(-SHELL_TAIL);
	if (shown.length < output.length) {
		rows.push([{ text: `      … ${output.length - shown.length} earlier lines (Ctrl+O)`, color: theme.muted }]);
	}
	for (const line of shown) {
		const span: Span = { text: line, color: theme.muted };
		if (expanded) rows.push(...prefixRows(wrapSpans([span], width - 6), [{ text: "      " }], [{ text: "      " }]));
		else rows.push(fitSpans([{ text: "      " }, span], width));
	}
	return rows;
}

/**
 * Text a hook gave the model (context, or a Stop hook's reason to go on): its first line, the rest one key away
 * (Ctrl+O), muted — the person did not type it.
 */
function hookContextRows(text: string, width: number, theme: Theme, expanded: boolean): Rows {
	const lines = text.replace(/\n+$/, "").split("\n");
	const label = { text: "hook › ", color: theme.muted, bold: true };
	if (expanded) return labelled(label, [{ text: lines.join("\n"), color: theme.muted }], width);
	const more = lines.length > 1 ? ` (${lines.length - 1} more lines: Ctrl+O)` : "";
	return [fitSpans([label, { text: `${lines[0] ?? ""}${more}`, color: theme.muted }], width)];
}

function userRows(item: Extract<ChatItem, { kind: "user" }>, width: number, theme: Theme, expanded: boolean): Rows {
	if (item.source === "schema_retry") {
		const text = expandTabs(clean(item.text));
		return [fitSpans([{ text: `gar asked for JSON: ${text.replace(/\s+/g, " ")}`, color: theme.muted }], width)];
	}
	if (item.source === "shell") return shellRows(expandTabs(clean(item.text)), width, theme, expanded);
	if (item.source === "hook") return hookContextRows(expandTabs(clean(item.text)), width, theme, expanded);
	const label = USER_LABELS[item.source] ?? "you › ";
	const pastes = expanded ? [] : foldable(item.text, item.pastes);
	return labelled({ text: label, color: theme.user, bold: true }, foldedSpans(item.text, pastes, theme), width);
}

/** The ranges that can be folded: inside the text, in order, not overlapping (a damaged session may say otherwise). */
function foldable(text: string, pastes: readonly PastedRange[] = []): PastedRange[] {
	const out: PastedRange[] = [];
	let at = 0;
	for (const range of [...pastes].sort((a, b) => a.start - b.start)) {
		if (range.start < at || range.end <= range.start || range.end > text.length) continue;
		out.push(range);
		at = range.end;
	}
	return out;
}

/**
 * The text with each pasted block as its label (`[pasted 5000 lines]`, as in the editor; a file an `@` mention
 * attached: `[file src/a.ts · 40 lines]`).
 */
function foldedSpans(text: string, pastes: readonly PastedRange[], theme: Theme): Span[] {
	const spans: Span[] = [];
	const plain = (from: number, to: number) => {
		if (to > from) spans.push({ text: expandTabs(clean(text.slice(from, to))), color: theme.text });
	};
	let at = 0;
	for (const { start, end } of pastes) {
		plain(at, start);
		const block = text.slice(start, end);
		spans.push({ text: fileBlockLabel(block) ?? labelFor(block), color: theme.accent });
		at = end;
	}
	plain(at, text.length);
	return spans.length > 0 ? spans : [{ text: "", color: theme.text }];
}

function thinkingRows(item: Extract<ChatItem, { kind: "thinking" }>, width: number, theme: Theme, expanded: boolean) {
	const text = clean(item.text).trim();
	const count = text === "" ? 0 : text.split("\n").length;
	const style = { color: theme.thinking, italic: true };
	const head = `∴ thinking${item.streaming ? "…" : ""} (${count} ${count === 1 ? "line" : "lines"})`;
	if (!expanded) {
		const words = text.slice(0, 4 * width).replace(/\s+/g, " ");
		return [fitSpans([{ text: words ? `${head} ${words}` : head, ...style }], width)];
	}
	const body = prefixRows(
		wrapSpans([{ text: expandTabs(text), ...style }], width - 2),
		[{ text: "  " }],
		[{ text: "  " }],
	);
	return [[{ text: head, ...style }], ...body];
}

function runEndRows(item: Extract<ChatItem, { kind: "run_end" }>, width: number, theme: Theme): Rows {
	const { usage } = item;
	const word = item.stopReason === "done" ? "done" : item.stopReason.replace("_", " ");
	const parts = [
		word,
		`${item.turns} ${item.turns === 1 ? "turn" : "turns"}`,
		formatUsage(usage),
		formatCost(item.costUsd, usage.estimated === true),
		...(item.subagents ? [`+ ${formatSubagents(item.subagents)} (as reported)`] : []),
		formatDuration(item.durationMs),
	];
	const failed = item.stopReason !== "done" && item.stopReason !== "aborted";
	const rows = [fitSpans([{ text: parts.join(" · "), color: failed ? theme.error : theme.muted }], width)];
	if (item.error) rows.push(...wrapSpans([{ text: clean(item.error), color: theme.error }], width));
	return rows;
}

function rows(item: Exclude<ChatItem, { kind: "text" | "tool" }>, width: number, theme: Theme, o: RenderOptions): Rows {
	switch (item.kind) {
		case "user":
			return userRows(item, width, theme, o.expanded);
		case "thinking":
			return thinkingRows(item, width, theme, o.expanded);
		case "retry": {
			// A fact that stays true once the wait is over; the state (inspector, status bar) counts the wait down.
			const text = `${clean(item.reason)}: retry ${item.attempt}/${item.maxAttempts} after ${formatDuration(item.delayMs)}`;
			return wrapSpans([{ text, color: theme.warning }], width);
		}
		case "error":
			return labelled(
				{ text: "✗ ", color: theme.error, bold: true },
				[{ text: clean(item.message), color: theme.error }],
				width,
			);
		case "notice": {
			const color = item.level === "error" ? theme.error : item.level === "warning" ? theme.warning : theme.muted;
			const rows = clean(item.message)
				.split("\n")
				.flatMap((line) => hanging(line, color, width - 2));
			return prefixRows(rows, [{ text: "• ", color }], [{ text: "  " }]);
		}
		case "compaction": {
			const what = item.ok
				? `compacted: ${formatTokens(item.tokensBefore)} → ${formatTokens(item.tokensAfter)} tokens`
				: item.aborted
					? "compaction aborted: the context is unchanged"
					: `compaction failed: ${clean(item.error ?? "unknown error").replace(/\s+/g, " ")}`;
			const color = item.ok ? theme.border : item.aborted ? theme.muted : theme.error;
			return [fitSpans([{ text: `── ${what} ──`, color }], width)];
		}
		case "run_end":
			return runEndRows(item, width, theme);
		case "hook":
			return hookRows(item.run, width, theme);
	}
}

/**
 * The lines of one chat item at `width` columns: pure, every text sanitized, no line wider than `width`, keys
 * `${item.key}:${n}`. Assistant text is markdown; tool calls show a status header and their diff or output.
 */
export function renderItem(item: ChatItem, width: number, theme: Theme, options: RenderOptions): Line[] {
	if (item.kind === "text") return replyLines(item.key, item.text, width, theme);
	if (item.kind === "tool") return toolLines(item, width, theme, options.expanded);
	return keyed(item.key, rows(item, width, theme, options), width);
}
