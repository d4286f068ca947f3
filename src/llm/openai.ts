import OpenAI from "openai";
import { findModel } from "./models.js";
import { openaiDecoder } from "./openai-decode.js";
import { apiLabel, cleanSchema, type ProviderOptions, sdkProvider } from "./stream-driver.js";
import { normalizeHistory } from "./transform.js";
import type { AssistantMessage, Message, ModelRequest, Provider } from "./types.js";

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

/**
 * A Provider over the Chat Completions API (streaming), for OpenAI and every OpenAI-compatible server (Ollama,
 * llama.cpp, vLLM, LM Studio, OpenRouter, DeepSeek) through `baseURL`. Never throws: see `Provider`.
 */
export function createOpenAIProvider(options: ProviderOptions = {}): Provider {
	const api = options.baseURL ? apiLabel("OpenAI-compatible API", options.baseURL) : "OpenAI API";
	const thinkTags = options.thinkTags ?? true;
	let client: OpenAI | undefined;
	return sdkProvider(
		{ name: "openai", keyEnv: "OPENAI_API_KEY", api },
		options,
		(request, settings) => {
			client ??= new OpenAI({
				apiKey: settings.apiKey || "none", // local servers need no key, but the SDK wants one
				maxRetries: 0, // gar retries (stream-driver.ts), with one policy for both wires
				fetch: settings.fetch,
				logLevel: "off", // the SDK logs to the console otherwise, over the terminal UI
				...(settings.baseURL ? { baseURL: settings.baseURL } : {}),
			});
			const sdk = client;
			const params = buildOpenAIParams(request);
			return {
				// The raw response: gar decodes the SSE itself (sse.ts), several times faster than the SDK's Stream.
				open: (signal) => sdk.chat.completions.create(params, { signal, timeout: 86_400_000 }).asResponse(),
				decoder: (builder, fail) => openaiDecoder(builder, thinkTags, fail),
			};
		},
		buildOpenAIParams,
	);
}
