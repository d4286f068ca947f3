// What both export formats say about a part, in words: the same facts, written once.
import { formatCost, formatDuration, formatTokens, formatUsage, toolSummary, toolTarget } from "../../view/format.js";
import { hookLine } from "../../view/hook-line.js";
import type { ChatItem, ToolItem } from "../../view/state.js";
import type { ExportDocument, TurnFacts } from "./document.js";

/** Longest tool target shown in a call's one-line summary (the whole of it is in the body). */
const TARGET_MAX = 120;

/** "bash", "npm test", "exit 0 · 4.1 s": a call's name, its target on one line, and how it went. */
export function toolHead(item: ToolItem): { name: string; target: string; outcome: string } {
	const whole = toolTarget(item).replace(/\s*\n\s*/g, " ⏎ ");
	const target = whole.length > TARGET_MAX ? `${whole.slice(0, TARGET_MAX - 1)}…` : whole;
	return { name: item.name, target, outcome: toolSummary(item) };
}

/** What a call's body shows: the command or the arguments, the diff, what the model read back, its hooks' lines. */
export type ToolBody = {
	command?: string;
	args?: string;
	diff?: string;
	diffCut?: boolean;
	output?: string;
	hooks?: string[];
};

/**
 * A call's body: a bash call's command, a write's or edit's diff, other calls' arguments as JSON (not a lone path: the
 * summary shows it); then the result the model read, except a write's or edit's short confirmation, which the diff
 * says better.
 */
export function toolBody(item: ToolItem): ToolBody {
	const body: ToolBody = {};
	const { details, args } = item;
	const command = args?.command;
	if (item.name === "bash" && typeof command === "string") body.command = command;
	else if (details?.kind === "edit" || details?.kind === "write") {
		body.diff = details.diff;
		if (details.diffTruncated) body.diffCut = true;
	} else if (args && Object.keys(args).some((key) => key !== "path")) body.args = JSON.stringify(args, null, 2);
	else if (!args && item.argsText) body.args = item.argsText;
	const content = item.content ?? "";
	const confirmed = !item.isError && (details?.kind === "edit" || details?.kind === "write");
	if (content !== "" && !confirmed) body.output = content;
	if (item.hooks && item.hooks.length > 0) body.hooks = item.hooks.map(hookLine);
	return body;
}

/** "turn 2 · anthropic/claude-sonnet-4-5 · ↑21.2k ↓300 · cache r 20k w 800 · $0.0123 · 4.1 s". */
export function turnLine(turn: TurnFacts): string {
	const { usage } = turn;
	const cache = `cache r ${formatTokens(usage.cacheRead)} w ${formatTokens(usage.cacheWrite)}`;
	const cost = formatCost(turn.costUsd, usage.estimated === true);
	const model = `${turn.provider}/${turn.model}`;
	return `turn ${turn.turn} · ${model} · ${formatUsage(usage)} · ${cache} · ${cost} · ${formatDuration(turn.durationMs)}`;
}

/** "compacted: 182k → 24k tokens", or why a compaction did not happen. */
export function compactionLine(item: Extract<ChatItem, { kind: "compaction" }>): string {
	if (item.ok) return `compacted: ${formatTokens(item.tokensBefore)} → ${formatTokens(item.tokensAfter)} tokens`;
	return item.aborted ? "compaction aborted: the context is unchanged" : `compaction failed: ${item.error ?? ""}`;
}

/** How a message reached the run, named above it ("" for a prompt typed as a task). */
export const SOURCE_LABEL: Readonly<Record<string, string>> = {
	prompt: "",
	steer: "steer",
	follow_up: "follow-up",
	shell: "shell",
	schema_retry: "gar asked the model",
	hook: "from a hook",
};

/** The lines under the title: the session, its folder and date, the path, the models, what it all cost. */
export function metaLines(doc: ExportDocument): [label: string, value: string][] {
	const lines: [string, string][] = [["session", doc.name ? `${doc.sessionId} (${doc.name})` : doc.sessionId]];
	lines.push(["folder", doc.cwd], ["created", doc.createdAt]);
	lines.push(["path", `${doc.entries} entries${doc.leafId ? ` up to ${doc.leafId}` : ""}`]);
	if (doc.models.length > 0) lines.push(["models", doc.models.join(", ")]);
	const { usage } = doc.totals;
	const cost = formatCost(doc.totals.costUsd, usage.estimated === true);
	lines.push([
		"total",
		`${formatUsage(usage)} · cache r ${formatTokens(usage.cacheRead)} w ${formatTokens(usage.cacheWrite)} · ${cost}`,
	]);
	return lines;
}
