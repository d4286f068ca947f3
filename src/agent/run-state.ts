import { addTotals, NO_SUBAGENTS, type SubagentTotals } from "../llm/spend.js";
import { type AssistantMessage, addUsage, EMPTY_USAGE, type ErrorKind, textOf, type Usage } from "../llm/types.js";
import type { AgentEvent, RunStopReason } from "./events.js";

/** How a run ended, field for field as its `agent_end` event says it (the one definition of these fields). */
export type RunEnd = Omit<Extract<AgentEvent, { type: "agent_end" }>, "type">;

/** What `Agent.run` returns: how the run ended, and its answer. */
export type RunResult = RunEnd & {
	/** The final answer: the text of the last assistant message. */
	text: string;
	/** The parsed answer when an output schema was given and it validated. */
	structured?: unknown;
};

/** Why a run stops, as a step of the loop decides it. */
export type RunStop = { stop: RunStopReason; error?: string; errorKind?: ErrorKind };

/**
 * What one run has spent and how it ends: turns, usage and cost (null once any call's price is unknown), the last
 * reply. Builds both the run's result and its `agent_end` event, so the two always agree.
 */
export class RunTotals {
	turns = 0;
	private usage: Usage = EMPTY_USAGE;
	private cost: number | null = 0;
	private subagents: SubagentTotals = NO_SUBAGENTS;
	last: AssistantMessage | undefined;
	structured: unknown;
	private ending: RunStop = { stop: "done" };

	constructor(
		readonly runId: string,
		private readonly started: number,
	) {}

	/** Counts a model call (a reply, or a compaction's summary request). */
	spend(usage: Usage, cost: number | null): void {
		this.usage = addUsage(this.usage, usage);
		this.cost = this.cost === null || cost === null ? null : this.cost + cost;
	}

	/** Counts what a command's sub-agents reported: apart from the run's own usage and cost. */
	spendSubagents(totals: SubagentTotals): void {
		this.subagents = addTotals(this.subagents, totals);
	}

	/** Sets how the run ends (the default: done). */
	end(ending: RunStop): void {
		this.ending = ending;
	}

	/** The run's result at `now`; an aborted run always says so in `error` and `errorKind`. */
	result(now: number): RunResult {
		const { stop, error, errorKind } = this.ending;
		const result: RunResult = {
			runId: this.runId,
			stopReason: stop,
			turns: this.turns,
			usage: this.usage,
			costUsd: this.cost,
			durationMs: now - this.started,
			text: this.last ? textOf(this.last) : "",
		};
		if (this.structured !== undefined) result.structured = this.structured;
		if (this.subagents.runs > 0) result.subagents = this.subagents;
		const aborted = stop === "aborted";
		if (error !== undefined || aborted) result.error = error ?? "aborted";
		if (errorKind !== undefined || aborted) result.errorKind = errorKind ?? "aborted";
		return result;
	}
}

/** The `agent_end` event of a run's result: the same fields, without the answer. */
export function agentEnd(result: RunResult): AgentEvent {
	const { text: _text, structured: _structured, ...end } = result;
	return { type: "agent_end", ...end };
}

/**
 * When the loop may compact during one run: after a failed compaction no automatic one; one retry per overflow;
 * never twice in a row. A reply that arrives (neither failed nor aborted) makes compacting possible again.
 */
export class CompactionBudget {
	private autoFailed = false;
	private overflowRetried = false;
	private compacted = false;

	/** An automatic compaction may be tried before the next request. */
	get autoAllowed(): boolean {
		return !this.autoFailed && !this.compacted;
	}

	/** A request that was too long may be compacted and retried. */
	get overflowAllowed(): boolean {
		return !this.overflowRetried && !this.compacted;
	}

	/** A compaction ran: it worked, or it failed (then no automatic one for the rest of the run). */
	compactedNow(ok: boolean): void {
		if (ok) this.compacted = true;
		else this.autoFailed = true;
	}

	/** The request that was too long is sent again, compacted. */
	retryOverflow(): void {
		this.overflowRetried = true;
	}

	/** The reset rule: a reply arrived. */
	replied(): void {
		this.compacted = false;
		this.overflowRetried = false;
	}
}
