import type { BashDetails } from "../../tools/details.js";
import { failureLines } from "../../view/failure-lines.js";
import { firstLine, formatDuration, formatSubagents, toolSummary, toolTarget } from "../../view/format.js";
import type { ToolItem } from "../../view/state.js";
import type { Theme } from "../theme/theme.js";
import { hookRows } from "./hook-rows.js";
import {
	clean,
	expandTabs,
	fitSpans,
	type Line,
	makeLine,
	prefixRows,
	type Span,
	spansWidth,
	textWidth,
	wrapSpans,
} from "./lines.js";

type Rows = Span[][];

/** Diff rows shown before "… N more lines (Ctrl+O)"; output lines of a live command, and of a failed one, folded. */
const DIFF_ROWS = 12;
const TAIL_LINES = 5;
const FAILURE_LINES = 5;
const MAX_TARGET = 300;
const INDENT: Span = { text: "  " };

function bashFailed(d: BashDetails): boolean {
	return d.exitCode !== 0 || d.signal !== null || d.timedOut || d.aborted;
}

function failed(item: ToolItem): boolean {
	return item.status === "error" || (item.details?.kind === "bash" && bashFailed(item.details));
}

function statusColor(item: ToolItem, theme: Theme): string {
	if (failed(item) || item.status === "denied") return theme.error;
	switch (item.status) {
		case "running":
			return theme.accent;
		case "awaiting_approval":
		case "interrupted":
			return theme.warning;
		case "done":
			return theme.success;
		default:
			return theme.muted;
	}
}

function header(item: ToolItem, command: string[], width: number, theme: Theme): Rows {
	const color = statusColor(item, theme);
	let summary = toolSummary(item);
	if (item.status === "running" && item.progress) summary += ` · ${formatDuration(item.progress.elapsedMs)}`;
	// A command is shown whole (it is what runs); other targets (a path, or unknown arguments as JSON) are capped.
	let target = command.length > 1 ? "" : clean(toolTarget(item)).replace(/\n/g, " ");
	if (item.name !== "bash" && target.length > MAX_TARGET) target = `${target.slice(0, MAX_TARGET - 1)}…`;
	const head: Span[] = [
		{ text: "▸ ", color },
		{ text: clean(item.name), color: failed(item) ? theme.error : theme.tool, bold: true },
		...(target ? [{ text: ` ${target}`, color: theme.text }] : []),
	];
	const tail: Span = { text: clean(summary).replace(/\n/g, " "), color: failed(item) ? theme.error : theme.muted };
	// The summary stays in one piece: on the header row when it fits, else on a row of its own.
	const oneRow = spansWidth(head) + 2 + textWidth(tail.text) <= width;
	const spans = oneRow ? [...head, { ...tail, text: `  ${tail.text}` }] : head;
	const rows = prefixRows(wrapSpans(spans, width, width - 2), [], [INDENT]);
	if (!oneRow) rows.push(...prefixRows(wrapSpans([tail], width - 2), [INDENT], [INDENT]));
	if (command.length > 1) {
		command.forEach((line, i) => {
			const sign: Span = { text: i === 0 ? "  $ " : "  > ", color: theme.muted };
			const text = expandTabs(clean(line));
			rows.push(...prefixRows(wrapSpans([{ text, color: theme.text }], width - 4), [sign], [{ text: "    " }]));
		});
	}
	return rows;
}

/** A unified diff without its file headers, coloured; at most DIFF_ROWS rows unless expanded. */
function diffRows(diff: string, truncated: boolean, width: number, theme: Theme, expanded: boolean): Rows {
	const lines = diff
		.replace(/\n$/, "")
		.split("\n")
		.filter((l) => !l.startsWith("--- ") && !l.startsWith("+++ ") && !l.startsWith("===") && !l.startsWith("Index: "));
	const rows: Rows = [];
	let shown = 0;
	for (const line of lines) {
		const c = line[0];
		const color =
			c === "+" ? theme.diff.added : c === "-" ? theme.diff.removed : c === "@" ? theme.diff.hunk : theme.diff.context;
		const part = prefixRows(wrapSpans([{ text: expandTabs(clean(line)), color }], width - 2), [INDENT], [INDENT]);
		if (!expanded && rows.length + part.length > DIFF_ROWS) break;
		rows.push(...part);
		shown++;
	}
	if (shown < lines.length) {
		rows.push([INDENT, { text: `… ${lines.length - shown} more lines (Ctrl+O)`, color: theme.muted }]);
	} else if (truncated) {
		rows.push([
			INDENT,
			{ text: "[… the diff is larger than shown; it was cut at the size limit]", color: theme.muted },
		]);
	}
	return rows;
}

/** The last `count` lines of command output (all when expanded, wrapped; cut to the width otherwise). */
function outputRows(text: string, count: number, width: number, theme: Theme, expanded: boolean): Rows {
	const trimmed = text.replace(/\n+$/, "");
	if (trimmed === "") return [];
	const lines = trimmed.split("\n");
	const rows: Rows = [];
	for (const line of expanded ? lines : lines.slice(-count)) {
		const span: Span = { text: expandTabs(clean(line)), color: theme.muted };
		if (expanded) rows.push(...prefixRows(wrapSpans([span], width - 2), [INDENT], [INDENT]));
		else rows.push(fitSpans([INDENT, span], width));
	}
	return rows;
}

/**
 * A failed command, folded: the lines of its output that say what went wrong, with their line numbers (not its last
 * lines, which are summaries and trailers), and what Ctrl+O adds.
 */
function failureRows(output: string, totalLines: number, width: number, theme: Theme): Rows {
	const { lines, more, matched } = failureLines(output, FAILURE_LINES);
	if (lines.length === 0) return [];
	const digits = String(lines.at(-1)?.line ?? 1).length;
	const rows: Rows = lines.map(({ line, text }) =>
		fitSpans(
			[
				INDENT,
				{ text: `${String(line).padStart(digits)} `, color: theme.muted },
				{ text: expandTabs(clean(text)), color: matched ? theme.text : theme.muted },
			],
			width,
		),
	);
	const also = more > 0 ? `${more} more such line${more === 1 ? "" : "s"} · ` : "";
	if (more > 0 || lines.length < totalLines) {
		rows.push([INDENT, { text: `… ${also}Ctrl+O shows all ${totalLines} lines`, color: theme.muted }]);
	}
	return rows;
}

function body(item: ToolItem, width: number, theme: Theme, expanded: boolean): Rows {
	const { preview, progress, details } = item;
	if (item.status === "awaiting_approval" && preview) {
		if (preview.kind === "write" || preview.kind === "edit") {
			return diffRows(preview.diff, preview.diffTruncated, width, theme, expanded);
		}
		if (preview.kind === "invalid") return [[INDENT, { text: clean(firstLine(preview.message)), color: theme.error }]];
		return [];
	}
	if (item.status === "running") {
		return progress ? outputRows(progress.output, TAIL_LINES, width, theme, expanded) : [];
	}
	if (details?.kind === "write" || details?.kind === "edit") {
		return diffRows(details.diff, details.diffTruncated === true, width, theme, expanded);
	}
	if (details?.kind === "bash") {
		if (expanded) return outputRows(item.content ?? "", TAIL_LINES, width, theme, true);
		return bashFailed(details) ? failureRows(item.content ?? "", details.totalLines, width, theme) : [];
	}
	if (details?.kind === "read" || item.content === undefined) return [];
	// Errors, denials and calls not run: the first line of what the model read, unless the header already says it.
	const first = firstLine(item.content);
	if (first === "" || toolSummary(item) === first) return [];
	return [[INDENT, { text: clean(first), color: item.status === "error" ? theme.error : theme.muted }]];
}

/**
 * What the gar runs of a command reported: "⤷ 2 sub-agent runs · 31k tokens · $0.024 (reported) · Alt+S", and the
 * report lines that were ignored.
 */
function subagentRows(details: BashDetails, width: number, theme: Theme): Rows {
	const sub = details.subagents;
	if (!sub) return [];
	const rows: Rows = [];
	if (sub.totals.runs > 0) {
		const session = sub.runs.some((run) => run.sessionFile) ? " · Alt+S opens its session" : "";
		const text = `⤷ ${formatSubagents(sub.totals)} (as reported)${session}`;
		rows.push(...prefixRows(wrapSpans([{ text, color: theme.accent }], width - 2), [INDENT], [INDENT]));
	}
	for (const why of sub.ignored ?? []) {
		rows.push(
			fitSpans([INDENT, { text: `⚠ a sub-agent report was ignored: ${clean(why)}`, color: theme.warning }], width),
		);
	}
	return rows;
}

/** The permission rule that let the call run without asking, under its header: "↪ allowed by the rule …". */
function ruleRows(rule: string, width: number, theme: Theme): Rows {
	const lead = "  ↪ ";
	const rows = wrapSpans([{ text: clean(`allowed by the rule ${rule}`), color: theme.muted }], Math.max(1, width - 4));
	return prefixRows(rows, [{ text: lead, color: theme.muted }], [{ text: " ".repeat(lead.length) }]);
}

/** A tool call: a header "▸ name target  summary" coloured by status, then its diff, command or output. */
export function toolLines(item: ToolItem, width: number, theme: Theme, expanded: boolean): Line[] {
	const command = item.name === "bash" && typeof item.args?.command === "string" ? item.args.command.split("\n") : [];
	// The call's hooks come right under its header: what they did is why the call ran (or did not) as it did.
	const hooks = (item.hooks ?? []).flatMap((run) => hookRows(run, width, theme, "  "));
	const sub = item.details?.kind === "bash" ? subagentRows(item.details, width, theme) : [];
	const rule = item.rule ? ruleRows(item.rule, width, theme) : [];
	const rows = [
		...header(item, command, width, theme),
		...hooks,
		...rule,
		...sub,
		...body(item, width, theme, expanded),
	];
	return rows.map((row, i) => makeLine(`${item.key}:${i}`, row, width));
}
