import type OpenAI from "openai";
import { findModel } from "./models.js";
import { cleanSchema } from "./schema.js";
import { normalizeHistory } from "./transform.js";
import type { AssistantMessage, Message, ModelRequest } from "./types.js";

// The Chat Completions body gar sends, built without the SDK (types only): the request viewer and `gar request`
// build bodies with it too, and must not load an SDK for that.

type Params = OpenAI.Chat.ChatCompletionCreateParamsStreaming;
type ChatMessage = OpenAI.Chat.ChatCompletionMessageParam;

function assistantMessage(message: AssistantMessage): ChatMessage | undefined {
	let text = "";
	let reasoning: string | undefined;
	const calls: OpenAI.Chat.ChatCompletionMessageFunctionToolCall[] = [];
	for (const block of message.content) {
		if (block.type === "text") text += block.text;
		else if (block.type === "tool_call") {
			const args = block.rawArguments ?? JSON.stringify(block.arguments);
			calls.push({ id: block.id, type: "function", function: { name: block.name, arguments: args } });
		} else if (block.field === "reasoning_content") reasoning = (reasoning ?? "") + block.thinking;
		// Other thinking is not sent back: Chat Completions has no field for it, and some servers reject one.
	}
	if (text === "" && calls.length === 0) return undefined;
	const out: OpenAI.Chat.ChatCompletionAssistantMessageParam & { reasoning_content?: string } = {
		role: "assistant",
		content: text || null,
	};
	if (calls.length > 0) out.tool_calls = calls;
	// DeepSeek's thinking mode answers 400 unless a tool-calling turn's reasoning_content comes back; only a
	// server that sent the field gets it back.
	if (calls.length > 0 && reasoning !== undefined) out.reasoning_content = reasoning;
	return out;
}

/** Chat Completions `messages` for a system prompt and a history (normalized: every tool call answered). */
export function toOpenAIMessages(system: string, history: Message[]): ChatMessage[] {
	const out: ChatMessage[] = [];
	if (system !== "") out.push({ role: "system", content: system });
	for (const message of normalizeHistory(history)) {
		if (message.role === "user") out.push({ role: "user", content: message.content });
		else if (message.role === "tool_result") {
			out.push({ role: "tool", tool_call_id: message.callId, content: message.content });
		} else {
			const converted = assistantMessage(message);
			if (converted) out.push(converted);
		}
	}
	return out;
}

/** The request body for a model request (exported for tests of the request shape). */
export function buildOpenAIParams(request: ModelRequest): Params {
	const info = findModel(request.model);
	const params: Params = {
		model: request.model,
		messages: toOpenAIMessages(request.system, request.messages),
		stream: true,
		stream_options: { include_usage: true },
	};
	if (request.tools.length > 0) {
		params.tools = request.tools.map((tool) => ({
			type: "function",
			function: { name: tool.name, description: tool.description, parameters: cleanSchema(tool.parameters) },
		}));
	}
	if (request.maxTokens !== undefined) {
		// OpenAI's own reasoning models refuse max_tokens; other servers mostly know only max_tokens.
		if (info?.provider === "openai") params.max_completion_tokens = request.maxTokens;
		else params.max_tokens = request.maxTokens;
	}
	const level = request.thinking;
	if (info?.reasoning && level && level !== "off") params.reasoning_effort = level;
	const schema = request.responseSchema;
	if (schema) {
		params.response_format = {
			type: "json_schema",
			json_schema: { name: schema.name, schema: cleanSchema(schema.schema), strict: false },
		};
		if (params.tools) params.tool_choice = "none";
	}
	return params;
}
