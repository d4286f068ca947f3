import { type Pricing, priceOf } from "../llm/models.js";
import {
	type AssistantMessage,
	EMPTY_USAGE,
	type ErrorKind,
	type Message,
	type ModelRequest,
	type Provider,
	type SentRequest,
	type ThinkingLevel,
	type ToolSpec,
} from "../llm/types.js";
import type { EventChannel } from "./channel.js";
import { boundToolArguments } from "./depth.js";
import type { RequestInfo } from "./events.js";
import { describeMessages } from "./request-info.js";
import type { OutputSchema } from "./structured.js";

/**
 * The model a run talks to; `setModel` replaces it whole. `prices`: the config's, for a model gar's table does not
 * price (see llm/models.ts priceOf).
 */
export type ModelChoice = { provider: Provider; model: string; contextWindow: number | null; prices?: Pricing };

/**
 * What agent_start and model_change say of a model's price: `priced` only where gar's table cannot know it (the
 * config prices a model the table does not).
 */
export function pricedFlag(choice: Pick<ModelChoice, "model" | "prices">): { priced?: true } {
	return priceOf(choice.model) === undefined && choice.prices ? { priced: true } : {};
}

/** What every request of an agent carries besides its messages. */
export type RequestSettings = {
	system: string;
	tools: ToolSpec[];
	thinking?: ThinkingLevel;
	maxTokens?: number;
	/** The request's summary parts that do not change per call (see request-info.ts). */
	info: Pick<RequestInfo, "system" | "tools">;
};

/** One request as sent: `output` forces a JSON answer (the structured-output retry). */
export function buildRequest(
	choice: ModelChoice,
	settings: RequestSettings,
	messages: Message[],
	signal: AbortSignal,
	output?: OutputSchema,
): ModelRequest {
	const request: ModelRequest = {
		model: choice.model,
		system: settings.system,
		messages,
		tools: settings.tools,
		signal,
	};
	if (settings.thinking) request.thinking = settings.thinking;
	if (settings.maxTokens) request.maxTokens = settings.maxTokens;
	if (output) request.responseSchema = { name: output.name, schema: output.schema };
	return request;
}

/** The `request` event's summary of one request (no body). */
export function describeRequest(
	choice: ModelChoice,
	settings: RequestSettings,
	requestId: string,
	turn: number,
	messages: readonly Message[],
	output?: OutputSchema,
): RequestInfo {
	const params: RequestInfo["params"] = { maxTokens: settings.maxTokens ?? null, thinking: settings.thinking ?? null };
	// The structured-output retry's schema is part of the body: a rebuild needs it (a few per run at most).
	if (output) params.responseSchema = { name: output.name, schema: output.schema };
	return {
		requestId,
		turn,
		provider: choice.provider.name,
		model: choice.model,
		params,
		system: settings.info.system,
		tools: settings.info.tools,
		messages: describeMessages(messages),
	};
}

/**
 * A streamed reply: the final message, the time to its first token (null: none came), the retries it took, and what
 * was sent (absent: nothing went out, such as a call refused for a missing key).
 */
export type Reply = { message: AssistantMessage; firstTokenMs: number | null; retries: number; sent?: SentRequest };

/** Where a streamed reply's events go, and how its time to first token is measured. */
export type StreamTarget = {
	channel: EventChannel;
	requestId: string;
	turn: number;
	now: () => number;
	startedAt: number;
};

/**
 * Streams one request, passing its deltas on as agent events (per delta: one emit, nothing else), and returns the
 * final message. Never throws: a provider that breaks its contract (throws, or ends without a final message) gives
 * an error reply.
 */
export async function streamReply(provider: Provider, request: ModelRequest, target: StreamTarget): Promise<Reply> {
	const { channel, requestId, turn, now, startedAt } = target;
	let firstTokenMs: number | null = null;
	let retries = 0;
	let final: AssistantMessage | undefined;
	try {
		for await (const event of provider.stream(request)) {
			switch (event.type) {
				case "text_delta":
				case "thinking_delta":
					firstTokenMs ??= now() - startedAt;
					channel.emit(event);
					break;
				case "toolcall_start":
					firstTokenMs ??= now() - startedAt;
					channel.emit({
						type: "toolcall_start",
						callId: event.id,
						name: event.name,
						contentIndex: event.contentIndex,
					});
					break;
				case "toolcall_delta":
					channel.emit({
						type: "toolcall_delta",
						callId: event.id,
						delta: event.delta,
						contentIndex: event.contentIndex,
					});
					break;
				case "retry": {
					retries++;
					const { attempt, maxAttempts, reason, delayMs, errorKind } = event;
					channel.emit({ type: "retry", requestId, turn, attempt, maxAttempts, reason, delayMs, errorKind });
					break;
				}
				case "done":
					final = boundToolArguments(event.message);
					break;
				case "start":
					break;
			}
		}
	} catch (error) {
		// Providers must not throw; if one does anyway, the run still ends cleanly with an error reply.
		const why = error instanceof Error ? error.message : String(error);
		final = failedReply({ provider, model: request.model }, `provider failure: ${why}`, "other");
	}
	final ??= failedReply(
		{ provider, model: request.model },
		"the provider stream ended without a final message",
		"other",
	);
	return { message: final, firstTokenMs, retries };
}

/**
 * A reply cut before any usage report (OpenAI-compatible wires report it only at the end) gets the request's own
 * estimate as its input, so its cost is not that of the output alone.
 */
export function withEstimatedInput(message: AssistantMessage, info: RequestInfo): AssistantMessage {
	const { usage } = message;
	if (!usage.estimated || usage.input + usage.cacheRead + usage.cacheWrite > 0) return message;
	const input = info.system.tokens + info.tools.tokens + info.messages.tokens;
	return { ...message, usage: { ...usage, input } };
}

/** The reply recorded when a turn fails before or outside the provider (a hook, a provider breaking its contract). */
export function failedReply(
	choice: Pick<ModelChoice, "provider" | "model">,
	error: string,
	errorKind: ErrorKind,
): AssistantMessage {
	return {
		role: "assistant",
		content: [],
		provider: choice.provider.name,
		model: choice.model,
		usage: EMPTY_USAGE,
		stopReason: "error",
		error,
		errorKind,
	};
}

/** How many recent requests keep what is needed to show their exact body. */
const KEPT_REQUESTS = 8;

/** A request kept in memory: its provider, the request as made, and what went out (once it was sent). */
export type KeptRequest = { provider: Provider; request: ModelRequest; sent?: SentRequest };

/** The last few requests, kept so their exact body can be computed on demand (never stored: O(context) each). */
export class RecentRequests {
	private readonly kept = new Map<string, KeptRequest>();

	keep(requestId: string, provider: Provider, request: ModelRequest): KeptRequest {
		const kept: KeptRequest = { provider, request };
		this.kept.set(requestId, kept);
		if (this.kept.size > KEPT_REQUESTS) {
			const oldest = this.kept.keys().next().value;
			if (oldest !== undefined) this.kept.delete(oldest);
		}
		return kept;
	}

	/** A kept request: the request as made and what was sent (undefined when unknown or no longer kept). */
	get(requestId: string): Readonly<KeptRequest> | undefined {
		return this.kept.get(requestId);
	}

	/** The exact body of a kept request; undefined when unknown or no longer kept. */
	body(requestId: string): unknown {
		const kept = this.kept.get(requestId);
		return kept?.provider.body?.(kept.request);
	}
}
