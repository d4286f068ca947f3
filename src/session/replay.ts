import type { AgentEvent, RunStopReason } from "../agent/events.js";
import { type AssistantMessage, addUsage, EMPTY_USAGE, type StopReason, type Usage } from "../llm/types.js";
import { knownBlocks, type ModelRef } from "./context.js";
import type { AssistantEntry, NodeEntry, ToolResultEntry } from "./format.js";
import type { Session } from "./session.js";

/** A recorded event and when it happened (ISO), so a caller can pace a replay (`--speed`). */
export type ReplayEvent = { event: AgentEvent; ts: string };

type Run = { turns: number; usage: Usage; costUsd: number | null; startTs: string; last?: AssistantEntry };

const RUN_STOP: Record<StopReason, RunStopReason> = {
	stop: "done",
	length: "length",
	error: "error",
	aborted: "aborted",
	// A run whose last reply asked for tools but got no further reply was cut short.
	tool_use: "aborted",
};

/** An ISO time `fraction` of the way from `from` to `to` (to `to` when either does not parse). */
function between(from: string, to: string, fraction: number): string {
	const a = Date.parse(from);
	const b = Date.parse(to);
	if (Number.isNaN(a) || Number.isNaN(b) || b < a) return to;
	return new Date(a + (b - a) * fraction).toISOString();
}

function messageOf(entry: AssistantEntry): AssistantMessage {
	const { provider, model, usage, stopReason, error } = entry;
	const content = knownBlocks(entry.content);
	return { role: "assistant", content, provider, model, usage, stopReason, ...(error === undefined ? {} : { error }) };
}

function* replyEvents(entry: AssistantEntry, turn: number, startTs: string): Generator<ReplayEvent> {
	yield { event: { type: "turn_start", turn }, ts: startTs };
	yield { event: { type: "message_start", turn }, ts: startTs };
	const message = messageOf(entry);
	const deltas: AgentEvent[] = [];
	for (const block of message.content) {
		if (block.type === "text") deltas.push({ type: "text_delta", delta: block.text });
		else if (block.type === "thinking" && !block.redacted)
			deltas.push({ type: "thinking_delta", delta: block.thinking });
		else if (block.type === "tool_call") {
			deltas.push({ type: "toolcall_start", callId: block.id, name: block.name });
			deltas.push({
				type: "toolcall_delta",
				callId: block.id,
				delta: block.rawArguments ?? JSON.stringify(block.arguments),
			});
		}
	}
	for (const [i, event] of deltas.entries())
		yield { event, ts: between(startTs, entry.ts, (i + 1) / (deltas.length + 1)) };
	yield { event: { type: "message_end", message, costUsd: entry.costUsd ?? null }, ts: entry.ts };
}

function* toolEvents(entry: ToolResultEntry, args: Record<string, unknown>): Generator<ReplayEvent> {
	const { callId, name, content, details, isError } = entry;
	const durationMs = entry.durationMs ?? 0;
	const started = Date.parse(entry.ts) - durationMs;
	yield {
		event: { type: "tool_start", callId, name, args },
		ts: Number.isNaN(started) ? entry.ts : new Date(started).toISOString(),
	};
	yield {
		event: {
			type: "tool_end",
			callId,
			name,
			result: { content, details, isError },
			message: { role: "tool_result", callId, name, content, isError },
			durationMs,
		},
		ts: entry.ts,
	};
}

/** The model for a run's agent_start: the one in effect, else the next reply's. */
function modelAhead(path: readonly NodeEntry[], from: number, current: ModelRef | undefined): ModelRef {
	if (current) return current;
	for (let i = from; i < path.length; i++) {
		const entry = path[i];
		if (entry?.type === "assistant") return { provider: entry.provider, model: entry.model };
	}
	return { provider: "unknown", model: "unknown" };
}

/**
 * Re-emits the conversation on the path to `leafId` (default: the current leaf) as the events the agent loop
 * emitted, without calling a model: per run agent_start, user_message, then per reply turn_start, message_start,
 * one delta per block, message_end, tool_start/tool_end per result, turn_end, and agent_end with summed usage.
 * A user entry starts a new run unless the last reply asked for tools (then it was a steer within the run).
 */
export function* replayEvents(session: Session, leafId: string | null = session.leafId): Generator<ReplayEvent> {
	const path = session.pathTo(leafId);
	let model: ModelRef | undefined;
	let run: Run | undefined;
	let openTurn = false;
	let lastTs = session.header.createdAt;
	let calls = new Map<string, Record<string, unknown>>();
	let runs = 0;

	function* closeTurn(): Generator<ReplayEvent> {
		if (!openTurn || !run?.last) return;
		openTurn = false;
		yield { event: { type: "turn_end", turn: run.turns, stopReason: run.last.stopReason }, ts: lastTs };
	}
	function* endRun(): Generator<ReplayEvent> {
		if (!run) return;
		yield* closeTurn();
		const last = run.last;
		const elapsed = Date.parse(lastTs) - Date.parse(run.startTs);
		const event: AgentEvent = {
			type: "agent_end",
			stopReason: last ? RUN_STOP[last.stopReason] : "done",
			turns: run.turns,
			usage: run.usage,
			costUsd: run.costUsd,
			durationMs: Number.isNaN(elapsed) ? 0 : Math.max(0, elapsed),
			...(last?.error === undefined ? {} : { error: last.error }),
		};
		run = undefined;
		yield { event, ts: lastTs };
	}
	function* startRun(index: number, ts: string): Generator<ReplayEvent> {
		runs++;
		const { provider, model: name } = modelAhead(path, index, model);
		run = { turns: 0, usage: EMPTY_USAGE, costUsd: 0, startTs: ts };
		yield { event: { type: "agent_start", runId: `replay-${runs}`, provider, model: name }, ts };
	}

	for (const [index, entry] of path.entries()) {
		switch (entry.type) {
			case "model_change":
				model = { provider: entry.provider, model: entry.model };
				break;
			case "user":
				if (run && run.last?.stopReason !== "tool_use") yield* endRun();
				yield* closeTurn();
				if (!run) yield* startRun(index, entry.ts);
				yield { event: { type: "user_message", message: { role: "user", content: entry.content } }, ts: entry.ts };
				break;
			case "assistant": {
				if (!run) yield* startRun(index, lastTs);
				const current = run as Run;
				yield* closeTurn();
				current.turns++;
				yield* replyEvents(entry, current.turns, lastTs);
				current.usage = addUsage(current.usage, entry.usage);
				const cost = entry.costUsd ?? null;
				current.costUsd = current.costUsd === null || cost === null ? null : current.costUsd + cost;
				current.last = entry;
				openTurn = true;
				model = { provider: entry.provider, model: entry.model };
				calls = new Map(
					knownBlocks(entry.content).flatMap((b) => (b.type === "tool_call" ? [[b.id, b.arguments]] : [])),
				);
				break;
			}
			case "tool_result":
				yield* toolEvents(entry, calls.get(entry.callId) ?? {});
				break;
			case "unknown":
				break;
		}
		lastTs = entry.ts;
	}
	yield* endRun();
}
