import { estimateTokens, messageChars } from "../agent/request-info.js";
import type { Message } from "../llm/types.js";

/**
 * Where a context may be cut: at a user or assistant message with every earlier tool call answered before it. So
 * a tool call is never separated from its result, and a reply's tool calls (with their results) stay together.
 */
export function cutPoints(messages: readonly Message[], start: number): number[] {
	const open = new Set<string>();
	const points: number[] = [];
	for (const [i, message] of messages.entries()) {
		if (i > start && message.role !== "tool_result" && open.size === 0) points.push(i);
		if (message.role === "assistant") {
			for (const block of message.content) if (block.type === "tool_call") open.add(block.id);
		} else if (message.role === "tool_result") open.delete(message.callId);
	}
	return points;
}

/**
 * The first message kept verbatim: the earliest cut point whose tail (from it to the end) fits `keepRecent`
 * tokens, else the latest cut point (the last turn alone is larger). Messages from `start` (after a previous
 * summary) up to it are summarized; at least one always is, and at least the last message is kept. Undefined
 * when there is no cut point (nothing to compact).
 */
export function findCut(messages: readonly Message[], start: number, keepRecent: number): number | undefined {
	const points = cutPoints(messages, start).filter((i) => i < messages.length);
	const latest = points[points.length - 1];
	if (latest === undefined) return undefined;
	let tail = 0;
	let cut = latest;
	let p = points.length - 1;
	for (let i = messages.length - 1; i > start && p >= 0; i--) {
		const message = messages[i];
		if (message) tail += estimateTokens(messageChars(message));
		if (tail > keepRecent) break;
		if (i === points[p]) {
			cut = i;
			p--;
		}
	}
	return cut;
}
