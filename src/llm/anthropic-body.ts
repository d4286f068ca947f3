import type Anthropic from "@anthropic-ai/sdk";
import { findModel, type ModelInfo } from "./models.js";
import { cleanSchema } from "./schema.js";
import { normalizeHistory } from "./transform.js";
import type { AssistantMessage, Message, ModelRequest, ThinkingLevel } from "./types.js";

// The Messages API body gar sends, built without the SDK (types only): the request viewer and `gar request` build
// bodies with it too, and must not load an SDK for that.

type Params = Anthropic.MessageCreateParamsStreaming;
type Block = Anthropic.ContentBlockParam;

const THINKING_BUDGET: Record<Exclude<ThinkingLevel, "off">, number> = { low: 2048, medium: 8192, high: 16384 };

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
