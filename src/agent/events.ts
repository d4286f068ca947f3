import type { HookRun } from "../hooks/types.js";
import type { SubagentTotals } from "../llm/spend.js";
import type {
	AssistantMessage,
	ErrorKind,
	StopReason,
	ThinkingLevel,
	ToolResultMessage,
	Usage,
	UserMessage,
} from "../llm/types.js";
import type { ToolDetails, ToolPreview, ToolProgress } from "../tools/types.js";

export type { HookDecision, HookEventName, HookRun, HookStatus } from "../hooks/types.js";

/** Why a run ended. */
export type RunStopReason = "done" | "max_turns" | "error" | "aborted" | "length";

/**
 * Where a user message came from: typed by the person (`prompt`, `steer`, `follow_up`), a shell command's output
 * added as context (`shell`), written by gar itself (`schema_retry`: the structured-output correction), or by a
 * hook (`hook`: context from SessionStart or UserPromptSubmit, or the reason a Stop hook gave to go on).
 */
export type UserSource = "prompt" | "steer" | "follow_up" | "shell" | "schema_retry" | "hook";

/** A block the person pasted into a message: `[start, end)` in UTF-16 units of its text. Views fold it. */
export type PastedRange = { start: number; end: number };

/** A message as the person sent it: the text (what the model reads) and where they pasted blocks into it. */
export type UserInput = { text: string; pastes?: PastedRange[] };

/** One part of the system prompt, for the request viewer: where it came from and its size. */
export type SystemPart = {
	source: "base" | "context_file" | "append" | "environment";
	path?: string;
	chars: number;
	/** Estimated (chars / 4) unless the provider counted them. */
	tokens: number;
};

/** Why a compaction happened: the context neared the window, the person asked, or the provider said too long. */
export type CompactionReason = "auto" | "manual" | "overflow";

/**
 * What a compaction produced, as both its `compaction_end` event and its session entry carry it: the summary sent
 * instead of the older messages, the first entry sent verbatim after it (null: none), what it focused on, the files
 * read and modified (computed from the tool calls), and the summary request's model, tokens and cost.
 */
export type CompactionProduct = {
	summary: string;
	firstKeptEntryId: string | null;
	focus?: string;
	readFiles?: string[];
	modifiedFiles?: string[];
	provider?: string;
	model?: string;
	usage?: Usage;
	costUsd?: number | null;
};

/** How one tool call ended. Every tool call of a reply gets exactly one `tool_end`. */
export type ToolOutcome = "done" | "error" | "denied" | "skipped" | "not_run";

/** Timing of one model call: when it started (epoch ms), time to the first streamed token, total duration. */
export type CallTiming = { startedAt: number; firstTokenMs: number | null; durationMs: number };

/** The summary of one model call as the `request` event describes it (no bodies: those stay in memory). */
export type RequestInfo = {
	requestId: string;
	turn: number;
	provider: string;
	model: string;
	params: {
		maxTokens: number | null;
		thinking: ThinkingLevel | null;
		temperature?: number;
		/** The structured-output retry: the answer is asked for as JSON matching this schema. */
		responseSchema?: { name: string; schema: Record<string, unknown> };
	};
	system: { hash: string; chars: number; tokens: number; parts: SystemPart[] };
	tools: { names: string[]; hash: string; chars: number; tokens: number };
	messages: { count: number; tokens: number };
};

/**
 * A call waiting for the person's decision, with what it would do; `reason`: why it asks when a PreToolUse hook asked
 * (absent: the approval policy did).
 */
export type ApprovalRequest = {
	callId: string;
	name: string;
	args: Record<string, unknown>;
	preview: ToolPreview;
	reason?: string;
	/** What allowing "commands starting with …" would save as rules (absent: not offered for this call). */
	prefixes?: string[];
	/** What the permission rules said: which parts they allow, or why none can be offered. */
	ruleNote?: string;
};

/**
 * Everything the agent does, as one typed stream: the UI, the session writer, the headless JSON output and
 * replay all use it. Deltas carry only the delta; every line of `stream-json` stays linear in the reply's length.
 * Documented for scripts in README ("stream-json events"): add fields freely, never change or remove one.
 */
export type AgentEvent =
	| {
			type: "agent_start";
			runId: string;
			provider: string;
			model: string;
			maxTurns: number;
			/** The model's context window in tokens, when known. */
			contextWindow: number | null;
			/** true: the config prices this model, which gar's table does not (absent: the table decides). */
			priced?: boolean;
	  }
	/** A user message entered the context; emitted (and saved) before the model is called. */
	/** `pastes`: where the person pasted blocks into the message (absent: none). */
	| { type: "user_message"; message: UserMessage; source: UserSource; pastes?: PastedRange[] }
	| { type: "turn_start"; turn: number; maxTurns: number }
	/** Just before each model call. */
	| ({ type: "request" } & RequestInfo)
	| { type: "message_start"; turn: number; requestId: string }
	| { type: "text_delta"; delta: string; contentIndex: number }
	| { type: "thinking_delta"; delta: string; contentIndex: number }
	| { type: "toolcall_start"; callId: string; name: string; contentIndex: number }
	| { type: "toolcall_delta"; callId: string; delta: string; contentIndex: number }
	/** gar will retry the model call after `delayMs`. */
	| {
			type: "retry";
			requestId: string;
			turn: number;
			attempt: number;
			maxAttempts: number;
			reason: string;
			delayMs: number;
			errorKind: ErrorKind;
	  }
	/** The final assistant message of one model call; `costUsd` is null when the price is unknown. */
	| {
			type: "message_end";
			requestId: string;
			turn: number;
			message: AssistantMessage;
			costUsd: number | null;
			timing: CallTiming;
			retries: number;
			errorKind?: ErrorKind;
			/** The request's body as it went out: the sha256 (hex) and size of its bytes (absent: nothing was sent). */
			body?: { sha256: string; bytes: number };
	  }
	/**
	 * A call waits for the person; `preview` says what it will do. Comes before its `tool_start`. `reason`: why gar
	 * asks when a PreToolUse hook asked it to (the hook and its words); absent when --approve asks.
	 */
	| ({ type: "approval_request" } & ApprovalRequest)
	| {
			type: "approval_result";
			callId: string;
			approved: boolean;
			reason?: string;
			/** The person allowed this tool for the rest of the session. */
			remember?: boolean;
			/** The person allowed commands starting with these, saved as allow rules in the user config. */
			prefixes?: string[];
			/** The person also stopped the run (Esc or Ctrl+C at the question). */
			stop?: boolean;
	  }
	/**
	 * The tool really starts (after approval, if any). `rule`: the permission rule that allowed it without asking
	 * (README "Permission rules"), in words.
	 */
	| { type: "tool_start"; callId: string; name: string; args: Record<string, unknown>; rule?: string }
	| { type: "tool_update"; callId: string; name: string; progress: ToolProgress }
	/** The one terminal event of every tool call; `content` is what the model reads (carried once). */
	| {
			type: "tool_end";
			callId: string;
			name: string;
			outcome: ToolOutcome;
			content: string;
			details: ToolDetails | null;
			isError: boolean;
			durationMs: number;
	  }
	| { type: "turn_end"; turn: number; stopReason: StopReason }
	/** Messages waiting to be delivered (steers after the current tool, follow-ups when the run ends). */
	| { type: "queue"; steers: string[]; followUps: string[] }
	| { type: "model_change"; provider: string; model: string; contextWindow: number | null; priced?: boolean }
	/** The older part of the context is being summarized (README "Long sessions"). */
	| { type: "compaction_start"; reason: CompactionReason; tokensBefore: number; focus?: string }
	/**
	 * A compaction ended. When `ok`, the context sent from now on is `summary` followed by the messages from
	 * `firstKeptEntryId` (the session entry; null: none; absent when the conversation is not saved). `usage` and
	 * `costUsd` are those of the summary request, counted in the session's (and a running run's) totals.
	 */
	| ({
			type: "compaction_end";
			ok: boolean;
			tokensBefore: number;
			tokensAfter: number;
			error?: string;
			reason?: CompactionReason;
			/** The person (or a signal) aborted it; the context is unchanged. */
			aborted?: boolean;
	  } & Partial<CompactionProduct>)
	/** Saving to the session file failed; the run goes on, but the person must be told. */
	| { type: "session_error"; file: string; error: string }
	/**
	 * One hook ran (README "Hooks"): which, for which event (and tool call), how it ended, what it decided and said.
	 * Comes at the step it touched: a PreToolUse hook's before its call's approval or tool_start, a PostToolUse
	 * hook's before its call's tool_end, a UserPromptSubmit hook's before the prompt's user_message.
	 */
	| ({ type: "hook" } & HookRun)
	/** Something the person should see that is not part of the conversation (a warning, a failed listener). */
	| { type: "notice"; level: "info" | "warning" | "error"; message: string }
	| {
			type: "agent_end";
			runId: string;
			stopReason: RunStopReason;
			turns: number;
			usage: Usage;
			costUsd: number | null;
			durationMs: number;
			error?: string;
			errorKind?: ErrorKind;
			/**
			 * What the gar runs its bash commands started reported spending (nested ones included; absent: none). Kept
			 * apart from `usage` and `costUsd`, which are this run's own calls.
			 */
			subagents?: SubagentTotals;
	  };

/** The tool result message the model reads for a `tool_end` event. */
export function toolResultMessage(event: Extract<AgentEvent, { type: "tool_end" }>): ToolResultMessage {
	return {
		role: "tool_result",
		callId: event.callId,
		name: event.name,
		content: event.content,
		isError: event.isError,
	};
}
