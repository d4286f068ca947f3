// The agent loop's types and constants (loop.ts re-exports what others use): its seams, its options, a run's state.
import type { StepHooks } from "../hooks/types.js";
import type { Pricing } from "../llm/models.js";
import type { Message, Provider, ThinkingLevel, Usage } from "../llm/types.js";
import type { SystemPrompt } from "../prompt/system-prompt.js";
import type { AnyTool } from "../tools/types.js";
import type { EventChannel } from "./channel.js";
import type { MessageQueue } from "./queue.js";
import type { CompactionBudget, RunStop, RunTotals } from "./run-state.js";
import type { OutputSchema } from "./structured.js";
import type { Approval, ToolRunner } from "./tool-runner.js";

/**
 * Transforms the context before each request (compaction's seam): gets the history and returns the messages to
 * send. Must not mutate its input. A throw fails the turn with an error.
 */
export type ContextHook = (
	messages: readonly Message[],
	info: { turn: number; signal: AbortSignal },
) => Message[] | Promise<Message[]>;

/** What a compaction step did: the new history, or why there is none; the summary request's tokens and cost. */
export type CompactStep =
	| { ok: true; messages: Message[]; usage: Usage; costUsd: number | null }
	| { ok: false; error: string; usage: Usage; costUsd: number | null };

/**
 * Compaction's seam. Called before each request with `reason: "auto"` (null: no compaction needed) and once after a
 * request failed as too long (`"overflow"`); an ok step's messages replace the history. Must not mutate its input.
 */
export type CompactHook = (
	history: readonly Message[],
	info: { reason: "auto" | "overflow"; signal: AbortSignal },
) => Promise<CompactStep | null>;

/** Ends a run whose request is too long even after compacting: what the person can do about it. */
export const OVERFLOW_ADVICE =
	"the conversation does not fit the model's context window even after compacting; run /compact (or gar compact) with a focus, lower [context] keep_recent_tokens, or set a larger [context] window if the model allows it";

/** What an Agent is built with; never written after (setModel replaces the agent's ModelChoice, not these). */
export type AgentOptions = {
	/** The first model; `setModel` switches it between runs. */
	provider: Provider;
	model: string;
	system: SystemPrompt;
	tools: AnyTool[];
	channel: EventChannel;
	/** Steers and follow-ups; shared with whoever takes them from the person. */
	queue?: MessageQueue;
	/** Model calls per run before it stops with "max_turns". Default 50. */
	maxTurns?: number;
	thinking?: ThinkingLevel;
	maxTokens?: number;
	/** The model's context window, when known (reported in agent_start for context-fill displays). */
	contextWindow?: number | null;
	/** The config's prices, for a model gar's table does not price. */
	prices?: Pricing;
	/** When set, mutating calls for which `approval.needed` says so wait for `approval.ask`. */
	approval?: Approval;
	/** Structured output: the final answer must be JSON valid against this schema. */
	output?: OutputSchema;
	/** Stop a model stuck repeating one tool call (default on). */
	loopGuard?: boolean;
	transformContext?: ContextHook;
	compact?: CompactHook;
	/** Shortens a tool result before it enters the context (and its tool_end): no one result may flood it. */
	limitToolResult?: (content: string, tool: string) => string;
	/** The hook points (README "Hooks"): PreToolUse, PostToolUse, UserPromptSubmit, Stop; absent: no hooks. */
	hooks?: StepHooks;
	now?: () => number;
	newRunId?: () => string;
};

/** One run's state, handed from step to step. */
export type Run = {
	readonly signal: AbortSignal;
	readonly maxTurns: number;
	readonly totals: RunTotals;
	readonly tools: ToolRunner;
	readonly budget: CompactionBudget;
	/** Structured output: how many times the answer was asked for again. */
	schemaAttempts: number;
	/** How many times in a row a Stop hook continued the run. */
	stopContinuations: number;
};

/** Stop-hook continuations in a row after which the run stops whatever the hook says. */
export const MAX_STOP_CONTINUATIONS = 3;

/** What a step says when the run goes on; otherwise it says why the run stops. */
export const CONTINUE = "continue";
export type Next = typeof CONTINUE | RunStop;
