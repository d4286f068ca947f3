import type { AgentEvent } from "../agent/events.js";
import type { SubagentTotals } from "../llm/spend.js";
import type { Usage } from "../llm/types.js";
import { failureLines } from "../view/failure-lines.js";
import {
	firstLine,
	formatCost,
	formatDuration,
	formatSubagents,
	formatTokens,
	formatUsage,
	toolSummary,
	toolTarget,
} from "../view/format.js";
import { hookLine } from "../view/hook-line.js";
import { reduce } from "../view/reducer.js";
import { initialView, type ToolItem } from "../view/state.js";

export type TranscriptOptions = {
	/** Makes text safe for a terminal (escape sequences shown, not interpreted); identity for a file or pipe. */
	safe?: (text: string) => string;
	now?: () => number;
	/** Whether the person's prompts are written (false where they were typed on the same screen: the line mode). */
	echoPrompts?: boolean;
};

const SOURCE_LABEL = { prompt: "", steer: "(steer) ", follow_up: "(follow-up) ", hook: "(from a hook) " } as const;

/** What a run's last line says of it: the stop reason, turns, tokens, cost, time, and an error worth telling. */
export type RunFacts = {
	stopReason: string;
	turns: number;
	usage: Usage;
	costUsd: number | null;
	durationMs: number;
	error?: string;
	/** What the run's sub-agents reported, apart from its own figures. */
	subagents?: SubagentTotals;
};

/** "done · 2 turns · ↑330 ↓30 · cache r 0 w 50 · $0.0020 · 2.0 s": a run's summary (transcripts, exports). */
export function runLine(run: RunFacts): string {
	const { usage } = run;
	const tokens = `${formatUsage(usage)} · cache r ${formatTokens(usage.cacheRead)} w ${formatTokens(usage.cacheWrite)}`;
	const turns = `${run.turns} turn${run.turns === 1 ? "" : "s"}`;
	const error = run.error && run.stopReason !== "aborted" ? ` · ${run.error}` : "";
	const cost = formatCost(run.costUsd, usage.estimated === true);
	const sub = run.subagents ? ` · ${formatSubagents(run.subagents)} (as reported)` : "";
	return `${run.stopReason} · ${turns} · ${tokens} · ${cost}${sub} · ${formatDuration(run.durationMs)}${error}`;
}

/** "· bash npm test — exit 0 · 4.1 s": the call's whole target (never cut) and how it went. */
export function toolLine(item: ToolItem): string {
	const mark = item.status === "done" ? "·" : "✗";
	const target = toolTarget(item).replaceAll("\n", "\n    ");
	let line = `${mark} ${item.name} ${target} — ${toolSummary(item)}`;
	if (item.rule) line += `\n  allowed by the rule ${item.rule}`;
	if (item.status === "error" && item.details?.kind === "bash") {
		// The lines that say what went wrong, numbered, as the app shows them folded.
		const { lines, more } = failureLines(item.content ?? "");
		for (const { line: n, text } of lines) line += `\n  ${n} ${text}`;
		if (more > 0) line += `\n  … ${more} more such line${more === 1 ? "" : "s"}`;
	} else if (item.status === "error" && item.details?.kind !== "error") line += `\n  ${firstLine(item.content ?? "")}`;
	const sub = item.details?.kind === "bash" ? item.details.subagents : undefined;
	if (sub && sub.totals.runs > 0) line += `\n  ⤷ ${formatSubagents(sub.totals)} (as reported)`;
	for (const why of sub?.ignored ?? []) line += `\n  ⚠ a sub-agent report was ignored: ${why}`;
	return line;
}

/**
 * Renders agent events as a plain-text transcript for a person (the line mode, `gar replay`): prompts, the
 * streamed answer, one line per tool call with its outcome, retries, errors and a summary per run. It keeps the
 * view through the shared reducer, so what it says about a call is what the full-screen UI says. O(event).
 */
export function createTranscript(
	write: (text: string) => void,
	options: TranscriptOptions = {},
): (event: AgentEvent) => void {
	const safe = options.safe ?? ((text: string) => text);
	const now = options.now ?? Date.now;
	let view = initialView({ provider: "", model: "" });
	let atLineStart = true;
	const out = (text: string) => {
		if (!text) return;
		const shown = safe(text);
		write(shown);
		atLineStart = shown.endsWith("\n");
	};
	const line = (text: string) => out(`${atLineStart ? "" : "\n"}${text}\n`);
	return (event) => {
		// The calls a run leaves open are shown when it ends (a replayed session whose gar exited while they ran).
		const open = event.type === "agent_end" ? [...view.index.calls.values()] : [];
		view = reduce(view, event, now());
		switch (event.type) {
			case "user_message": {
				const { source } = event;
				const text = event.message.content;
				if (source === "prompt" && options.echoPrompts === false) break;
				if (source === "schema_retry") line(`[gar asked the model: ${firstLine(text)}]`);
				else if (source === "shell") line(`\n${text.replaceAll("\n", "\n  ")}`);
				else line(`\n> ${SOURCE_LABEL[source]}${text.replaceAll("\n", "\n  ")}\n`);
				break;
			}
			case "text_delta":
				out(event.delta);
				break;
			case "tool_end": {
				const item = view.items[view.index.calls.get(event.callId) ?? -1];
				if (item?.kind === "tool") line(toolLine(item));
				break;
			}
			case "message_end":
				if (event.message.stopReason === "error" || event.message.stopReason === "aborted") {
					line(`[${event.message.stopReason}: ${event.message.error ?? "no details"}]`);
				} else if (!atLineStart) out("\n");
				break;
			case "compaction_end":
				if (event.ok)
					line(`[compacted: ${formatTokens(event.tokensBefore)} → ${formatTokens(event.tokensAfter)} tokens]`);
				else
					line(
						event.aborted ? "[compaction aborted: the context is unchanged]" : `[compaction failed: ${event.error}]`,
					);
				break;
			case "agent_end": {
				for (const index of open) {
					const item = view.items[index];
					if (item?.kind === "tool" && item.status === "interrupted") line(toolLine(item));
				}
				line(`[${runLine(event)}]`);
				break;
			}
			default: {
				const note = noteOf(event);
				if (note !== undefined) line(`[${note}]`);
			}
		}
	};
}

/** The one-line note (shown in brackets) of an event that is not part of the conversation itself, if it is one. */
function noteOf(event: AgentEvent): string | undefined {
	switch (event.type) {
		case "retry":
			return `retry ${event.attempt}/${event.maxAttempts} in ${formatDuration(event.delayMs)}: ${event.reason}`;
		case "session_error":
			return `warning: could not save to ${event.file}: ${event.error}`;
		case "notice":
			return `${event.level}: ${event.message}`;
		case "hook":
			return hookLine(event);
		default:
			return undefined;
	}
}
