import type { SystemPart } from "../agent/events.js";
import { describeSystem, estimateTokens, messageChars } from "../agent/request-info.js";
import { contextTokens } from "../compaction/accounting.js";
import { findModel } from "../llm/models.js";
import type { Message, ToolSpec } from "../llm/types.js";
import type { SystemPrompt } from "../prompt/system-prompt.js";
import { buildContext, type RunEntry, type Session, type SystemPromptEntry, summaryOf } from "../session/index.js";
import { toToolSpec } from "../tools/index.js";
import type { AnyTool } from "../tools/types.js";
import type { ContextGroup, ContextItem, ContextReport } from "../view/context-view.js";
import { firstLine } from "../view/format.js";

/** A context file over this share of the request is named in a warning. */
export const CONTEXT_FILE_WARN_SHARE = 0.2;
const LARGEST = 10;

/** What the next request holds: the system prompt's parts, the tool definitions, the messages and their entries. */
export type ContextInput = {
	provider: string;
	model: string;
	window: number | null;
	parts: readonly SystemPart[];
	tools: readonly ToolSpec[];
	messages: readonly Message[];
	/** The entry each message came from (null: none or unknown); may be shorter than `messages`. */
	entryIds: readonly (string | null)[];
	/** The compaction accounting's figure (the last reply's reported tokens plus what came after); null: none. */
	reported: number | null;
	/** For the source of each user message (a prompt, a steer, a shell command's output). */
	session?: Session;
};

function partLabel(part: SystemPart): string {
	if (part.source === "context_file") return `context file ${part.path ?? ""}`;
	return part.source === "append" ? "appended text" : part.source;
}

/** Adds `tokens` to the group `label` (in first-seen order). */
function addTo(groups: Map<string, number>, label: string, tokens: number): void {
	if (tokens > 0) groups.set(label, (groups.get(label) ?? 0) + tokens);
}

/** The kind a user message or tool result counts as (assistant replies are split by block). */
function labelOf(message: Message, source: string | undefined): string {
	if (message.role === "tool_result") return `tool results: ${message.name}`;
	if (summaryOf(message) !== undefined) return "compaction summary";
	if (source === "hook") return "hook context";
	return source === "shell" ? "shell output (!cmd)" : source === "schema_retry" ? "gar's JSON requests" : "user";
}

/** A message's tokens split by kind: the text of each sort, thinking, tool calls, a tool's result, a summary. */
function splitMessage(message: Message, source: string | undefined, groups: Map<string, number>): void {
	if (message.role !== "assistant") {
		addTo(groups, labelOf(message, source), estimateTokens(message.content.length));
		return;
	}
	for (const block of message.content) {
		if (block.type === "text") addTo(groups, "assistant text", estimateTokens(block.text.length));
		else if (block.type === "thinking") addTo(groups, "thinking", estimateTokens(block.thinking.length));
		else {
			const chars = block.name.length + (block.rawArguments ?? JSON.stringify(block.arguments)).length;
			addTo(groups, "tool calls", estimateTokens(chars));
		}
	}
}

/** A message as an item of the largest list. */
function itemOf(message: Message, entryId: string | null, source: string | undefined): ContextItem {
	const tokens = estimateTokens(messageChars(message));
	if (message.role === "tool_result") {
		return {
			label: `tool result ${message.name}`,
			entryId,
			tokens,
			preview: firstLine(message.content.trimStart(), 50),
		};
	}
	if (message.role === "user") {
		const summary = summaryOf(message);
		const label = summary !== undefined ? "compaction summary" : source === "shell" ? "shell output" : "user";
		return { label, entryId, tokens, preview: firstLine((summary ?? message.content).trimStart(), 50) };
	}
	const text = message.content.find((b) => b.type === "text");
	const call = message.content.find((b) => b.type === "tool_call");
	const said =
		text?.type === "text"
			? text.text
			: call?.type === "tool_call"
				? `${call.name} ${JSON.stringify(call.arguments)}`
				: "";
	return { label: "assistant", entryId, tokens, preview: firstLine(said.trimStart(), 50) };
}

/**
 * What fills the context of the next request, by kind and as items: O(messages) once. The shares are of the window
 * when it is known; a context file taking more than 20 % of the request is named in a warning.
 */
export function contextReport(input: ContextInput): ContextReport {
	const groups: ContextGroup[] = [];
	const systemTokens = input.parts.reduce((sum, part) => sum + part.tokens, 0);
	groups.push({ label: "system prompt", tokens: systemTokens });
	for (const part of input.parts) groups.push({ label: partLabel(part), tokens: part.tokens, sub: true });
	const toolTokens = estimateTokens(JSON.stringify(input.tools).length);
	groups.push({ label: `tools (${input.tools.length})`, tokens: input.tools.length > 0 ? toolTokens : 0 });
	const kinds = new Map<string, number>();
	const items: ContextItem[] = [];
	for (const [i, message] of input.messages.entries()) {
		const entryId = input.entryIds[i] ?? null;
		const entry = entryId ? input.session?.get(entryId) : undefined;
		const source = entry?.type === "user" ? entry.source : undefined;
		splitMessage(message, source, kinds);
		items.push(itemOf(message, entryId, source));
	}
	for (const [label, tokens] of kinds) groups.push({ label, tokens });
	const messageTokens = items.reduce((sum, item) => sum + item.tokens, 0);
	const total = systemTokens + (input.tools.length > 0 ? toolTokens : 0) + messageTokens;
	for (const part of input.parts) {
		if (part.source !== "context_file") continue;
		items.push({ label: "context file", entryId: null, tokens: part.tokens, preview: part.path ?? "" });
	}
	const warnings = input.parts
		.filter((part) => part.source === "context_file" && total > 0 && part.tokens / total > CONTEXT_FILE_WARN_SHARE)
		.map(
			(part) =>
				`the context file ${part.path ?? ""} takes ${Math.round((part.tokens / total) * 100)}% of the request: shorten it, or move what is rarely needed out of it`,
		);
	const largest = items
		.filter((item) => item.tokens > 0)
		.sort((a, b) => b.tokens - a.tokens)
		.slice(0, LARGEST);
	return {
		provider: input.provider,
		model: input.model,
		window: input.window,
		total,
		reported: input.reported,
		groups,
		largest,
		warnings,
	};
}

/** What a running conversation offers for its context report (Conversation has these; a structural type). */
export type LiveConversation = {
	readonly messages: readonly Message[];
	readonly tools: readonly AnyTool[];
	readonly system: SystemPrompt;
	readonly model: { provider: string; model: string; contextWindow: number | null };
	readonly context: { tokens: number; window: number | null };
	readonly session: { readonly session: Session; readonly leafId: string | null } | null;
};

/** The entries of `messages` when the session's tree at `leaf` gives the same messages (else none known). */
function entriesOf(session: Session | undefined, leaf: string | null, count: number): (string | null)[] {
	if (!session) return [];
	try {
		const context = buildContext(session, leaf);
		return context.messages.length === count ? context.entryIds : [];
	} catch {
		return [];
	}
}

/** The context report's input for a running conversation: what it will send next. */
export function liveContextInput(c: LiveConversation): ContextInput {
	const session = c.session?.session;
	const { provider, model, contextWindow } = c.model;
	return {
		provider,
		model,
		window: contextWindow,
		parts: describeSystem(c.system).parts,
		tools: c.tools.map(toToolSpec),
		messages: c.messages,
		entryIds: entriesOf(session, c.session?.leafId ?? null, c.messages.length),
		reported: c.messages.length > 0 ? c.context.tokens : null,
		...(session ? { session } : {}),
	};
}

/**
 * The context report's input for a saved session (`gar context`): the path to its current leaf, with the system
 * prompt and tools it last sent and the window its last run used (else the model table's).
 */
export function sessionContextInput(session: Session): ContextInput {
	const context = buildContext(session);
	let prompt: SystemPromptEntry | undefined;
	let run: RunEntry | undefined;
	for (const entry of session.entries) {
		if (entry.type === "system_prompt") prompt = entry;
		else if (entry.type === "run") run = entry;
	}
	const model = context.model ?? { provider: "unknown", model: "unknown" };
	const parts = (prompt?.parts ?? []).map(({ text: _text, ...part }) => part);
	const tools = prompt?.tools ?? [];
	const overhead = parts.reduce((sum, part) => sum + part.tokens, 0) + estimateTokens(JSON.stringify(tools).length);
	const fresh = summaryOf(context.messages[0]) === undefined ? 0 : context.messages.length;
	return {
		...model,
		window: run?.contextWindow ?? findModel(model.model)?.contextWindow ?? null,
		parts,
		tools,
		messages: context.messages,
		entryIds: context.entryIds,
		reported: context.messages.length > 0 ? contextTokens(context.messages, overhead, fresh) : null,
		session,
	};
}
