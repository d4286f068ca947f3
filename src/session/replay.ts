import type { AgentEvent, RequestInfo, RunStopReason, ToolOutcome } from "../agent/events.js";
import { describeTools, estimateTokens } from "../agent/request-info.js";
import { priceOf } from "../llm/models.js";
import { addUsage, EMPTY_USAGE, type StopReason, type Usage } from "../llm/types.js";
import { toolDetailsOf } from "../tools/details-of.js";
import { assistantMessageOf, isKnownBlock, type ModelRef, toolCallsOf } from "./context.js";
import type {
	AssistantEntry,
	CompactionEntry,
	HookRecordEntry,
	NodeEntry,
	RequestEntry,
	RunEntry,
	SystemPromptEntry,
	ToolResultEntry,
	UserEntry,
} from "./format.js";
import type { Session } from "./session.js";

/** A recorded event and when it happened (ISO), so a caller can pace a replay (`--speed`). */
export type ReplayEvent = { event: AgentEvent; ts: string };

type Run = { id: string; turns: number; usage: Usage; costUsd: number | null; startTs: string; last?: AssistantEntry };

/** Used only for sessions written before run records existed. */
const RUN_STOP: Record<StopReason, RunStopReason> = {
	stop: "done",
	length: "length",
	error: "error",
	refusal: "error",
	aborted: "aborted",
	// A run whose last reply asked for tools but got no further reply was cut short.
	tool_use: "aborted",
};

/** The ISO time `fraction` of the way from `from` to `to` (always `to` when either does not parse). */
function between(from: string, to: string): (fraction: number) => string {
	const a = Date.parse(from);
	const b = Date.parse(to);
	if (Number.isNaN(a) || Number.isNaN(b) || b < a) return () => to;
	return (fraction) => new Date(a + (b - a) * fraction).toISOString();
}

/** The records of a session that replay needs, indexed once: O(entries). */
class Records {
	readonly runs = new Map<string, RunEntry>();
	/** Request records by the id of the assistant entry they follow. */
	readonly requests = new Map<string, RequestEntry>();
	readonly prompts = new Map<string, SystemPromptEntry>();
	/** The hook runs of each tool call, in the order they ran. */
	readonly hooks = new Map<string, HookRecordEntry[]>();

	constructor(session: Session) {
		for (const entry of session.entries) {
			if (entry.type === "run") this.runs.set(entry.runId, entry);
			else if (entry.type === "request" && entry.parentId !== null) this.requests.set(entry.parentId, entry);
			else if (entry.type === "system_prompt") this.prompts.set(entry.hash, entry);
			else if (entry.type === "hook" && entry.callId !== undefined) {
				const list = this.hooks.get(entry.callId) ?? [];
				list.push(entry);
				this.hooks.set(entry.callId, list);
			}
		}
	}

	/** The request event a recorded request stands for, when its prompt record is there too. */
	requestInfo(record: RequestEntry): RequestInfo {
		const prompt = this.prompts.get(record.promptHash);
		const text = prompt?.text ?? "";
		return {
			requestId: record.requestId,
			turn: record.turn,
			provider: record.provider,
			model: record.model,
			params: record.params,
			system: {
				hash: record.promptHash,
				chars: text.length,
				tokens: estimateTokens(text.length),
				parts: (prompt?.parts ?? []).map(({ text: _text, ...part }) => part),
			},
			// The same summary the live request gave, from the stored definitions; the hash is the recorded one.
			tools: { ...describeTools(prompt?.tools ?? []), hash: record.toolsHash },
			messages: { count: record.messageCount, tokens: record.messageTokens },
		};
	}
}

function* replyEvents(entry: AssistantEntry, run: Run, startTs: string, records: Records): Generator<ReplayEvent> {
	const turn = run.turns;
	const record = records.requests.get(entry.id);
	const requestId = record?.requestId ?? `${run.id}.${turn}`;
	const maxTurns = records.runs.get(run.id)?.maxTurns ?? 0;
	yield { event: { type: "turn_start", turn, maxTurns }, ts: startTs };
	if (record) yield { event: { type: "request", ...records.requestInfo(record) }, ts: startTs };
	yield { event: { type: "message_start", turn, requestId }, ts: startTs };
	const message = assistantMessageOf(entry);
	const deltas: AgentEvent[] = [];
	for (const [contentIndex, block] of entry.content.entries()) {
		if (!isKnownBlock(block)) continue;
		if (block.type === "text") deltas.push({ type: "text_delta", delta: block.text, contentIndex });
		else if (block.type === "thinking" && !block.redacted) {
			deltas.push({ type: "thinking_delta", delta: block.thinking, contentIndex });
		} else if (block.type === "tool_call") {
			const callId = block.id;
			deltas.push({ type: "toolcall_start", callId, name: block.name, contentIndex });
			const delta = block.rawArguments ?? JSON.stringify(block.arguments);
			deltas.push({ type: "toolcall_delta", callId, delta, contentIndex });
		}
	}
	const at = between(startTs, entry.ts); // the two times parsed once per reply, not once per delta
	for (const [i, event] of deltas.entries()) yield { event, ts: at((i + 1) / (deltas.length + 1)) };
	const durationMs = record?.durationMs ?? Math.max(0, Date.parse(entry.ts) - Date.parse(startTs) || 0);
	yield {
		event: {
			type: "message_end",
			requestId,
			turn,
			message,
			costUsd: entry.costUsd ?? null,
			timing: {
				startedAt: record?.startedAt ?? Date.parse(entry.ts) - durationMs,
				firstTokenMs: record?.ttftMs ?? null,
				durationMs,
			},
			retries: record?.retries ?? 0,
			...(entry.errorKind === undefined ? {} : { errorKind: entry.errorKind }),
			...(record?.bodySha256 ? { body: { sha256: record.bodySha256, bytes: record.bodyBytes ?? 0 } } : {}),
		},
		ts: entry.ts,
	};
}

/** The `hook` event a hook record was written from. */
function hookEvent(record: HookRecordEntry): ReplayEvent {
	const { id: _id, parentId: _parent, ts, meta: _meta, runId: _run, type: _type, ...run } = record;
	return { event: { type: "hook", ...run }, ts };
}

/** A tool call's events: its PreToolUse hooks, tool_start (when it ran), its PostToolUse hooks, tool_end. */
function* toolEvents(
	entry: ToolResultEntry,
	args: Record<string, unknown>,
	hooks: readonly HookRecordEntry[],
): Generator<ReplayEvent> {
	const { callId, name, content, isError } = entry;
	const durationMs = entry.durationMs ?? 0;
	const outcome: ToolOutcome = entry.outcome ?? (isError ? "error" : "done");
	const started = Date.parse(entry.ts) - durationMs;
	for (const hook of hooks) if (hook.event === "PreToolUse") yield hookEvent(hook);
	if (outcome === "done" || outcome === "error") {
		yield {
			event: { type: "tool_start", callId, name, args },
			ts: Number.isNaN(started) ? entry.ts : new Date(started).toISOString(),
		};
	}
	for (const hook of hooks) if (hook.event !== "PreToolUse") yield hookEvent(hook);
	// Older sessions wrote details without a `kind`: typed here, so no view ever casts by tool name.
	const details = toolDetailsOf(name, entry.details ?? null);
	yield { event: { type: "tool_end", callId, name, outcome, content, details, isError, durationMs }, ts: entry.ts };
}

/** The events of a compaction where it happened: its start (when the previous entry ended) and its end. */
function* compactionEvents(entry: CompactionEntry, startTs: string): Generator<ReplayEvent> {
	const { reason, tokensBefore, tokensAfter, summary, firstKeptEntryId, focus, readFiles, modifiedFiles } = entry;
	yield {
		event: { type: "compaction_start", reason, tokensBefore, ...(focus === undefined ? {} : { focus }) },
		ts: startTs,
	};
	const event: AgentEvent = {
		type: "compaction_end",
		ok: true,
		reason,
		tokensBefore,
		tokensAfter,
		summary,
		firstKeptEntryId,
		...(focus === undefined ? {} : { focus }),
		...(readFiles === undefined ? {} : { readFiles }),
		...(modifiedFiles === undefined ? {} : { modifiedFiles }),
		...(entry.provider === undefined ? {} : { provider: entry.provider }),
		...(entry.model === undefined ? {} : { model: entry.model }),
		usage: entry.usage ?? EMPTY_USAGE,
		costUsd: entry.costUsd ?? null,
	};
	yield { event, ts: entry.ts };
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
 * Whether a user entry starts a new run. With run ids (sessions written since run records exist) that is exact;
 * older sessions are split by a heuristic: a user entry ends the run unless the last reply asked for tools (then it
 * was a steer within the run).
 */
function startsRun(entry: UserEntry, run: Run | undefined): boolean {
	if (!run) return true;
	if (entry.runId !== undefined) return entry.runId !== run.id;
	return run.last?.stopReason !== "tool_use";
}

/**
 * Re-emits the conversation on the path to `leafId` (default: the current leaf) as the events the agent loop
 * emitted, without calling a model: per run agent_start, user_message, then per reply turn_start, request (when
 * recorded), message_start, one delta per block, message_end, tool_start/tool_end per result, turn_end, and
 * agent_end; a compaction node gives compaction_start and compaction_end where it happened; a tool call's hook runs
 * come with it (PreToolUse before its tool_start, PostToolUse before its tool_end). Run boundaries, stop reasons and
 * timings come from the run and request records; sessions written before those existed fall back to a heuristic.
 * Live-only events (tool_update, approvals, queue) and hooks not tied to a call are not replayed.
 */
export function* replayEvents(session: Session, leafId: string | null = session.leafId): Generator<ReplayEvent> {
	yield* new Replay(session, leafId).events();
}

/** Adds a reply's (or a compaction's) tokens and cost to its run: the cost is unknown once one price is. */
function spend(run: Run, usage: Usage, cost: number | null): void {
	run.usage = addUsage(run.usage, usage);
	run.costUsd = run.costUsd === null || cost === null ? null : run.costUsd + cost;
}

/** One walk along a path: what the loop knew at each entry (the run, whether a turn is open, the last reply's calls). */
class Replay {
	private readonly path: readonly NodeEntry[];
	private readonly records: Records;
	private model: ModelRef | undefined;
	private run: Run | undefined;
	private openTurn = false;
	private lastTs: string;
	private calls = new Map<string, { name: string; args: Record<string, unknown> }>();
	/** Calls of the last reply that have a recorded result. */
	private readonly answered = new Set<string>();
	private runs = 0;

	constructor(
		private readonly session: Session,
		leafId: string | null,
	) {
		this.path = session.pathTo(leafId);
		this.records = new Records(session);
		this.lastTs = session.header.createdAt;
	}

	*events(): Generator<ReplayEvent> {
		for (const [index, entry] of this.path.entries()) {
			switch (entry.type) {
				case "model_change":
					this.model = { provider: entry.provider, model: entry.model };
					break;
				case "user":
					yield* this.user(index, entry);
					break;
				case "assistant":
					yield* this.reply(index, entry);
					break;
				case "tool_result":
					this.answered.add(entry.callId);
					yield* toolEvents(
						entry,
						this.calls.get(entry.callId)?.args ?? {},
						this.records.hooks.get(entry.callId) ?? [],
					);
					break;
				case "compaction":
					yield* this.compaction(entry);
					break;
				case "unknown":
					break;
			}
			this.lastTs = entry.ts;
		}
		yield* this.endRun();
	}

	private *user(index: number, entry: UserEntry): Generator<ReplayEvent> {
		if (startsRun(entry, this.run)) yield* this.endRun();
		yield* this.closeTurn();
		if (!this.run) yield* this.startRun(index, entry.ts, entry.runId);
		const source = entry.source ?? "prompt";
		yield {
			event: {
				type: "user_message",
				message: { role: "user", content: entry.content },
				source,
				...(entry.pastes ? { pastes: entry.pastes } : {}),
			},
			ts: entry.ts,
		};
	}

	private *reply(index: number, entry: AssistantEntry): Generator<ReplayEvent> {
		if (this.run && entry.runId !== undefined && entry.runId !== this.run.id) yield* this.endRun();
		const run = this.run ?? (yield* this.startRun(index, this.lastTs, entry.runId));
		yield* this.closeTurn();
		run.turns++;
		yield* replyEvents(entry, run, this.lastTs, this.records);
		spend(run, entry.usage, entry.costUsd ?? null);
		run.last = entry;
		this.openTurn = true;
		this.model = { provider: entry.provider, model: entry.model };
		this.calls = new Map(toolCallsOf(entry).map((b) => [b.id, { name: b.name, args: b.arguments }]));
		this.answered.clear();
	}

	private *compaction(entry: CompactionEntry): Generator<ReplayEvent> {
		// One asked for between runs ends the run before it; one made during a run counts in its totals.
		if (this.run && entry.runId !== this.run.id) yield* this.endRun();
		yield* this.closeTurn();
		yield* compactionEvents(entry, this.lastTs);
		if (this.run) spend(this.run, entry.usage ?? EMPTY_USAGE, entry.costUsd ?? null);
	}

	private *closeTurn(): Generator<ReplayEvent> {
		if (!this.openTurn || !this.run?.last) return;
		this.openTurn = false;
		yield { event: { type: "turn_end", turn: this.run.turns, stopReason: this.run.last.stopReason }, ts: this.lastTs };
	}

	/** Calls that started but never ended: gar exited while they ran (the view shows them so). */
	private *interruptedStarts(): Generator<ReplayEvent> {
		for (const [callId, { name, args }] of this.calls) {
			if (!this.answered.has(callId) && this.session.startedCalls.has(callId)) {
				yield { event: { type: "tool_start", callId, name, args }, ts: this.lastTs };
			}
		}
		this.calls = new Map();
	}

	private *startRun(index: number, ts: string, runId: string | undefined): Generator<ReplayEvent, Run> {
		this.runs++;
		const { provider, model } = modelAhead(this.path, index, this.model);
		const id = runId ?? `replay-${this.runs}`;
		const record = this.records.runs.get(id);
		const run: Run = { id, turns: 0, usage: EMPTY_USAGE, costUsd: 0, startTs: ts };
		this.run = run;
		// A run with a known cost of a model gar's table does not price was priced by the config.
		const priced =
			record && record.turns > 0 && record.costUsd !== null && priceOf(model) === undefined ? { priced: true } : {};
		const event: AgentEvent = {
			type: "agent_start",
			runId: id,
			provider,
			model,
			maxTurns: record?.maxTurns ?? 0,
			contextWindow: record?.contextWindow ?? null,
			...priced,
		};
		yield { event, ts };
		return run;
	}

	private *endRun(): Generator<ReplayEvent> {
		const { run } = this;
		if (!run) return;
		yield* this.interruptedStarts();
		yield* this.closeTurn();
		const { last } = run;
		const record = this.records.runs.get(run.id);
		const elapsed = Date.parse(this.lastTs) - Date.parse(run.startTs);
		const error = record ? record.error : last?.error;
		const errorKind = record ? record.errorKind : last?.errorKind;
		const event: AgentEvent = {
			type: "agent_end",
			runId: run.id,
			stopReason: record?.stopReason ?? (last ? RUN_STOP[last.stopReason] : "done"),
			turns: run.turns,
			usage: run.usage,
			costUsd: run.costUsd,
			durationMs: record?.durationMs ?? (Number.isNaN(elapsed) ? 0 : Math.max(0, elapsed)),
			...(error === undefined ? {} : { error }),
			...(errorKind === undefined ? {} : { errorKind }),
			...(record?.subagents ? { subagents: record.subagents } : {}),
		};
		this.run = undefined;
		yield { event, ts: this.lastTs };
	}
}
