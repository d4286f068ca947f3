import type { Message, ToolResultMessage } from "./types.js";

/** The result given to a tool call whose reply ended before the tool ran. */
export const NOT_RUN_RESULT = "Not run: the reply was interrupted before this tool ran.";

/**
 * Makes a history every provider accepts. Returns a new array and never mutates its input. Assistant messages
 * without content are dropped. Right after each assistant message come the results of its tool calls, in call
 * order: the recorded result wherever it sits in the history (say, after a user message typed while tools ran),
 * or a synthetic error result when there is none (an aborted, failed or cut-off reply). Results that answer no
 * tool call are dropped.
 */
export function normalizeHistory(messages: Message[]): Message[] {
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
		if (message.content.length === 0) continue;
		out.push(message);
		for (const block of message.content) {
			if (block.type !== "tool_call") continue;
			const result = results.get(block.id);
			results.delete(block.id);
			out.push(result ?? notRun(block.id, block.name));
		}
	}
	return out;
}

function notRun(callId: string, name: string): ToolResultMessage {
	return { role: "tool_result", callId, name, content: NOT_RUN_RESULT, isError: true };
}
