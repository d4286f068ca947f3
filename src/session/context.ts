import type { AssistantBlock, Message, ToolCallBlock } from "../llm/types.js";
import type { AssistantEntry, NodeEntry } from "./format.js";
import type { Session } from "./session.js";

export type ModelRef = { provider: string; model: string };
export type SessionContext = { messages: Message[]; model?: ModelRef };

/** The result given to a tool call that has no recorded result (its reply was aborted, failed, or the run died). */
export const NOT_RUN = "Not run: the reply was interrupted before this tool ran.";

/** Only the block types this gar knows; a newer gar's block types are kept in the file but not sent. */
export function knownBlocks(content: readonly AssistantBlock[]): AssistantBlock[] {
	return content.filter((b) => b.type === "text" || b.type === "thinking" || b.type === "tool_call");
}

/** An aborted or failed reply with no text and no tool calls says nothing to the model. */
function isEmptyFailure(entry: AssistantEntry, content: AssistantBlock[]): boolean {
	if (entry.stopReason !== "aborted" && entry.stopReason !== "error") return false;
	return !content.some((b) => b.type === "tool_call" || (b.type === "text" && b.text.trim() !== ""));
}

/**
 * The model history for the path from the root to `leafId` (default: the current leaf). User, assistant and tool
 * results go in path order. Tool calls without a recorded result get a synthetic error result (NOT_RUN) right after
 * the real ones, so every provider accepts the history; results that answer no pending call are dropped; aborted
 * or failed replies with no text and no tool calls are dropped. `model` is the last model_change or assistant on
 * the path.
 */
export function buildContext(session: Session, leafId: string | null = session.leafId): SessionContext {
	const messages: Message[] = [];
	let model: ModelRef | undefined;
	let pending: ToolCallBlock[] = [];
	const flush = () => {
		for (const call of pending) {
			messages.push({ role: "tool_result", callId: call.id, name: call.name, content: NOT_RUN, isError: true });
		}
		pending = [];
	};
	for (const entry of session.pathTo(leafId)) {
		switch (entry.type) {
			case "model_change":
				model = { provider: entry.provider, model: entry.model };
				break;
			case "user":
				flush();
				messages.push({ role: "user", content: entry.content });
				break;
			case "assistant": {
				model = { provider: entry.provider, model: entry.model };
				flush();
				const content = knownBlocks(entry.content);
				if (isEmptyFailure(entry, content)) break;
				const { provider, usage, stopReason, error } = entry;
				messages.push({
					role: "assistant",
					content,
					provider,
					model: entry.model,
					usage,
					stopReason,
					...(error === undefined ? {} : { error }),
				});
				pending = content.filter((b): b is ToolCallBlock => b.type === "tool_call");
				break;
			}
			case "tool_result": {
				const index = pending.findIndex((call) => call.id === entry.callId);
				if (index === -1) break;
				pending.splice(index, 1);
				const { callId, name, content, isError } = entry;
				messages.push({ role: "tool_result", callId, name, content, isError });
				break;
			}
			case "unknown":
				break;
		}
	}
	flush();
	return model ? { messages, model } : { messages };
}

/**
 * The model the person chose for this path: the last model_change, or the last assistant's model when the path
 * has none. (An assistant may report a dated model name; comparing against the choice avoids a model_change on
 * every run.)
 */
export function chosenModel(path: readonly NodeEntry[]): ModelRef | undefined {
	let fromAssistant: ModelRef | undefined;
	for (let i = path.length - 1; i >= 0; i--) {
		const entry = path[i];
		if (entry?.type === "model_change") return { provider: entry.provider, model: entry.model };
		if (entry?.type === "assistant" && !fromAssistant) fromAssistant = { provider: entry.provider, model: entry.model };
	}
	return fromAssistant;
}
