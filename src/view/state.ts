import type {
	AgentEvent,
	HookRun,
	PastedRange,
	RequestInfo,
	RunStopReason,
	ToolOutcome,
	UserSource,
} from "../agent/events.js";
import { costUsd } from "../llm/models.js";
import { NO_SUBAGENTS, type SubagentTotals } from "../llm/spend.js";
import { EMPTY_USAGE, type ErrorKind, type Usage } from "../llm/types.js";
import type { ToolDetails, ToolPreview, ToolProgress } from "../tools/types.js";
import type { ResponseFacts } from "./request-view.js";

/**
 * Where a tool call is: its arguments streaming, waiting its turn, waiting for the person, running, or ended.
 * "interrupted": its run ended without its end (a session resumed after gar exited while the call waited or ran).
 */
export type ToolStatus = "streaming" | "pending" | "awaiting_approval" | "running" | ToolOutcome | "interrupted";

export type ToolItem = {
	kind: "tool";
	key: string;
	callId: string;
	name: string;
	/** The arguments as they stream in; `args` once they are complete. */
	argsText: string;
	args: Record<string, unknown> | null;
	status: ToolStatus;
	preview?: ToolPreview;
	progress?: ToolProgress;
	details?: ToolDetails | null;
	/** What the model read (set when the call ended). */
	content?: string;
	isError?: boolean;
	/** Denied with Esc (or Ctrl+C) at the approval question, which stopped the run too. */
	stopped?: boolean;
	/** When the tool started running (epoch ms), and how long it ran. */
	startedAt?: number;
	durationMs?: number;
	/** The hooks that ran for this call (PreToolUse, PostToolUse), in order: shown at the call. */
	hooks?: readonly HookRun[];
	/** The permission rule that allowed the call without asking, in words. */
	rule?: string;
};

/** One row-group of the chat. Items are immutable: a change replaces the item, so views can memo by identity. */
export type ChatItem =
	/** `pastes`: blocks the person pasted, shown folded as `[pasted N lines]` until expanded. */
	| { kind: "user"; key: string; text: string; source: UserSource; pastes?: PastedRange[] }
	| { kind: "text"; key: string; text: string; streaming: boolean }
	| { kind: "thinking"; key: string; text: string; streaming: boolean }
	| ToolItem
	| {
			kind: "retry";
			key: string;
			attempt: number;
			maxAttempts: number;
			reason: string;
			delayMs: number;
			errorKind: ErrorKind;
	  }
	| { kind: "error"; key: string; message: string; errorKind?: ErrorKind }
	| { kind: "notice"; key: string; level: "info" | "warning" | "error"; message: string }
	/** One hook run not tied to a tool call in the view (view/hook-line.ts says it in one line). */
	| { kind: "hook"; key: string; run: HookRun }
	| ({ kind: "compaction"; key: string } & Pick<
			Extract<AgentEvent, { type: "compaction_end" }>,
			"ok" | "tokensBefore" | "tokensAfter" | "error" | "reason" | "aborted"
	  >)
	| {
			kind: "run_end";
			key: string;
			stopReason: RunStopReason;
			turns: number;
			durationMs: number;
			usage: Usage;
			costUsd: number | null;
			error?: string;
			/** What the run's sub-agents reported (absent: none), apart from its own usage and cost. */
			subagents?: SubagentTotals;
	  };

/** What the agent is doing right now; `since` is when it started doing it (epoch ms). */
export type Activity =
	| { kind: "idle" }
	| { kind: "waiting"; since: number }
	| { kind: "streaming"; since: number }
	| { kind: "retrying"; since: number; attempt: number; maxAttempts: number; delayMs: number; reason: string }
	| { kind: "approval"; since: number; callId: string; name: string }
	| { kind: "tool"; since: number; callId: string; name: string }
	| { kind: "compacting"; since: number }
	| { kind: "error"; message: string; errorKind?: ErrorKind };

/**
 * The approval question open now: what the call would do and since when it waits (epoch ms). The one copy of the
 * question: the approval panel and the chat's tool item read it (the item's `preview` is the same object).
 */
export type PendingQuestion = {
	callId: string;
	name: string;
	args: Record<string, unknown>;
	preview: ToolPreview;
	since: number;
	/** Why gar asks when a PreToolUse hook asked it to (the hook and its words). */
	reason?: string;
	/** What "commands starting with …" would save as allow rules (absent: not offered). */
	prefixes?: string[];
	/** What the permission rules said of the call. */
	ruleNote?: string;
};

/**
 * One model call of the conversation, for the request viewer: its id and turn, the chat item its reply starts at, the
 * `request` event's summary (absent in a session replayed without request records) and how it ended.
 */
export type CallFacts = {
	requestId: string;
	turn: number;
	item: number;
	info?: RequestInfo;
	response?: ResponseFacts;
};

/** Tokens and cost, for the session, the current (or last) run, and the last model call. */
export type Totals = { usage: Usage; costUsd: number | null };

/**
 * Everything a screen shows, computed from events by `reduce`. `items` is the chat; the rest is the inspector's.
 * `revision` grows with every change, so a store can tell subscribers cheaply that something moved.
 */
export type ViewState = {
	revision: number;
	items: ChatItem[];
	activity: Activity;
	/** Set by `approval_request`; cleared by its `approval_result` or by the run's end (`agent_end`). */
	pending: PendingQuestion | null;
	provider: string;
	model: string;
	runId: string | null;
	turn: number;
	maxTurns: number;
	session: Totals;
	run: Totals;
	lastCall: Totals | null;
	/** What sub-agents reported (bash commands that ran gar), apart from the totals above: this session's, this run's. */
	subagents: { session: SubagentTotals; run: SubagentTotals };
	/** Tokens of the last request and its reply (input + cache + output), and the window they fill. */
	context: { tokens: number; window: number | null };
	/** Time to first token and output speed of the current or last call. */
	speed: { ttftMs: number | null; tokensPerSec: number | null };
	/** Tool calls that ran, by tool name. */
	toolCounts: Readonly<Record<string, number>>;
	/** Every model call shown, in order (the request viewer's list; the inspector's split of the latest). */
	calls: CallFacts[];
	/** Files the writes and edits in this view changed, and the lines they added and removed (summed per change). */
	changes: { files: number; added: number; removed: number };
	/** Hook runs in this view: all of them, those that blocked or stopped something, those that failed. */
	hooks: { runs: number; blocked: number; failed: number };
	queue: { steers: readonly string[]; followUps: readonly string[] };
	/** Indexes for O(1) updates: item index by content index of the reply streaming now, and by tool call id. */
	index: {
		blocks: Map<number, number>;
		calls: Map<string, number>;
		streamChars: number;
		firstTokenAt: number | null;
		/** When the reply streaming now last sent something (a stall shows as "no data for 12 s"). */
		lastDataAt: number | null;
		/** What the agent was doing when a compaction started (restored, as waiting or idle, when it ends). */
		beforeCompaction?: Activity | null;
		/** The files `changes` counts (made with the first change). */
		changedPaths?: Set<string>;
	};
};

/**
 * What nothing has cost with `model`: $0 for a priced model, unknown (null) for one without a known price — shown
 * as "unknown" from the first frame, not "$0.00" until the first reply. A model not known yet ("") costs 0.
 * `priced`: whether the conversation knows its price (the config may price a model gar's table does not); absent,
 * gar's table decides.
 */
export function zeroCost(model: string, priced?: boolean): number | null {
	if (model === "") return 0;
	if (priced !== undefined) return priced ? 0 : null;
	return costUsd(model, EMPTY_USAGE);
}

/** An empty view for a conversation with this model. */
export function initialView(model: {
	provider: string;
	model: string;
	contextWindow?: number | null;
	priced?: boolean;
}): ViewState {
	const zero = zeroCost(model.model, model.priced);
	return {
		revision: 0,
		items: [],
		activity: { kind: "idle" },
		pending: null,
		provider: model.provider,
		model: model.model,
		runId: null,
		turn: 0,
		maxTurns: 0,
		session: { usage: EMPTY_USAGE, costUsd: zero },
		run: { usage: EMPTY_USAGE, costUsd: zero },
		lastCall: null,
		subagents: { session: NO_SUBAGENTS, run: NO_SUBAGENTS },
		context: { tokens: 0, window: model.contextWindow ?? null },
		speed: { ttftMs: null, tokensPerSec: null },
		toolCounts: {},
		calls: [],
		changes: { files: 0, added: 0, removed: 0 },
		hooks: { runs: 0, blocked: 0, failed: 0 },
		queue: { steers: [], followUps: [] },
		index: { blocks: new Map(), calls: new Map(), streamChars: 0, firstTokenAt: null, lastDataAt: null },
	};
}
