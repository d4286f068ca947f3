import type { MessageBuilder } from "./message-builder.js";
import type { CallOutcome, SseDecoder } from "./sse.js";
import type { TextBlock, ThinkingBlock } from "./types.js";

type OpenBlock =
	| { kind: "text"; block: TextBlock }
	| { kind: "thinking"; block: ThinkingBlock }
	| { kind: "tool"; id: string }
	| { kind: "schema"; block: TextBlock };

type Json = Record<string, unknown>;

function mapStop(reason: unknown, hasText: boolean): CallOutcome {
	switch (reason) {
		case "max_tokens":
		case "model_context_window_exceeded":
			return { stopReason: "length" };
		case "tool_use":
			return { stopReason: "tool_use" };
		case "refusal":
			// The model's words (if any) stay the reply's text; without any, say what happened.
			return hasText
				? { stopReason: "refusal", errorKind: "refusal" }
				: { stopReason: "refusal", errorKind: "refusal", error: "The model declined to answer." };
		default:
			// end_turn, stop_sequence, pause_turn and reasons newer than gar.
			return { stopReason: "stop" };
	}
}

function usageOf(usage: Json | undefined) {
	const out: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number } = {};
	if (!usage) return out;
	if (typeof usage.input_tokens === "number") out.input = usage.input_tokens;
	if (typeof usage.output_tokens === "number") out.output = usage.output_tokens;
	if (typeof usage.cache_read_input_tokens === "number") out.cacheRead = usage.cache_read_input_tokens;
	if (typeof usage.cache_creation_input_tokens === "number") out.cacheWrite = usage.cache_creation_input_tokens;
	return out;
}

/**
 * Decodes the Messages API event stream into `builder`. Server-side tool blocks (web search and the like) are not
 * client tool calls and are skipped. The reply is complete once a `message_delta` carried the stop reason, with or
 * without `message_stop`. `schemaTool` names the forced tool whose input is the structured answer.
 */
export function anthropicDecoder(
	builder: MessageBuilder,
	schemaTool: string | undefined,
	describe: (error: unknown) => CallOutcome,
): SseDecoder {
	const open = new Map<number, OpenBlock>();
	let stopReason: unknown;
	let complete = false;
	let schemaAnswered = false;
	let hasText = false;

	const start = (index: number, cb: Json) => {
		if (cb.type === "text") {
			const block = builder.newText();
			open.set(index, { kind: "text", block });
			builder.text(String(cb.text ?? ""), block);
		} else if (cb.type === "thinking") {
			const block = builder.newThinking();
			open.set(index, { kind: "thinking", block });
			builder.thinking(String(cb.thinking ?? ""), block);
			if (typeof cb.signature === "string" && cb.signature) builder.sign(block, cb.signature);
		} else if (cb.type === "redacted_thinking") {
			const block = builder.newThinking();
			block.redacted = true;
			builder.sign(block, String(cb.data ?? ""));
		} else if (cb.type === "tool_use" && cb.name === schemaTool) {
			open.set(index, { kind: "schema", block: builder.newText() });
		} else if (cb.type === "tool_use") {
			builder.startTool(String(cb.id), String(cb.name));
			open.set(index, { kind: "tool", id: String(cb.id) });
		}
	};

	const delta = (index: number, d: Json) => {
		const entry = open.get(index);
		if (!entry) return;
		if (d.type === "text_delta" && entry.kind === "text") {
			hasText = true;
			builder.text(d.text as string, entry.block);
		} else if (d.type === "thinking_delta" && entry.kind === "thinking")
			builder.thinking(d.thinking as string, entry.block);
		else if (d.type === "signature_delta" && entry.kind === "thinking")
			builder.sign(entry.block, d.signature as string);
		else if (d.type === "input_json_delta" && entry.kind === "tool")
			builder.toolDelta(entry.id, d.partial_json as string);
		else if (d.type === "input_json_delta" && entry.kind === "schema")
			builder.text(d.partial_json as string, entry.block);
	};

	const stop = (index: number) => {
		const entry = open.get(index);
		open.delete(index);
		if (entry?.kind === "tool") builder.endTool(entry.id);
		if (entry?.kind === "schema") {
			schemaAnswered = true;
			try {
				builder.setText(entry.block, JSON.stringify(JSON.parse(entry.block.text || "{}")));
			} catch {
				// Keep the text as it came: the caller's parser will report what is wrong with it.
			}
		}
	};

	return {
		get complete() {
			return complete;
		},
		event(_name, data) {
			const event = JSON.parse(data) as Json;
			builder.started = true;
			switch (event.type) {
				case "content_block_delta":
					delta(event.index as number, event.delta as Json);
					break;
				case "content_block_start":
					start(event.index as number, event.content_block as Json);
					break;
				case "content_block_stop":
					stop(event.index as number);
					break;
				case "message_start":
					builder.setUsage(usageOf((event.message as Json | undefined)?.usage as Json | undefined));
					break;
				case "message_delta": {
					const reason = (event.delta as Json | undefined)?.stop_reason;
					if (reason) {
						stopReason = reason;
						complete = true;
					}
					// message_delta carries the reply's closing counts (message_start only opened them).
					builder.setUsage(usageOf(event.usage as Json | undefined), event.usage !== undefined);
					break;
				}
				case "message_stop":
					complete = true;
					break;
				case "error":
					return describe(event);
			}
			return undefined;
		},
		end() {
			if (!complete) {
				return { stopReason: "error", error: "The stream ended before the reply was complete.", errorKind: "network" };
			}
			const outcome = mapStop(stopReason, hasText);
			return schemaAnswered && outcome.stopReason === "tool_use" ? { stopReason: "stop" } : outcome;
		},
	};
}
