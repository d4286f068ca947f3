import type { MessageBuilder } from "./message-builder.js";
import type { CallOutcome, SseDecoder } from "./sse.js";
import { ThinkTagSplitter } from "./think-tags.js";

type Json = Record<string, unknown>;
type Slot = { id: string; name: string; started: boolean; pending: string[] };

/**
 * Reasoning text and the field it came in: `reasoning_content` (DeepSeek, llama.cpp, vLLM), `reasoning` (Ollama,
 * OpenRouter, Groq) or `reasoning_details` (OpenRouter, which sends it next to `reasoning`: one of them is enough).
 */
function reasoningOf(delta: Json): [text: string, field: string] | undefined {
	if (typeof delta.reasoning_content === "string") return [delta.reasoning_content, "reasoning_content"];
	if (typeof delta.reasoning === "string") return [delta.reasoning, "reasoning"];
	const details = delta.reasoning_details;
	if (!Array.isArray(details)) return undefined;
	let text = "";
	for (const d of details as Json[]) {
		const part = d.text ?? d.summary;
		if (typeof part === "string") text += part;
	}
	return [text, "reasoning_details"];
}

function finishOutcome(finish: string | null, hasToolCalls: boolean, refused: boolean): CallOutcome {
	if (refused) return { stopReason: "refusal", errorKind: "refusal" };
	switch (finish) {
		case "length":
			return { stopReason: "length" };
		case "tool_calls":
		case "function_call":
			return { stopReason: "tool_use" };
		case "content_filter":
			return {
				stopReason: "error",
				error: "The reply was stopped by the provider's content filter.",
				errorKind: "refusal",
			};
		default:
			// Some servers (Ollama among them) say "stop" for a reply that calls tools, some say nothing at all.
			return { stopReason: hasToolCalls ? "tool_use" : "stop" };
	}
}

/**
 * A usage report (once per reply, or running totals on some servers): input without the cached part, output, cache
 * reads; and the cost OpenRouter says the call had (in credits, one per USD), truer than any price table.
 */
function readUsage(usage: Json, builder: MessageBuilder): void {
	const details = usage.prompt_tokens_details as Json | undefined;
	const cached = typeof details?.cached_tokens === "number" ? details.cached_tokens : 0;
	const prompt = typeof usage.prompt_tokens === "number" ? usage.prompt_tokens : 0;
	const output = typeof usage.completion_tokens === "number" ? usage.completion_tokens : 0;
	builder.setUsage({ input: Math.max(0, prompt - cached), output, cacheRead: cached }, true);
	if (typeof usage.cost === "number" && Number.isFinite(usage.cost) && usage.cost >= 0)
		builder.reportedCostUsd = usage.cost;
}

/**
 * Decodes a Chat Completions chunk stream into `builder`. A reply is complete when a `finish_reason`, `[DONE]`,
 * or a usage-only chunk as the last event arrived (Snowflake Cortex, xAI and Z.ai send no finish_reason on some
 * replies). `thinkTags` splits a leading `<think>…</think>` out of the content. `delta.refusal` becomes the text.
 */
export function openaiDecoder(
	builder: MessageBuilder,
	thinkTags: boolean,
	fail: (payload: unknown) => CallOutcome,
): SseDecoder {
	const slots = new Map<string, Slot>();
	let lastSlot: Slot | undefined;
	let finish: string | null = null;
	let done = false;
	let usageLast = false;
	let refused = false;
	const splitter = thinkTags
		? new ThinkTagSplitter(
				(text) => builder.text(text),
				(text) => builder.thinking(text, undefined, "think_tag"),
			)
		: undefined;

	const content = (text: string) => {
		if (text === "") return;
		if (splitter) splitter.push(text);
		else builder.text(text);
	};
	// Mistral's reasoning models stream content as parts: {type: "text"} and {type: "thinking", thinking: [parts]}.
	const parts = (list: Json[]) => {
		for (const part of list) {
			if (part.type === "text" && typeof part.text === "string") content(part.text);
			else if (part.type === "thinking" && Array.isArray(part.thinking)) {
				let text = "";
				for (const inner of part.thinking as Json[]) if (typeof inner.text === "string") text += inner.text;
				builder.thinking(text, undefined, "thinking_part");
			}
		}
	};

	const startTool = (slot: Slot) => {
		slot.started = true;
		builder.startTool(slot.id, slot.name);
		for (const fragment of slot.pending) builder.toolDelta(slot.id, fragment);
		slot.pending = [];
	};

	const toolCall = (call: Json, position: number) => {
		const fn = (call.function ?? {}) as Json;
		const id = typeof call.id === "string" && call.id ? call.id : undefined;
		// Without an index (some servers), a new id is a new call and no id continues the last one.
		const key = typeof call.index === "number" ? `#${call.index}` : id ? `id:${id}` : undefined;
		let slot = key ? slots.get(key) : lastSlot;
		if (!slot) {
			const fallback = `call_${slots.size || position}_${Math.random().toString(36).slice(2, 10)}`;
			slot = { id: id ?? fallback, name: "", started: false, pending: [] };
			slots.set(key ?? `#${slots.size}`, slot);
		}
		lastSlot = slot;
		if (typeof fn.name === "string" && fn.name && !slot.started) slot.name += fn.name;
		if (slot.name && !slot.started) startTool(slot);
		const fragment = fn.arguments;
		if (typeof fragment === "string" && fragment) {
			if (slot.started) builder.toolDelta(slot.id, fragment);
			else slot.pending.push(fragment);
		}
	};

	return {
		get complete() {
			return finish !== null || done;
		},
		event(_name, data) {
			if (done) return undefined;
			if (data === "[DONE]") {
				done = true;
				return undefined;
			}
			const chunk = JSON.parse(data) as Json;
			if (chunk.error) return fail(chunk);
			builder.started = true;
			const usage = (chunk.usage ?? (chunk.x_groq as Json | undefined)?.usage) as Json | undefined;
			if (usage) readUsage(usage, builder);
			const choice = (chunk.choices as Json[] | undefined)?.[0];
			usageLast = !choice && usage !== undefined;
			if (!choice) return undefined;
			const delta = (choice.delta ?? {}) as Json;
			const reasoning = reasoningOf(delta);
			if (reasoning) builder.thinking(reasoning[0], undefined, reasoning[1]);
			if (typeof delta.content === "string") content(delta.content);
			else if (Array.isArray(delta.content)) parts(delta.content as Json[]);
			if (typeof delta.refusal === "string" && delta.refusal !== "") {
				refused = true;
				builder.text(delta.refusal);
			}
			const calls = delta.tool_calls;
			if (Array.isArray(calls)) for (const [i, call] of calls.entries()) toolCall(call as Json, i);
			if (typeof choice.finish_reason === "string" && choice.finish_reason) finish = choice.finish_reason;
			return undefined;
		},
		end() {
			splitter?.flush();
			for (const slot of slots.values()) {
				if (!slot.started) startTool(slot);
				builder.endTool(slot.id);
			}
			if (finish === null && !done && !usageLast) {
				return { stopReason: "error", error: "The stream ended before the reply was complete.", errorKind: "network" };
			}
			return finishOutcome(finish, slots.size > 0, refused);
		},
	};
}
