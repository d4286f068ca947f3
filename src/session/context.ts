import { normalizeHistory } from "../llm/transform.js";
import type { AssistantBlock, AssistantMessage, Message, ToolCallBlock } from "../llm/types.js";
import {
	type AssistantEntry,
	type CompactionEntry,
	KNOWN_BLOCK_TYPES,
	type NodeEntry,
	type StoredBlock,
} from "./format.js";
import type { Session } from "./session.js";

export type ModelRef = { provider: string; model: string };
/**
 * The messages to send and the model in use. `entryIds[i]` is the entry `messages[i]` came from (null for a
 * compaction summary and for a synthetic tool result); `compaction` is the newest compaction on the path, if any.
 */
export type SessionContext = {
	messages: Message[];
	model?: ModelRef;
	entryIds: (string | null)[];
	compaction?: CompactionEntry;
};

/** The line before a compaction summary, so the model knows what it is reading. */
export const SUMMARY_PREFACE =
	"The conversation so far was compacted to save context. This is the summary of the earlier part; the messages after it follow on verbatim.";

/** The user message a compaction summary is sent as, at the head of the rebuilt context. */
export function summaryMessage(summary: string): Message {
	return { role: "user", content: `${SUMMARY_PREFACE}\n\n<summary>\n${summary}\n</summary>` };
}

/** The summary text when `message` is a compaction summary (see summaryMessage), else undefined. */
export function summaryOf(message: Message | undefined): string | undefined {
	if (message?.role !== "user" || !message.content.startsWith(SUMMARY_PREFACE)) return undefined;
	const match = /<summary>\n([\s\S]*)\n<\/summary>$/.exec(message.content);
	return match?.[1];
}

export { INTERRUPTED_RESULT as INTERRUPTED, NOT_RUN_RESULT as NOT_RUN } from "../llm/transform.js";

/** Only the block types this gar knows; a newer gar's block types are kept in the file but not sent. */
export function knownBlocks(content: readonly StoredBlock[]): AssistantBlock[] {
	return content.filter(isKnownBlock);
}

/** The tool calls of a stored reply, in order. */
export function toolCallsOf(entry: AssistantEntry): ToolCallBlock[] {
	return entry.content.filter((block): block is ToolCallBlock => block.type === "tool_call");
}

/** Whether a stored block is one this gar knows (see knownBlocks). */
export function isKnownBlock(block: StoredBlock): block is AssistantBlock {
	return KNOWN_BLOCK_TYPES.has(block.type);
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
 * "Not run" for one that never started). The newest compaction on the path replaces what came before its first
 * kept entry by its summary (compaction nodes themselves are never sent). `model` is the last model_change or
 * assistant on the path.
 */
export function buildContext(session: Session, leafId: string | null = session.leafId): SessionContext {
	const path = session.pathTo(leafId);
	let model: ModelRef | undefined;
	let compaction: CompactionEntry | undefined;
	let from = 0;
	for (const [index, entry] of path.entries()) {
		if (entry.type === "model_change" || entry.type === "assistant") {
			model = { provider: entry.provider, model: entry.model };
		} else if (entry.type === "compaction") {
			compaction = entry;
			const kept = entry.firstKeptEntryId === null ? -1 : path.findIndex((e) => e.id === entry.firstKeptEntryId);
			// A first kept entry that is not on the path (a damaged file): keep only what follows the summary.
			from = kept >= 0 && kept < index ? kept : index + 1;
		}
	}
	const raw: Message[] = [];
	const ids = new Map<Message, string>();
	for (const entry of path.slice(from)) {
		const message = messageOf(entry);
		if (!message) continue;
		raw.push(message);
		ids.set(message, entry.id);
	}
	const normalized = normalizeHistory(raw, { started: session.startedCalls });
	const messages = compaction ? [summaryMessage(compaction.summary), ...normalized] : normalized;
	const context: SessionContext = { messages, entryIds: messages.map((m) => ids.get(m) ?? null) };
	if (model) context.model = model;
	if (compaction) context.compaction = compaction;
	return context;
}

/** The message a node stands for; undefined for nodes that are not sent (model changes, compactions, unknown). */
function messageOf(entry: NodeEntry): Message | undefined {
	switch (entry.type) {
		case "user":
			return { role: "user", content: entry.content };
		case "assistant":
			return assistantMessageOf(entry);
		case "tool_result": {
			const { callId, name, content, isError } = entry;
			return { role: "tool_result", callId, name, content, isError };
		}
		default:
			return undefined;
	}
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
