import { normalizeHistory } from "../llm/transform.js";
import type { AssistantBlock, AssistantMessage, Message } from "../llm/types.js";
import type { AssistantEntry, NodeEntry } from "./format.js";
import type { Session } from "./session.js";

export type ModelRef = { provider: string; model: string };
export type SessionContext = { messages: Message[]; model?: ModelRef };

export { INTERRUPTED_RESULT as INTERRUPTED, NOT_RUN_RESULT as NOT_RUN } from "../llm/transform.js";

/** Only the block types this gar knows; a newer gar's block types are kept in the file but not sent. */
export function knownBlocks(content: readonly AssistantBlock[]): AssistantBlock[] {
	return content.filter((b) => b.type === "text" || b.type === "thinking" || b.type === "tool_call");
}

/** The message an assistant entry stands for (known blocks only). */
export function assistantMessageOf(entry: AssistantEntry): AssistantMessage {
	const { provider, model, usage, stopReason, error, errorKind } = entry;
	return {
		role: "assistant",
		content: knownBlocks(entry.content),
		provider,
		model,
		usage,
		stopReason,
		...(error === undefined ? {} : { error }),
		...(errorKind === undefined ? {} : { errorKind }),
	};
}

/**
 * The model history for the path from the root to `leafId` (default: the current leaf): user, assistant and tool
 * results in path order, made acceptable to every provider by `normalizeHistory` (the one rule: every tool call
 * answered, "gar stopped while this call was running" for a call whose start was recorded without a result,
 * "Not run" for one that never started). `model` is the last model_change or assistant on the path.
 */
export function buildContext(session: Session, leafId: string | null = session.leafId): SessionContext {
	const messages: Message[] = [];
	let model: ModelRef | undefined;
	for (const entry of session.pathTo(leafId)) {
		switch (entry.type) {
			case "model_change":
				model = { provider: entry.provider, model: entry.model };
				break;
			case "user":
				messages.push({ role: "user", content: entry.content });
				break;
			case "assistant":
				model = { provider: entry.provider, model: entry.model };
				messages.push(assistantMessageOf(entry));
				break;
			case "tool_result": {
				const { callId, name, content, isError } = entry;
				messages.push({ role: "tool_result", callId, name, content, isError });
				break;
			}
			case "unknown":
				break;
		}
	}
	const normalized = normalizeHistory(messages, { started: session.startedCalls });
	return model ? { messages: normalized, model } : { messages: normalized };
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
