import type { Message, ToolSpec } from "../llm/types.js";
import type { PromptPart, SystemPrompt } from "../prompt/system-prompt.js";
import { sha256Hex } from "../text/digest.js";
import type { RequestInfo, SystemPart } from "./events.js";

/** Tokens from characters, the usual estimate when the provider has not counted: chars / 4, rounded up. */
export function estimateTokens(chars: number): number {
	return Math.ceil(chars / 4);
}

/** A short content hash (16 hex digits of sha256): the key of a stored system prompt or tool-spec set. */
export function shortHash(text: string): string {
	return sha256Hex(text).slice(0, 16);
}

/** Characters of a message as a model reads it (text, thinking, tool arguments, tool results). */
export function messageChars(message: Message): number {
	if (message.role !== "assistant") return message.content.length;
	let chars = 0;
	for (const block of message.content) {
		if (block.type === "text") chars += block.text.length;
		else if (block.type === "thinking") chars += block.thinking.length;
		else chars += block.name.length + (block.rawArguments ?? JSON.stringify(block.arguments)).length;
	}
	return chars;
}

function partInfo(part: PromptPart): SystemPart {
	const info: SystemPart = { source: part.source, chars: part.text.length, tokens: estimateTokens(part.text.length) };
	if (part.path !== undefined) info.path = part.path;
	return info;
}

/** What a request's summary says about the system prompt; computed once per distinct prompt. */
export function describeSystem(system: SystemPrompt): RequestInfo["system"] {
	return {
		hash: shortHash(system.text),
		chars: system.text.length,
		tokens: estimateTokens(system.text.length),
		parts: system.parts.map(partInfo),
	};
}

/** What a request's summary says about the tool definitions; computed once per tool set. */
export function describeTools(specs: ToolSpec[]): RequestInfo["tools"] {
	const json = JSON.stringify(specs);
	return {
		names: specs.map((s) => s.name),
		hash: shortHash(json),
		chars: json.length,
		tokens: estimateTokens(json.length),
	};
}

/** Count and estimated tokens of a history. O(history): called once per request, never per delta. */
export function describeMessages(messages: readonly Message[]): RequestInfo["messages"] {
	let chars = 0;
	for (const message of messages) chars += messageChars(message);
	return { count: messages.length, tokens: estimateTokens(chars) };
}
