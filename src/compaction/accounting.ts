import { estimateTokens, messageChars } from "../agent/request-info.js";
import type { Message, Usage } from "../llm/types.js";

/** The `[context]` settings, resolved (see README "Configuration"). */
export type ContextSettings = {
	/** Compact by itself when the next request would not fit the window minus the reserve. */
	autoCompact: boolean;
	/** Tokens kept free for the reply (and the summary request). */
	reserveTokens: number;
	/** Tokens of the most recent messages kept verbatim by a compaction. */
	keepRecentTokens: number;
	/** The largest share of the window one tool result may take (0 < share ≤ 1). */
	maxToolResultShare: number;
};

export const DEFAULT_CONTEXT_SETTINGS: ContextSettings = {
	autoCompact: true,
	reserveTokens: 16_384,
	keepRecentTokens: 20_000,
	maxToolResultShare: 0.25,
};

/** Every token a reply's usage accounts for: what was sent (input and cache) plus what came back. */
export function usageTokens(usage: Usage): number {
	return usage.input + usage.cacheRead + usage.cacheWrite + usage.output;
}

/** Estimated tokens (chars / 4) of some messages. */
export function estimateMessages(messages: readonly Message[], from = 0): number {
	let chars = 0;
	for (let i = from; i < messages.length; i++) {
		const message = messages[i];
		if (message) chars += messageChars(message);
	}
	return estimateTokens(chars);
}

/**
 * The size of the next request: the last reply's reported tokens (input + cache + output) plus an estimate of what
 * was added after it. Replies before `freshFrom` are not trusted (they were counted against a context that a
 * compaction has since replaced); without a trusted reply, the whole context is estimated, `overhead` (system
 * prompt and tool definitions) included. O(messages after the last reply).
 */
export function contextTokens(messages: readonly Message[], overhead: number, freshFrom = 0): number {
	for (let i = messages.length - 1; i >= freshFrom && i >= 0; i--) {
		const message = messages[i];
		if (message?.role !== "assistant") continue;
		const reported = usageTokens(message.usage);
		if (reported > 0) return reported + estimateMessages(messages, i + 1);
	}
	return overhead + estimateMessages(messages);
}

/** What the reserve and the recent part come to for a window: each at most a share of it, so both always fit. */
export function limitsFor(window: number, settings: ContextSettings): { threshold: number; keepRecent: number } {
	const reserve = Math.min(settings.reserveTokens, Math.floor(window / 2));
	const threshold = window - reserve;
	return { threshold, keepRecent: Math.min(settings.keepRecentTokens, Math.floor(threshold / 2)) };
}
