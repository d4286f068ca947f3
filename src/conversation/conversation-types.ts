// The Conversation's options and results, and small helpers it uses (conversation.ts re-exports the public ones).

import type { EventChannel } from "../agent/channel.js";
import type { ApprovalDecision, ApprovalRequest, ContextHook } from "../agent/loop.js";
import type { OutputSchema } from "../agent/structured.js";
import type { ContextSettings } from "../compaction/accounting.js";
import type { CompactOutcome } from "../compaction/compact.js";
import type { Hooks } from "../hooks/hooks.js";
import type { Pricing } from "../llm/models.js";
import type { Message, Provider, ThinkingLevel, Usage } from "../llm/types.js";
import type { SystemPrompt } from "../prompt/system-prompt.js";
import type { SessionWriter } from "../session/index.js";
import type { AnyTool, ToolResult } from "../tools/types.js";
import type { PolicyOptions } from "./approval-policy.js";

/** Asks the person about one mutating call; should settle when `signal` aborts. */
export type AskFn = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalDecision>;

/** Refused: the conversation is busy with a run (a second run is refused, never interleaved). */
export class ConversationBusyError extends Error {
	override readonly name = "ConversationBusyError";
	constructor(what: string) {
		super(`cannot ${what} while a run is going; wait for it to end or abort it first`);
	}
}

export type ConversationOptions = {
	channel: EventChannel;
	provider: Provider;
	model: string;
	contextWindow: number | null;
	/** The config's prices, for a model gar's table does not price. */
	prices?: Pricing;
	system: SystemPrompt;
	tools: AnyTool[];
	history?: Message[];
	/** Where the conversation is saved; null: not saved. */
	session: SessionWriter | null;
	/** Opens a fresh session for `newSession()` (null: the new conversation is not saved). */
	openSession?: () => SessionWriter | null;
	maxTurns?: number;
	thinking?: ThinkingLevel;
	maxTokens?: number;
	loopGuard?: boolean;
	output?: OutputSchema;
	transformContext?: ContextHook;
	/** `[context]`: automatic compaction, reserve, recent part kept, tool result share (defaults when absent). */
	context?: ContextSettings;
	/**
	 * The approval policy: whether mutating calls must ask, which tools never ask, the permission rules (and how to
	 * save one the person allows), and how to ask.
	 */
	approval: Omit<PolicyOptions, "notice"> & { ask?: AskFn };
	/** The configured hooks (README "Hooks"); absent when there are none (or with --no-hooks). */
	hooks?: Hooks;
	now?: () => number;
};

/** How a compaction went (`gar compact`, `/compact`); `usage`/`costUsd` are the summary request's. */
export type CompactionResult = {
	ok: boolean;
	tokensBefore: number;
	tokensAfter: number;
	error?: string;
	/** Aborted: the context (and the session) stay as they were. */
	aborted?: boolean;
	usage: Usage;
	costUsd: number | null;
};

/** What a shell command run from the input (`!cmd`) is added to the context as. */
export function shellContext(command: string, result: ToolResult): string {
	return `I ran a shell command myself; its output is here for context.\n$ ${command}\n${result.content}`;
}

/** The result `gar compact` and `/compact` get from the compactor's outcome. */
export function resultOf(outcome: CompactOutcome): CompactionResult {
	const { ok, tokensBefore, usage, costUsd } = outcome;
	if (outcome.ok) return { ok, tokensBefore, tokensAfter: outcome.tokensAfter, usage, costUsd };
	return {
		ok,
		tokensBefore,
		tokensAfter: tokensBefore,
		error: outcome.error,
		aborted: outcome.aborted,
		usage,
		costUsd,
	};
}

/** The defined values of some keys of an object (for exactOptional-friendly spreading). */
export function pick<T extends object, K extends keyof T>(object: T, keys: K[]): Partial<Pick<T, K>> {
	const out: Partial<Pick<T, K>> = {};
	for (const key of keys) if (object[key] !== undefined) out[key] = object[key];
	return out;
}
