import type { SubagentTotals } from "../llm/spend.js";
import type { Usage } from "../llm/types.js";
import { hasHostileControls, hasZeroWidth, revealHidden } from "../term/sanitize.js";
import { plural } from "../text/plural.js";
import type { BashFileChanges } from "../tools/details.js";
import type { ToolPreview } from "../tools/types.js";
import type { ToolItem, Totals } from "./state.js";

/** Token counts as a person reads them: 950, 12.4k, 128k, 1.2M. */
export function formatTokens(n: number): string {
	if (n < 1000) return String(Math.round(n));
	if (n < 999_500) return `${compact(n / 1000)}k`;
	return `${compact(n / 1_000_000)}M`;
}

/** One decimal below 100 (without a trailing ".0"), none above. */
function compact(value: number): string {
	return value < 99.95 ? value.toFixed(1).replace(/\.0$/, "") : value.toFixed(0);
}

/**
 * Dollars with the precision small amounts need: "$0.00" before anything was billed, "<$0.0001" for a tiny amount
 * (never "$0" for billed tokens), "unknown" for an unpriced model, "~" before an estimate. The one cost format of
 * every screen (inspector, status bar, chat, /session, line mode).
 */
export function formatCost(cost: number | null, estimated = false): string {
	if (cost === null) return "unknown";
	const mark = estimated ? "~" : "";
	if (cost === 0) return `${mark}$0.00`;
	if (cost < 0.00005) return `${mark}<$0.0001`;
	if (cost < 0.01) return `${mark}$${cost.toFixed(4)}`;
	if (cost < 1) return `${mark}$${cost.toFixed(3)}`;
	return `${mark}$${cost.toFixed(2)}`;
}

/** Every token a call sent: uncached input plus cache reads and writes. What "↑" means on every screen. */
export function inputTokens(usage: Usage): number {
	return usage.input + usage.cacheRead + usage.cacheWrite;
}

/** "↑12.4k": the tokens sent (inputTokens); "~" marks an estimate (a reply cut before its usage came). */
export function formatSent(usage: Usage): string {
	return `↑${usage.estimated ? "~" : ""}${formatTokens(inputTokens(usage))}`;
}

/** "↑12.4k ↓950": tokens sent and received, the one way usage is shown; "~" marks estimates. */
export function formatUsage(usage: Usage): string {
	return `${formatSent(usage)} ↓${usage.estimated ? "~" : ""}${formatTokens(usage.output)}`;
}

/** The cost of some totals, estimated when their usage is. */
export function formatTotalsCost(totals: Totals): string {
	return formatCost(totals.costUsd, totals.usage.estimated === true);
}

/** Every token some usage billed: sent (input and cache) and received. Never the context's size. */
export function billedTokens(usage: Usage): number {
	return inputTokens(usage) + usage.output;
}

/** "2 sub-agent runs · 31k tokens · $0.024": what sub-agents reported, in the words of every screen. */
export function formatSubagents(totals: SubagentTotals): string {
	const runs = `${totals.runs} sub-agent run${totals.runs === 1 ? "" : "s"}`;
	return `${runs} · ${formatTokens(billedTokens(totals.usage))} tokens · ${formatCost(totals.costUsd, totals.usage.estimated === true)}`;
}

/** 850 ms, 4.1 s, 2 m 05 s. */
export function formatDuration(ms: number): string {
	if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
	if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
	const s = Math.round(ms / 1000);
	return `${Math.floor(s / 60)} m ${String(s % 60).padStart(2, "0")} s`;
}

/** The main argument of a call: the path, or the whole command. */
export function toolTarget(item: Pick<ToolItem, "name" | "args">): string {
	const args = item.args ?? {};
	const main = args.command ?? args.path;
	if (typeof main === "string") return main;
	return item.args ? JSON.stringify(item.args) : "";
}

/** One line on how a call went, from its typed details: "lines 1–120 of 340", "+3 −1", "exit 0 · 4.1 s". */
export function toolSummary(item: ToolItem): string {
	switch (item.status) {
		case "streaming":
			return "…";
		case "pending":
			return "waiting";
		case "awaiting_approval":
			return "awaiting approval";
		case "running":
			return item.progress ? `running · ${plural(item.progress.totalLines, "line")} of output` : "running";
		case "denied":
			return item.stopped ? "denied (Esc)" : "denied";
		case "skipped":
			return "skipped (a new message came first)";
		case "not_run":
			return "not run";
		case "interrupted":
			return item.startedAt === undefined ? "not run (gar exited)" : "interrupted (gar exited)";
		default:
			break;
	}
	const d = item.details;
	if (!d || d.kind === "error") return firstLine(item.content ?? (d?.kind === "error" ? d.message : ""));
	switch (d.kind) {
		case "read":
			if (d.totalLines === 0) return "empty file";
			return `lines ${d.startLine}–${d.endLine}${d.totalLines === null ? "" : ` of ${d.totalLines}`}${d.truncated ? " (cut at the limit)" : ""}`;
		case "write":
			return d.action === "created"
				? `created · ${plural(d.lines, "line")}`
				: `overwritten · +${d.added} −${d.removed}`;
		case "edit":
			return `+${d.added} −${d.removed} · from line ${d.firstChangedLine}`;
		case "bash": {
			const time = formatDuration(d.durationMs);
			const files = d.files ? bashFilesLine(d.files) : "";
			const after = files ? ` · ${files}` : "";
			if (d.timedOut) return `timed out after ${time}${after}`;
			if (d.aborted) return `aborted after ${time}${after}`;
			if (d.signal) return `killed by ${d.signal} · ${time}${after}`;
			return `exit ${d.exitCode} · ${time}${d.truncated ? ` · ${plural(d.totalLines, "line")}, cut` : ""}${after}`;
		}
	}
}

const HOW_MARK = { created: " (new)", changed: "", deleted: " (deleted)" } as const;

/**
 * What a bash command changed, as its block says it: "changed 3 files: a.ts, b.ts (new), old.ts (deleted)" (the
 * first `names`, then how many more); "(scan incomplete)" when the scan's cap cut it; "" when nothing and not cut.
 */
export function bashFilesLine(files: BashFileChanges, names = 3): string {
	const cut = files.cut ? " (scan incomplete)" : "";
	if (files.total === 0) return cut ? `changes not all seen${cut}` : "";
	const shown = files.paths.slice(0, names).map((p) => `${p.path}${HOW_MARK[p.how]}`);
	const more = files.total - shown.length;
	return `changed ${plural(files.total, "file")}${cut}: ${shown.join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
}

/**
 * The question an approval asks, in words: what the call will do (the diff or command follow separately). Ready
 * for a terminal: control and zero-width characters in a path or cwd are shown (`revealHidden`).
 */
export function previewHeadline(name: string, preview: ToolPreview): string {
	return revealHidden(headline(name, preview));
}

function headline(name: string, preview: ToolPreview): string {
	switch (preview.kind) {
		case "write":
			return preview.action === "create"
				? `write: create ${preview.path} (${plural(preview.lines, "line")})`
				: `write: overwrite ${preview.path} (+${preview.added} −${preview.removed})`;
		case "edit":
			return `edit ${preview.path} (+${preview.added} −${preview.removed}, from line ${preview.firstChangedLine})`;
		case "bash":
			return `bash in ${preview.cwd} (timeout ${formatDuration(preview.timeoutMs)})`;
		case "read": {
			const from = preview.offset ?? 1;
			const lines = preview.limit ? `lines ${from}–${from + preview.limit - 1}` : `from line ${from}`;
			return `read ${preview.path} (${lines})`;
		}
		case "invalid":
			return `${name}: this call will fail: ${firstLine(preview.message)}`;
	}
}

/** The first line of a text, at most `max` characters. */
export function firstLine(text: string, max = 160): string {
	const line = text.split("\n", 1)[0] ?? "";
	return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Spaces in a row from this many on (tabs from a quarter of it) are shown as one mark: `␣×300`, `⇥×8`. */
const BLANK_RUN = 16;
const BLANKS = new RegExp(` {${BLANK_RUN},}|\t{${BLANK_RUN / 4},}`, "g");

/**
 * `text` with every long run of spaces or tabs shown as a mark that says how long it is (`␣×300`), so a command
 * cannot push its end out of sight with blanks. A diff line keeps its indentation (`keepIndent`): code is
 * indented, and nothing can hide before the text that follows it.
 */
export function markBlankRuns(text: string, keepIndent = false): string {
	if (!text.includes(" ".repeat(BLANK_RUN)) && !text.includes("\t".repeat(BLANK_RUN / 4))) return text;
	const indent = keepIndent ? (/^[ \t]*/.exec(text)?.[0].length ?? 0) : 0;
	return (
		text.slice(0, indent) + text.slice(indent).replace(BLANKS, (run) => `${run[0] === " " ? "␣" : "⇥"}×${run.length}`)
	);
}

/**
 * The body of an approval question: the whole command (`$` first line, `>` the others) or the whole diff, one
 * string per line, ready for a terminal: control and zero-width characters shown (`revealHidden`), long runs of
 * blanks marked (`markBlankRuns`). Never cut: a view wraps what is wider than itself.
 */
export function previewBody(preview: ToolPreview): string[] {
	switch (preview.kind) {
		case "bash":
			return preview.command
				.split("\n")
				.map((line, i) => `${i === 0 ? "$" : ">"} ${markBlankRuns(revealHidden(line))}`);
		case "write":
		case "edit": {
			const lines = preview.diff.replace(/\n$/, "").split("\n");
			// The file headers repeat the path the headline already names.
			const body = lines
				.filter((l) => !l.startsWith("--- ") && !l.startsWith("+++ ") && !l.startsWith("==="))
				.map((l) => l.slice(0, 1) + markBlankRuns(revealHidden(l.slice(1)), true));
			return preview.diffTruncated
				? [...body, "[… the diff is larger than shown; it was cut at the size limit]"]
				: body;
		}
		case "read":
			return [];
		case "invalid":
			return preview.message.split("\n").map(revealHidden);
	}
}

/**
 * The keys of an approval question, as the app and the line mode both say them; `prefixes`: what p allows from now
 * on (saved as rules), each shown exactly, hidden characters made visible.
 */
export function approvalKeys(name: string, prefixes?: readonly string[]): string[] {
	const always = prefixes?.length ? [`p allow commands starting with ${prefixLabel(prefixes)} (saved)`] : [];
	return ["y allow once", `a allow ${name} for this session`, ...always, "n deny", "Esc deny and stop"];
}

/** Prefixes as the dialog shows them: `npm test`, `grep` (backticks; hidden characters made visible). */
export function prefixLabel(prefixes: readonly string[]): string {
	return prefixes.map((prefix) => `\`${revealHidden(prefix)}\``).join(", ");
}

/** What an approval question warns about when `approvalFlagged` says so. */
export const APPROVAL_WARNING = "⚠ contains control, bidi or zero-width characters: shown as ␛ ^G ⟨U+…⟩";

/**
 * Whether what a person is asked to approve holds characters written to look like something else on a terminal:
 * controls, bidi overrides, zero-width characters (in the command, cwd, path or diff).
 */
export function approvalFlagged(preview: ToolPreview): boolean {
	const texts =
		preview.kind === "bash"
			? [preview.command, preview.cwd]
			: preview.kind === "invalid"
				? [preview.message]
				: preview.kind === "read"
					? [preview.path]
					: [preview.path, preview.diff];
	return texts.some((text) => hasHostileControls(text) || hasZeroWidth(text));
}

/** The line printed when an interactive mode ends: how to continue the session (`mode`: e.g. "--plain "). */
export function resumeHint(sessionId: string | undefined, mode = ""): string {
	return sessionId
		? `gar: session ${sessionId} · continue it with: gar ${mode}-c   (or gar ${mode}--session ${sessionId})`
		: "gar: nothing was saved";
}

/**
 * Where the conversation is in the session's tree, for the inspector: "2 of 3" (the second of three branches,
 * oldest first), "new (2 others)" after moving back to an entry that has later ones, "–" before the
 * first entry.
 */
export function branchLabel(leafIds: readonly string[], current: string | null): string {
	if (current === null || leafIds.length === 0) return "–";
	const at = leafIds.indexOf(current);
	if (at >= 0) return `${at + 1} of ${leafIds.length}`;
	return `new (${leafIds.length} other${leafIds.length === 1 ? "" : "s"})`;
}
