import OpenAI from "openai";
import type { MessageBuilder } from "./message-builder.js";
import { findModel } from "./models.js";
import { type CallOutcome, cleanSchema, type ProviderOptions, sdkProvider } from "./stream-driver.js";
import { normalizeHistory } from "./transform.js";
import type { AssistantMessage, Message, ModelRequest, Provider } from "./types.js";

type Params = OpenAI.Chat.ChatCompletionCreateParamsStreaming;
type ChatMessage = OpenAI.Chat.ChatCompletionMessageParam;

function assistantMessage(message: AssistantMessage): ChatMessage | undefined {
	let text = "";
	const calls: OpenAI.Chat.ChatCompletionMessageFunctionToolCall[] = [];
	for (const block of message.content) {
		if (block.type === "text") text += block.text;
		else if (block.type === "tool_call") {
			const args = block.rawArguments ?? JSON.stringify(block.arguments);
			calls.push({ id: block.id, type: "function", function: { name: block.name, arguments: args } });
		}
		// Thinking is not sent back: Chat Completions has no field for it, and some servers reject one.
	}
	if (text === "" && calls.length === 0) return undefined;
	const out: OpenAI.Chat.ChatCompletionAssistantMessageParam = { role: "assistant", content: text || null };
	if (calls.length > 0) out.tool_calls = calls;
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

function mapFinish(reason: string | null, hasToolCalls: boolean): CallOutcome {
	switch (reason) {
		case "length":
			return { stopReason: "length" };
		case "tool_calls":
		case "function_call":
			return { stopReason: "tool_use" };
		case "content_filter":
			return { stopReason: "error", error: "The reply was stopped by the provider's content filter." };
		default:
			// Some servers (Ollama among them) say "stop" for a reply that calls tools.
			return { stopReason: hasToolCalls ? "tool_use" : "stop" };
	}
}

type Slot = { id: string; name: string; started: boolean; pending: string[] };

/** Reasoning text: `reasoning_content` (DeepSeek, llama.cpp, vLLM) or `reasoning` (Ollama, OpenRouter). */
function reasoningOf(delta: Record<string, unknown>): string | undefined {
	const value = delta.reasoning_content ?? delta.reasoning;
	return typeof value === "string" ? value : undefined;
}

async function consume(chunks: AsyncIterable<OpenAI.Chat.ChatCompletionChunk>, builder: MessageBuilder) {
	const slots = new Map<number, Slot>();
	let finish: string | null = null;
	const start = (slot: Slot) => {
		slot.started = true;
		builder.startTool(slot.id, slot.name);
		for (const fragment of slot.pending) builder.toolDelta(slot.id, fragment);
		slot.pending = [];
	};
	for await (const chunk of chunks) {
		builder.started = true;
		const usage = chunk.usage;
		if (usage) {
			const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
			const input = Math.max(0, (usage.prompt_tokens ?? 0) - cached);
			builder.setUsage({ input, output: usage.completion_tokens ?? 0, cacheRead: cached });
		}
		const choice = chunk.choices?.[0];
		if (!choice) continue;
		const delta = (choice.delta ?? {}) as OpenAI.Chat.ChatCompletionChunk.Choice.Delta & Record<string, unknown>;
		const reasoning = reasoningOf(delta);
		if (reasoning) builder.thinking(reasoning);
		if (typeof delta.content === "string") builder.text(delta.content);
		for (const call of delta.tool_calls ?? []) {
			const index = call.index ?? 0;
			let slot = slots.get(index);
			if (!slot) {
				const id = call.id || `call_${index}_${Math.random().toString(36).slice(2, 10)}`;
				slot = { id, name: "", started: false, pending: [] };
				slots.set(index, slot);
			}
			if (call.function?.name && !slot.started) slot.name += call.function.name;
			if (slot.name && !slot.started) start(slot);
			const fragment = call.function?.arguments;
			if (fragment) {
				if (slot.started) builder.toolDelta(slot.id, fragment);
				else slot.pending.push(fragment);
			}
		}
		if (choice.finish_reason) finish = choice.finish_reason;
	}
	for (const slot of slots.values()) {
		if (!slot.started) start(slot);
		builder.endTool(slot.id);
	}
	if (finish === null)
		return { stopReason: "error", error: "The stream ended before the reply was complete." } as const;
	return mapFinish(finish, slots.size > 0);
}

/**
 * A Provider over the Chat Completions API (streaming), for OpenAI and every OpenAI-compatible server (Ollama,
 * llama.cpp, vLLM, LM Studio, OpenRouter, DeepSeek) through `baseURL`. Never throws: see `Provider`.
 */
export function createOpenAIProvider(options: ProviderOptions = {}): Provider {
	const api = options.baseURL ? `OpenAI-compatible API at ${options.baseURL}` : "OpenAI API";
	return sdkProvider(
		{ name: "openai", keyEnv: "OPENAI_API_KEY", api },
		options,
		async (request, settings, { fetch, signal, builder }) => {
			// Local servers need no key, but the SDK wants one.
			const client = new OpenAI({
				apiKey: settings.apiKey || "none",
				maxRetries: settings.maxRetries,
				fetch,
				logLevel: "off", // the SDK logs to the console otherwise, over the terminal UI
				...(settings.baseURL ? { baseURL: settings.baseURL } : {}),
			});
			const stream = await client.chat.completions.create(buildOpenAIParams(request), { signal });
			return consume(stream, builder);
		},
	);
}
