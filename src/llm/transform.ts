import type { AssistantMessage, Message, ToolResultMessage } from "./types.js";

/** The result given to a tool call that never started (its reply ended, or the run stopped, before it ran). */
export const NOT_RUN_RESULT = "Not run: the reply was interrupted before this tool ran.";
/** The result given to a tool call that started but has no result: gar died while it ran. */
export const INTERRUPTED_RESULT =
	"gar stopped while this call was running; it may have run partly or completely — check before repeating it.";

export type NormalizeOptions = {
	/** Ids of tool calls known to have started (a recorded start) although no result was recorded. */
	started?: ReadonlySet<string>;
};

/** A failed or aborted reply with no text and no tool calls says nothing to a model. */
function saysNothing(message: AssistantMessage): boolean {
	if (message.content.length === 0) return true;
	if (message.stopReason !== "aborted" && message.stopReason !== "error") return false;
	return !message.content.some((b) => b.type === "tool_call" || (b.type === "text" && b.text.trim() !== ""));
}

/**
 * The one rule that makes a history every provider accepts (used by the session's context rebuild and by every
 * adapter). Returns a new array and never mutates its input. Assistant messages that say nothing are dropped.
 * Right after each assistant message come the results of its tool calls, in call order: the recorded result
 * wherever it sits in the history (say, after a user message typed while tools ran), else a synthetic error
 * result — "gar stopped while this call was running…" for a call known to have started, "Not run…" otherwise.
 * Results that answer no tool call are dropped.
 */
export function normalizeHistory(messages: readonly Message[], options: NormalizeOptions = {}): Message[] {
	const results = new Map<string, ToolResultMessage>();
	for (const message of messages) {
		if (message.role === "tool_result" && !results.has(message.callId)) results.set(message.callId, message);
	}
	const out: Message[] = [];
	for (const message of messages) {
		if (message.role === "tool_result") continue;
		if (message.role === "user") {
			out.push(message);
			continue;
		}
		if (saysNothing(message)) continue;
		out.push(message);
		for (const block of message.content) {
			if (block.type !== "tool_call") continue;
			const result = results.get(block.id);
			results.delete(block.id);
			const text = options.started?.has(block.id) ? INTERRUPTED_RESULT : NOT_RUN_RESULT;
			out.push(result ?? { role: "tool_result", callId: block.id, name: block.name, content: text, isError: true });
		}
	}
	return out;
}
