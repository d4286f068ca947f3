import Anthropic from "@anthropic-ai/sdk";
import type { MessageBuilder } from "./message-builder.js";
import { findModel, type ModelInfo } from "./models.js";
import { type CallOutcome, cleanSchema, type ProviderOptions, sdkProvider } from "./stream-driver.js";
import { normalizeHistory } from "./transform.js";
import type {
	AssistantMessage,
	Message,
	ModelRequest,
	Provider,
	StopReason,
	TextBlock,
	ThinkingBlock,
	ThinkingLevel,
} from "./types.js";

type Params = Anthropic.MessageCreateParamsStreaming;
type Block = Anthropic.ContentBlockParam;

const THINKING_BUDGET: Record<Exclude<ThinkingLevel, "off">, number> = { low: 2048, medium: 8192, high: 16384 };
const DEFAULT_BASE_URL = "https://api.anthropic.com";

/** Tool-use ids must match ^[a-zA-Z0-9_-]+$; ids from other providers are made to fit (the same way every time). */
export function safeToolId(id: string): string {
	return id.replace(/[^a-zA-Z0-9_-]/g, "_") || "tool";
}

function assistantBlocks(message: AssistantMessage): Block[] {
	const out: Block[] = [];
	for (const block of message.content) {
		if (block.type === "text") {
			if (block.text.trim() !== "") out.push({ type: "text", text: block.text });
		} else if (block.type === "thinking") {
			// Thinking without a signature (another provider's, or cut off) cannot be sent back: drop it.
			if (!block.signature) continue;
			if (block.redacted) out.push({ type: "redacted_thinking", data: block.signature });
			else out.push({ type: "thinking", thinking: block.thinking, signature: block.signature });
		} else {
			out.push({ type: "tool_use", id: safeToolId(block.id), name: block.name, input: block.arguments });
		}
	}
	return out;
}

/**
 * The Messages API `messages` for a history: normalized (every tool call answered), consecutive tool results
 * grouped into one user message, same-role turns merged, and a cache breakpoint on the last block.
 */
export function toAnthropicMessages(history: Message[]): Anthropic.MessageParam[] {
	const out: Anthropic.MessageParam[] = [];
	const add = (role: "user" | "assistant", blocks: Block[]) => {
		if (blocks.length === 0) return;
		const last = out[out.length - 1];
		if (last?.role === role && Array.isArray(last.content)) last.content.push(...blocks);
		else out.push({ role, content: blocks });
	};
	for (const message of normalizeHistory(history)) {
		if (message.role === "user") {
			if (message.content !== "") add("user", [{ type: "text", text: message.content }]);
		} else if (message.role === "tool_result") {
			const block: Block = { type: "tool_result", tool_use_id: safeToolId(message.callId), content: message.content };
			if (message.isError) block.is_error = true;
			add("user", [block]);
		} else {
			add("assistant", assistantBlocks(message));
		}
	}
	const lastBlocks = out[out.length - 1]?.content;
	const lastBlock = Array.isArray(lastBlocks) ? lastBlocks[lastBlocks.length - 1] : undefined;
	if (lastBlock && lastBlock.type !== "thinking" && lastBlock.type !== "redacted_thinking") {
		(lastBlock as { cache_control?: unknown }).cache_control = { type: "ephemeral" };
	}
	return out;
}

function thinkingParams(params: Params, level: ThinkingLevel | undefined, info: ModelInfo | undefined, fixed: boolean) {
	const mode = info?.anthropicThinking;
	if (!mode || level === undefined) return;
	if (level === "off") {
		if (mode === "adaptive-default") params.thinking = { type: "disabled" };
		return;
	}
	if (mode !== "budget") {
		params.thinking = { type: "adaptive" };
		params.output_config = { ...params.output_config, effort: level };
		return;
	}
	let budget = THINKING_BUDGET[level];
	// max_tokens must exceed the budget: raise our default, or shrink the budget under a caller's limit.
	if (!fixed) params.max_tokens = Math.min(Math.max(params.max_tokens, budget + 4096), info.maxOutput);
	if (budget >= params.max_tokens) budget = params.max_tokens - 1024;
	if (budget >= 1024) params.thinking = { type: "enabled", budget_tokens: budget };
}

/** The request body for a model request (exported for tests of the request shape). */
export function buildAnthropicParams(request: ModelRequest): { params: Params; schemaTool?: string } {
	const info = findModel(request.model);
	const params: Params = {
		model: request.model,
		max_tokens: request.maxTokens ?? (info ? Math.min(info.maxOutput, 32_000) : 8192),
		messages: toAnthropicMessages(request.messages),
		stream: true,
	};
	if (request.system !== "") {
		params.system = [{ type: "text", text: request.system, cache_control: { type: "ephemeral" } }];
	}
	const tools: Anthropic.Tool[] = request.tools.map((tool) => ({
		name: tool.name,
		description: tool.description,
		input_schema: cleanSchema(tool.parameters) as Anthropic.Tool.InputSchema,
	}));
	let schemaTool: string | undefined;
	const schema = request.responseSchema;
	const thinkingMode = info?.anthropicThinking;
	if (schema && (thinkingMode === "always" || thinkingMode === "adaptive-default")) {
		// These models think by default or always, and forced tool use is refused with thinking on.
		params.output_config = { format: { type: "json_schema", schema: cleanSchema(schema.schema) } };
		thinkingParams(params, request.thinking, info, request.maxTokens !== undefined);
	} else if (schema) {
		schemaTool = schema.name;
		tools.push({
			name: schema.name,
			description: "Give the final answer as this tool's input.",
			input_schema: cleanSchema(schema.schema) as Anthropic.Tool.InputSchema,
		});
		params.tool_choice = { type: "tool", name: schema.name };
	} else {
		thinkingParams(params, request.thinking, info, request.maxTokens !== undefined);
	}
	if (tools.length > 0) params.tools = tools;
	return schemaTool === undefined ? { params } : { params, schemaTool };
}

function mapStop(reason: string | null | undefined): CallOutcome {
	switch (reason) {
		case "end_turn":
		case "stop_sequence":
		case "pause_turn":
			return { stopReason: "stop" };
		case "max_tokens":
		case "model_context_window_exceeded":
			return { stopReason: "length" };
		case "tool_use":
			return { stopReason: "tool_use" };
		case "refusal":
			// A refusal is not a reply to build on: end as an error the person can read.
			return { stopReason: "error", error: "The model declined to answer (stop_reason: refusal)." };
		default:
			return { stopReason: "stop" };
	}
}

type OpenBlock =
	| { kind: "text"; block: TextBlock }
	| { kind: "thinking"; block: ThinkingBlock }
	| { kind: "tool"; id: string }
	| { kind: "schema"; block: TextBlock };

function usageOf(usage: Partial<Record<string, number | null | undefined>> | undefined) {
	const out: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number } = {};
	if (!usage) return out;
	if (typeof usage.input_tokens === "number") out.input = usage.input_tokens;
	if (typeof usage.output_tokens === "number") out.output = usage.output_tokens;
	if (typeof usage.cache_read_input_tokens === "number") out.cacheRead = usage.cache_read_input_tokens;
	if (typeof usage.cache_creation_input_tokens === "number") out.cacheWrite = usage.cache_creation_input_tokens;
	return out;
}

async function consume(
	events: AsyncIterable<Anthropic.RawMessageStreamEvent>,
	builder: MessageBuilder,
	schemaTool: string | undefined,
): Promise<CallOutcome> {
	const open = new Map<number, OpenBlock>();
	let stopReason: string | null | undefined;
	let stopped = false;
	let schemaAnswered = false;
	for await (const event of events) {
		builder.started = true;
		switch (event.type) {
			case "message_start":
				builder.setUsage(usageOf(event.message.usage as unknown as Record<string, number>));
				break;
			case "content_block_start": {
				const cb = event.content_block;
				if (cb.type === "text") {
					const block = builder.newText();
					open.set(event.index, { kind: "text", block });
					builder.text(cb.text, block);
				} else if (cb.type === "thinking") {
					const block = builder.newThinking();
					open.set(event.index, { kind: "thinking", block });
					builder.thinking(cb.thinking, block);
					if (cb.signature) builder.sign(block, cb.signature);
				} else if (cb.type === "redacted_thinking") {
					const block = builder.newThinking();
					block.redacted = true;
					builder.sign(block, cb.data);
				} else if (cb.type === "tool_use" && cb.name === schemaTool) {
					open.set(event.index, { kind: "schema", block: builder.newText() });
				} else if (cb.type === "tool_use") {
					builder.startTool(cb.id, cb.name);
					open.set(event.index, { kind: "tool", id: cb.id });
				}
				break;
			}
			case "content_block_delta": {
				const entry = open.get(event.index);
				const delta = event.delta;
				if (!entry) break;
				if (delta.type === "text_delta" && entry.kind === "text") builder.text(delta.text, entry.block);
				else if (delta.type === "thinking_delta" && entry.kind === "thinking") {
					builder.thinking(delta.thinking, entry.block);
				} else if (delta.type === "signature_delta" && entry.kind === "thinking") {
					builder.sign(entry.block, delta.signature);
				} else if (delta.type === "input_json_delta" && entry.kind === "tool") {
					builder.toolDelta(entry.id, delta.partial_json);
				} else if (delta.type === "input_json_delta" && entry.kind === "schema") {
					builder.text(delta.partial_json, entry.block);
				}
				break;
			}
			case "content_block_stop": {
				const entry = open.get(event.index);
				open.delete(event.index);
				if (entry?.kind === "tool") builder.endTool(entry.id);
				if (entry?.kind === "schema") {
					schemaAnswered = true;
					try {
						builder.setText(entry.block, JSON.stringify(JSON.parse(entry.block.text || "{}")));
					} catch {
						// Keep the text as it came: the caller's parser will report what is wrong with it.
					}
				}
				break;
			}
			case "message_delta":
				stopReason = event.delta.stop_reason;
				builder.setUsage(usageOf(event.usage as unknown as Record<string, number>));
				break;
			case "message_stop":
				stopped = true;
				break;
		}
	}
	if (!stopped) return { stopReason: "error", error: "The stream ended before the reply was complete." };
	const outcome = mapStop(stopReason);
	if (schemaAnswered && outcome.stopReason === "tool_use") return { stopReason: "stop" as StopReason };
	return outcome;
}

/** A Provider over the Anthropic Messages API (streaming). Never throws: see `Provider`. */
export function createAnthropicProvider(options: ProviderOptions = {}): Provider {
	const baseURL = options.baseURL;
	const api = baseURL && baseURL !== DEFAULT_BASE_URL ? `Anthropic API at ${baseURL}` : "Anthropic API";
	return sdkProvider(
		{ name: "anthropic", keyEnv: "ANTHROPIC_API_KEY", api },
		options,
		async (request, settings, { fetch, signal, builder }) => {
			const { params, schemaTool } = buildAnthropicParams(request);
			const client = new Anthropic({
				apiKey: settings.apiKey ?? "none",
				maxRetries: settings.maxRetries,
				fetch,
				logLevel: "off", // the SDK logs to the console otherwise, over the terminal UI
				...(settings.baseURL ? { baseURL: settings.baseURL } : {}),
			});
			// client.post rather than messages.create: create() console.warns about deprecated models, which
			// would corrupt the terminal UI.
			const stream = await client.post<AsyncIterable<Anthropic.RawMessageStreamEvent>>("/v1/messages", {
				body: params,
				stream: true,
				signal,
				timeout: 600_000,
			});
			return consume(stream, builder, schemaTool);
		},
	);
}
