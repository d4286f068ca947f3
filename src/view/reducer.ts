import type { AgentEvent } from "../agent/events.js";
import { addTotals, NO_SUBAGENTS } from "../llm/spend.js";
import { addUsage, EMPTY_USAGE, type Usage } from "../llm/types.js";
import { hookFailed } from "./hook-line.js";
import { type ChatItem, type ToolItem, type Totals, type ViewState, zeroCost } from "./state.js";

/**
 * Below this much streaming time a speed is noise (a reply that came in one read would show 27,273 tok/s): the
 * speed is then unknown ("–").
 */
export const MIN_SPEED_MS = 200;

/** Tool states a call is in before its end. */
const OPEN = new Set<ToolItem["status"]>(["streaming", "pending", "awaiting_approval", "running"]);

/** A session that has billed nothing yet costs what nothing costs with its model now ($0, or unknown). */
function unbilled(state: ViewState, model: string, priced: boolean | undefined): void {
	const { usage } = state.session;
	if (usage.input + usage.output + usage.cacheRead + usage.cacheWrite === 0) {
		state.session = { usage, costUsd: zeroCost(model, priced) };
	}
}

/** Adds a cost; unknown (null) stays unknown. */
function addCost(a: number | null, b: number | null): number | null {
	return a === null || b === null ? null : a + b;
}

function add(totals: Totals, usage: Usage, costUsd: number | null): Totals {
	// Before anything was billed, "unknown" is the model's price, not a bill: a call that brings its own cost (one the
	// provider reported) starts from $0.
	const { input, output, cacheRead, cacheWrite } = totals.usage;
	const before = input + output + cacheRead + cacheWrite === 0 ? 0 : totals.costUsd;
	return { usage: addUsage(totals.usage, usage), costUsd: addCost(before, costUsd) };
}

/** An item before it gets its key (distributes over the union, so each kind keeps its own fields). */
type NewItem = ChatItem extends infer T ? (T extends ChatItem ? Omit<T, "key"> : never) : never;

function push(state: ViewState, item: NewItem): number {
	const index = state.items.length;
	state.items.push({ ...item, key: `i${index}` } as ChatItem);
	return index;
}

/** Replaces the item at `index` with a changed copy (items are immutable, so views can memo by identity). */
function update<T extends ChatItem>(state: ViewState, index: number, change: (item: T) => Partial<T>): void {
	const item = state.items[index] as T | undefined;
	if (item) state.items[index] = { ...item, ...change(item) };
}

function toolIndex(state: ViewState, callId: string, name: string): number {
	const known = state.index.calls.get(callId);
	if (known !== undefined) return known;
	const item: Omit<ToolItem, "key"> = { kind: "tool", callId, name, argsText: "", args: null, status: "pending" };
	const index = push(state, item);
	state.index.calls.set(callId, index);
	return index;
}

/** Appends a streamed delta to the text or thinking item of its content block (a new item for a new block). */
function appendDelta(state: ViewState, kind: "text" | "thinking", contentIndex: number, delta: string, at: number) {
	const { index } = state;
	index.firstTokenAt ??= at;
	index.lastDataAt = at;
	index.streamChars += delta.length;
	if (state.activity.kind !== "streaming") state.activity = { kind: "streaming", since: at };
	const found = index.blocks.get(contentIndex);
	if (found === undefined || state.items[found]?.kind !== kind) {
		index.blocks.set(contentIndex, push(state, { kind, text: delta, streaming: true }));
		return;
	}
	update<Extract<ChatItem, { kind: "text" | "thinking" }>>(state, found, (item) => ({ text: item.text + delta }));
}

/** Closes the streaming items of the reply that just ended. */
function closeReply(state: ViewState): void {
	for (const index of state.index.blocks.values()) {
		const item = state.items[index];
		if (item && (item.kind === "text" || item.kind === "thinking") && item.streaming) {
			state.items[index] = { ...item, streaming: false };
		}
	}
	state.index.blocks.clear();
}

/** The events of one type, as its handler receives them. */
type EventOf<T extends AgentEvent["type"]> = Extract<AgentEvent, { type: T }>;
/** Applies one event of its type to the view, in place (see `reduce`). */
type Handler<T extends AgentEvent["type"]> = (state: ViewState, event: EventOf<T>, at: number) => void;

function agentStart(state: ViewState, event: EventOf<"agent_start">, at: number): void {
	state.runId = event.runId;
	state.provider = event.provider;
	state.model = event.model;
	state.maxTurns = event.maxTurns;
	state.turn = 0;
	state.run = { usage: EMPTY_USAGE, costUsd: zeroCost(event.model, event.priced) };
	state.subagents = { ...state.subagents, run: NO_SUBAGENTS };
	unbilled(state, event.model, event.priced);
	if (event.contextWindow !== null) state.context = { ...state.context, window: event.contextWindow };
	state.activity = { kind: "waiting", since: at };
}

function modelChange(state: ViewState, event: EventOf<"model_change">): void {
	state.provider = event.provider;
	state.model = event.model;
	state.context = { ...state.context, window: event.contextWindow };
	unbilled(state, event.model, event.priced);
}

function userMessage(state: ViewState, event: EventOf<"user_message">): void {
	push(state, {
		kind: "user",
		text: event.message.content,
		source: event.source,
		...(event.pastes ? { pastes: event.pastes } : {}),
	});
}

function turnStart(state: ViewState, event: EventOf<"turn_start">): void {
	state.turn = event.turn;
	state.maxTurns = event.maxTurns;
}

/** A call begins: its summary and the chat item its reply will start at (a replay without a record: no summary). */
function request(state: ViewState, event: EventOf<"request">): void {
	const { type: _type, ...info } = event;
	state.calls.push({ requestId: event.requestId, turn: event.turn, item: state.items.length, info });
}

function messageStart(state: ViewState, event: EventOf<"message_start">, at: number): void {
	const last = state.calls.at(-1);
	if (last?.requestId === event.requestId) last.item = state.items.length;
	else state.calls.push({ requestId: event.requestId, turn: event.turn, item: state.items.length });
	state.index.blocks.clear();
	// The calls of the last reply have ended: a call id met from now on is a new call, even one that repeats an
	// earlier id (some OpenAI-compatible servers number calls per reply: call_1 every turn). Open ones are kept, for
	// the run's end to mark them cut off. O(calls of the last reply).
	for (const [id, index] of state.index.calls) {
		const item = state.items[index];
		if (!(item?.kind === "tool" && OPEN.has(item.status))) state.index.calls.delete(id);
	}
	state.index.streamChars = 0;
	state.index.firstTokenAt = null;
	state.index.lastDataAt = null;
	state.activity = { kind: "waiting", since: at };
	state.speed = { ttftMs: null, tokensPerSec: null };
}

function toolcallStart(state: ViewState, event: EventOf<"toolcall_start">, at: number): void {
	state.index.firstTokenAt ??= at;
	state.index.lastDataAt = at;
	const index = toolIndex(state, event.callId, event.name);
	update<ToolItem>(state, index, () => ({ status: "streaming" }));
	state.index.blocks.set(event.contentIndex, index);
	if (state.activity.kind !== "streaming") state.activity = { kind: "streaming", since: at };
}

function toolcallDelta(state: ViewState, event: EventOf<"toolcall_delta">, at: number): void {
	state.index.streamChars += event.delta.length;
	state.index.lastDataAt = at;
	const index = toolIndex(state, event.callId, "?");
	update<ToolItem>(state, index, (item) => ({ argsText: item.argsText + event.delta }));
}

function retry(state: ViewState, event: EventOf<"retry">, at: number): void {
	const { attempt, maxAttempts, reason, delayMs } = event;
	push(state, { kind: "retry", attempt, maxAttempts, reason, delayMs, errorKind: event.errorKind });
	state.activity = { kind: "retrying", since: at, attempt, maxAttempts, delayMs, reason };
}

function messageEnd(state: ViewState, event: EventOf<"message_end">, at: number): void {
	closeReply(state);
	const { message, costUsd, timing } = event;
	for (const block of message.content) {
		if (block.type !== "tool_call") continue;
		const index = toolIndex(state, block.id, block.name);
		update<ToolItem>(state, index, (item) => ({
			args: block.arguments,
			status: item.status === "streaming" ? "pending" : item.status,
		}));
	}
	state.session = add(state.session, message.usage, costUsd);
	state.run = add(state.run, message.usage, costUsd);
	state.lastCall = { usage: message.usage, costUsd };
	const call = state.calls.at(-1);
	if (call?.requestId === event.requestId) {
		call.response = {
			stopReason: message.stopReason,
			...(event.errorKind ? { errorKind: event.errorKind } : {}),
			...(message.error ? { error: message.error } : {}),
			usage: message.usage,
			costUsd,
			startedAt: timing.startedAt,
			ttftMs: timing.firstTokenMs,
			durationMs: timing.durationMs,
			retries: event.retries,
		};
	}
	const { input, output, cacheRead, cacheWrite } = message.usage;
	state.context = { ...state.context, tokens: input + cacheRead + cacheWrite + output };
	const streamMs = timing.durationMs - (timing.firstTokenMs ?? timing.durationMs);
	state.speed = {
		ttftMs: timing.firstTokenMs,
		tokensPerSec: streamMs >= MIN_SPEED_MS && output > 0 ? (output * 1000) / streamMs : null,
	};
	if (message.stopReason === "error" || message.stopReason === "aborted") {
		const text = message.error ?? message.stopReason;
		push(state, { kind: "error", message: text, ...(event.errorKind ? { errorKind: event.errorKind } : {}) });
	}
	state.activity = { kind: "waiting", since: at };
}

/** The question opens: the view holds it, and the call's item shows the same preview (one object, not a copy). */
function approvalRequest(state: ViewState, event: EventOf<"approval_request">, at: number): void {
	const { callId, name, args, preview, reason, prefixes, ruleNote } = event;
	const index = toolIndex(state, callId, name);
	update<ToolItem>(state, index, () => ({ status: "awaiting_approval", preview, args }));
	state.pending = {
		callId,
		name,
		args,
		preview,
		since: at,
		...(reason === undefined ? {} : { reason }),
		...(prefixes === undefined ? {} : { prefixes }),
		...(ruleNote === undefined ? {} : { ruleNote }),
	};
	state.activity = { kind: "approval", since: at, callId, name };
}

function approvalResult(state: ViewState, event: EventOf<"approval_result">, at: number): void {
	const index = state.index.calls.get(event.callId);
	if (event.stop && !event.approved && index !== undefined) update<ToolItem>(state, index, () => ({ stopped: true }));
	if (state.pending?.callId === event.callId) state.pending = null;
	state.activity = { kind: "waiting", since: at };
}

function toolStart(state: ViewState, event: EventOf<"tool_start">, at: number): void {
	const index = toolIndex(state, event.callId, event.name);
	const rule = event.rule === undefined ? {} : { rule: event.rule };
	update<ToolItem>(state, index, () => ({ status: "running", args: event.args, startedAt: at, ...rule }));
	state.activity = { kind: "tool", since: at, callId: event.callId, name: event.name };
}

function toolUpdate(state: ViewState, event: EventOf<"tool_update">): void {
	const index = toolIndex(state, event.callId, event.name);
	update<ToolItem>(state, index, () => ({ progress: event.progress }));
}

/** One more write, edit or bash-changed file in the inspector's "files changed" line: O(1). */
function countChange(state: ViewState, change: { path: string; added: number; removed: number }): void {
	state.index.changedPaths ??= new Set();
	const paths = state.index.changedPaths;
	paths.add(change.path);
	const { added, removed } = state.changes;
	state.changes = { files: paths.size, added: added + change.added, removed: removed + change.removed };
}

function toolEnd(state: ViewState, event: EventOf<"tool_end">, at: number): void {
	const index = toolIndex(state, event.callId, event.name);
	const { outcome, content, details, isError, durationMs } = event;
	update<ToolItem>(state, index, () => ({ status: outcome, content, details, isError, durationMs }));
	if (details?.kind === "bash" && details.subagents) {
		const spent = details.subagents.totals;
		state.subagents = {
			session: addTotals(state.subagents.session, spent),
			run: addTotals(state.subagents.run, spent),
		};
	}
	if (outcome === "done" || outcome === "error") {
		state.toolCounts = { ...state.toolCounts, [event.name]: (state.toolCounts[event.name] ?? 0) + 1 };
	}
	if (outcome === "done" && (details?.kind === "write" || details?.kind === "edit")) countChange(state, details);
	// What a bash command changed counts as changed files too (no line counts: the scan reads no contents).
	if (details?.kind === "bash" && details.files && details.cwd !== "") {
		const cwd = details.cwd.endsWith("/") ? details.cwd : `${details.cwd}/`;
		for (const { path } of details.files.paths) countChange(state, { path: `${cwd}${path}`, added: 0, removed: 0 });
	}
	state.activity = { kind: "waiting", since: at };
}

function compactionStart(state: ViewState, _event: EventOf<"compaction_start">, at: number): void {
	state.index.beforeCompaction = state.activity;
	state.activity = { kind: "compacting", since: at };
}

function compactionEnd(state: ViewState, event: EventOf<"compaction_end">, at: number): void {
	const { ok, tokensBefore, tokensAfter, reason, aborted } = event;
	push(state, {
		kind: "compaction",
		ok,
		tokensBefore,
		tokensAfter,
		...(event.error ? { error: event.error } : {}),
		...(reason ? { reason } : {}),
		...(aborted ? { aborted } : {}),
	});
	if (ok) state.context = { ...state.context, tokens: tokensAfter };
	// The summary request costs like any call; during a run it counts in the run's totals too.
	const before = state.index.beforeCompaction ?? { kind: "idle" };
	const inRun = before.kind !== "idle" && before.kind !== "error";
	if (event.usage) {
		const costUsd = event.costUsd ?? null;
		state.session = add(state.session, event.usage, costUsd);
		if (inRun) state.run = add(state.run, event.usage, costUsd);
	}
	state.index.beforeCompaction = null;
	state.activity = inRun ? { kind: "waiting", since: at } : { kind: "idle" };
}

/**
 * A hook ran: its line goes with its tool call when the call is in the view (at the step it touched), else its own
 * item; the inspector counts it.
 */
function hook(state: ViewState, event: EventOf<"hook">): void {
	const { type: _type, ...run } = event;
	const call = run.callId === undefined ? undefined : state.index.calls.get(run.callId);
	if (call !== undefined) update<ToolItem>(state, call, (item) => ({ hooks: [...(item.hooks ?? []), run] }));
	else push(state, { kind: "hook", run });
	const { runs, blocked, failed } = state.hooks;
	const stopped = run.decision === "deny" || run.decision === "block" || run.decision === "stop";
	state.hooks = { runs: runs + 1, blocked: blocked + (stopped ? 1 : 0), failed: failed + (hookFailed(run) ? 1 : 0) };
}

function agentEnd(state: ViewState, event: EventOf<"agent_end">): void {
	closeReply(state);
	const { stopReason, turns, durationMs, usage, costUsd } = event;
	// An error the failed reply already showed is not repeated in the run's summary line.
	const last = state.items[state.items.length - 1];
	const shown = last?.kind === "error" && last.message === event.error;
	const error = event.error !== undefined && stopReason !== "aborted" && !shown ? { error: event.error } : {};
	const sub = event.subagents ? { subagents: event.subagents } : {};
	push(state, { kind: "run_end", stopReason, turns, durationMs, usage, costUsd, ...error, ...sub });
	// Every call of a live run ends before the run does; one still open was cut off by gar's exit (a resumed
	// session). O(calls of this run), once per run.
	for (const index of state.index.calls.values()) {
		const item = state.items[index];
		if (item?.kind === "tool" && OPEN.has(item.status)) state.items[index] = { ...item, status: "interrupted" };
	}
	state.index.calls.clear();
	// A question still open when the run ends has no one left to answer it.
	state.pending = null;
	state.activity =
		stopReason === "done" || stopReason === "aborted"
			? { kind: "idle" }
			: {
					kind: "error",
					message: event.error ?? stopReason,
					...(event.errorKind ? { errorKind: event.errorKind } : {}),
				};
}

const nothing = (): void => {};

/**
 * What each event does to the view, by type: one named function per event (each testable alone), looked up in
 * O(1). An event type added to AgentEvent must be added here (the type requires every key).
 */
export const HANDLERS: { readonly [T in AgentEvent["type"]]: Handler<T> } = {
	agent_start: agentStart,
	model_change: modelChange,
	user_message: userMessage,
	turn_start: turnStart,
	request,
	message_start: messageStart,
	text_delta: (state, event, at) => appendDelta(state, "text", event.contentIndex, event.delta, at),
	thinking_delta: (state, event, at) => appendDelta(state, "thinking", event.contentIndex, event.delta, at),
	toolcall_start: toolcallStart,
	toolcall_delta: toolcallDelta,
	retry,
	message_end: messageEnd,
	approval_request: approvalRequest,
	approval_result: approvalResult,
	tool_start: toolStart,
	tool_update: toolUpdate,
	tool_end: toolEnd,
	turn_end: nothing,
	queue: (state, event) => {
		state.queue = { steers: event.steers, followUps: event.followUps };
	},
	compaction_start: compactionStart,
	compaction_end: compactionEnd,
	session_error: (state, event) => {
		push(state, { kind: "notice", level: "error", message: `could not save to ${event.file}: ${event.error}` });
	},
	notice: (state, event) => {
		push(state, { kind: "notice", level: event.level, message: event.message });
	},
	hook,
	agent_end: agentEnd,
};

/**
 * The event-to-view reducer: applies one agent event to the view of a conversation and returns the state. Pure in
 * the sense that matters (no I/O, no clock: `at` is the event's time in epoch ms), but single-owner: to keep every
 * event O(1) — no copying of the history per delta — it appends to and replaces within `state.items` in place and
 * returns the same object with `revision` increased. Changed items are replaced by new objects.
 */
export function reduce(state: ViewState, event: AgentEvent, at: number): ViewState {
	state.revision++;
	(HANDLERS[event.type] as Handler<AgentEvent["type"]>)(state, event, at);
	return state;
}
