import { classifyError, describeError, isRetryable, partsOf, retryReason, safeUrl, userinfoOf } from "./errors.js";
import { createNodeFetch } from "./http-fetch.js";
import { MessageBuilder } from "./message-builder.js";
import { abortableSleep, DEFAULT_RETRY, type RetryPolicy, retryDelayMs } from "./retry.js";
import { type Body, type CallOutcome, readSse, type SseDecoder } from "./sse.js";
import type { ErrorKind, ModelRequest, Provider, StopReason, StreamEvent } from "./types.js";

export type { CallOutcome, SseDecoder } from "./sse.js";

/**
 * An unbounded single-consumer queue: producers push, one async iterator drains it. Hand-written rather than an
 * async generator: a buffered item costs one resolved promise, not a generator round trip (this is the per-delta
 * hot path). `onReturn` runs when the consumer stops early (break, throw).
 */
export class Channel<T> implements AsyncIterable<T> {
	#items: T[] = [];
	#head = 0;
	#closed = false;
	#wake: ((result: IteratorResult<T>) => void) | undefined;

	constructor(private readonly onReturn?: () => void) {}

	push(item: T): void {
		if (this.#closed) return;
		const wake = this.#wake;
		if (wake) {
			this.#wake = undefined;
			wake({ value: item, done: false });
		} else this.#items.push(item);
	}

	close(): void {
		this.#closed = true;
		const wake = this.#wake;
		this.#wake = undefined;
		wake?.({ value: undefined, done: true });
	}

	#next(): Promise<IteratorResult<T>> {
		if (this.#head < this.#items.length) {
			const value = this.#items[this.#head++] as T;
			if (this.#head === this.#items.length) {
				this.#items = [];
				this.#head = 0;
			}
			return Promise.resolve({ value, done: false });
		}
		if (this.#closed) return Promise.resolve({ value: undefined, done: true });
		return new Promise((resolve) => {
			this.#wake = resolve;
		});
	}

	[Symbol.asyncIterator](): AsyncIterator<T> {
		return {
			next: () => this.#next(),
			return: async () => {
				this.onReturn?.();
				return { value: undefined, done: true };
			},
		};
	}
}

/** Options shared by the real adapters. */
export type ProviderOptions = {
	apiKey?: string;
	baseURL?: string;
	/** gar's retries for failures before the reply starts (429, 5xx, 529, connection errors). Default 3. */
	maxRetries?: number;
	/** End the reply with an error when no bytes arrive for this long. Default 300,000 ms. */
	idleTimeoutMs?: number;
	/** Default: the lean node:http fetch (see http-fetch.ts), through a proxy when the environment names one. */
	fetch?: typeof fetch;
	/** OpenAI-compatible wire: split a leading `<think>…</think>` out of the content as thinking. Default true. */
	thinkTags?: boolean;
	/** Backoff and jitter (tests inject a fixed random); `maxRetries` above wins over its maxRetries. */
	retry?: Partial<RetryPolicy>;
};

export const DEFAULT_MAX_RETRIES = DEFAULT_RETRY.maxRetries;
export const DEFAULT_IDLE_TIMEOUT_MS = 300_000;

/** JSON Schema as sent to a provider: without the top-level `$schema`, which some servers reject. */
export function cleanSchema(schema: Record<string, unknown>): Record<string, unknown> {
	if (!("$schema" in schema)) return schema;
	const { $schema: _ignored, ...rest } = schema;
	return rest;
}

/** The part of a fetch Response `drive` reads. */
export type RawResponse = { body: Body | null; headers: { get(name: string): string | null }; text(): Promise<string> };

/** One model call as an adapter prepares it: how to send it, and how to read its reply. */
export type WireCall = {
	/** Sends the request through the SDK (built with maxRetries 0); resolves with the raw response (2xx only). */
	open(signal: AbortSignal): Promise<RawResponse>;
	/** `fail` turns an error payload inside the stream into the outcome (message and kind). */
	decoder(builder: MessageBuilder, fail: (payload: unknown) => CallOutcome): SseDecoder;
};

/** What `drive` needs besides the call itself. */
export type DriveOptions = {
	provider: string;
	model: string;
	retry: RetryPolicy;
	idleTimeoutMs: number;
	signal?: AbortSignal;
	/** Turns an SDK or network error into a message a person can act on (and that holds no secret). */
	describe(error: unknown, midStream: boolean): string;
};

function seconds(ms: number): string {
	return `${Number((ms / 1000).toFixed(1))} s`;
}

/** The idle-timeout message names every way to raise the limit. */
export function idleMessage(ms: number): string {
	return (
		`no data from the server for ${seconds(ms)}; the request was abandoned ` +
		"(raise the limit with --idle-timeout SECONDS, GAR_IDLE_TIMEOUT or idle_timeout in the config)"
	);
}

/**
 * Runs one model call and yields its stream events; never throws. gar retries failures before the reply starts
 * (one `retry` event each, before an abortable wait); a failure after the first byte keeps the partial reply. A
 * user abort or the idle timeout ends the stream at once (the request is aborted behind it). The last event is
 * always `done` with what arrived so far.
 */
export function drive(options: DriveOptions, prepare: () => WireCall | CallOutcome): AsyncIterable<StreamEvent> {
	const controller = new AbortController();
	const builder = new MessageBuilder(options.provider, options.model, (event) => queue.push(event));
	const userSignal = options.signal;
	let settled = false;
	let callDone = false;
	let idleTimer: NodeJS.Timeout | undefined;
	let decoder: SseDecoder | undefined;
	// The consumer stopped early: end the request behind it.
	const queue = new Channel<StreamEvent>(() => {
		if (!settled) settle("aborted", "aborted", "aborted");
		if (!callDone) controller.abort();
	});

	const settle = (stopReason: StopReason, error?: string, errorKind?: ErrorKind) => {
		if (settled) return;
		settled = true;
		clearTimeout(idleTimer);
		userSignal?.removeEventListener("abort", onUserAbort);
		queue.push({ type: "done", message: builder.finish(stopReason, error, errorKind) });
		queue.close();
	};
	const onUserAbort = () => {
		settle("aborted", "aborted", "aborted");
		controller.abort();
	};
	const onIdle = () => {
		// A reply whose end already arrived is complete even if the server never closes the body.
		if (decoder?.complete) {
			const outcome = decoder.end();
			settle(outcome.stopReason, outcome.error, outcome.errorKind);
		} else settle("error", idleMessage(options.idleTimeoutMs), "timeout");
		controller.abort();
	};
	const touch = () => {
		if (settled) return;
		// refresh() re-arms the same timer: cheaper than a new one per chunk.
		if (idleTimer) idleTimer.refresh();
		else idleTimer = setTimeout(onIdle, options.idleTimeoutMs);
	};
	const pause = () => {
		clearTimeout(idleTimer);
		idleTimer = undefined;
	};

	const fail = (payload: unknown): CallOutcome => {
		const kind = classifyError(payload);
		return {
			stopReason: "error",
			error: options.describe(payload, true),
			errorKind: kind === "other" ? "server" : kind,
		};
	};

	const jsonReply = (text: string): CallOutcome => {
		let payload: unknown;
		try {
			payload = JSON.parse(text);
		} catch {
			payload = undefined;
		}
		const error = (payload as { error?: unknown } | undefined)?.error;
		if (error) return fail(payload);
		return fail({ error: { message: `expected an event stream, got JSON: ${text.slice(0, 200)}` } });
	};

	const run = async (): Promise<CallOutcome | undefined> => {
		const call = prepare();
		if (!("open" in call)) return call;
		const { maxRetries } = options.retry;
		for (let attempt = 0; ; attempt++) {
			touch();
			let response: RawResponse;
			try {
				response = await call.open(controller.signal);
			} catch (error) {
				if (settled) return undefined;
				// open() failing without an HTTP status means no reply came: a connection failure.
				const classified = classifyError(error);
				const kind = classified === "other" ? "network" : classified;
				if (attempt >= maxRetries || !isRetryable(kind)) {
					return { stopReason: "error", error: options.describe(error, false), errorKind: kind };
				}
				const parts = partsOf(error);
				const delayMs = retryDelayMs(attempt + 1, parts.headers, options.retry);
				pause(); // no bytes are expected while gar waits
				const reason = retryReason(parts);
				queue.push({ type: "retry", attempt: attempt + 1, maxAttempts: maxRetries, reason, delayMs, errorKind: kind });
				await abortableSleep(delayMs, controller.signal);
				if (settled) return undefined;
				continue;
			}
			touch();
			// Some servers answer a failed streaming request with 200 and a JSON error (LM Studio on overflow).
			if (/json/i.test(response.headers.get("content-type") ?? "")) return jsonReply(await response.text());
			decoder = call.decoder(builder, fail);
			if (!response.body) return decoder.end();
			return readSse(response.body, decoder, touch);
		}
	};

	const start = () => {
		queue.push({ type: "start" });
		if (userSignal?.aborted) {
			settle("aborted", "aborted", "aborted");
		} else {
			userSignal?.addEventListener("abort", onUserAbort, { once: true });
			run().then(
				(outcome) => {
					callDone = true;
					if (outcome) settle(outcome.stopReason, outcome.error, outcome.errorKind);
				},
				(error: unknown) => {
					callDone = true;
					if (settled) return;
					// A connection dropped after the reply's end arrived loses nothing: the reply is complete.
					if (decoder?.complete && !(error instanceof SyntaxError)) {
						const outcome = decoder.end();
						settle(outcome.stopReason, outcome.error, outcome.errorKind);
						return;
					}
					// After the first byte nothing is retried; the error's kind still says what happened.
					const kind = classifyError(error);
					const broken = kind === "other" && !(error instanceof SyntaxError);
					settle("error", options.describe(error, builder.started), broken ? "network" : kind);
				},
			);
		}
	};
	let started = false;
	return {
		[Symbol.asyncIterator]() {
			// Lazy, like a generator: nothing is sent until someone iterates.
			if (!started) {
				started = true;
				start();
			}
			return queue[Symbol.asyncIterator]();
		},
	};
}

/** What differs between the SDK adapters; everything else `sdkProvider` shares. */
export type AdapterSpec = {
	name: "anthropic" | "openai";
	/** The variable a missing key should be set in, for error messages. */
	keyEnv: string;
	/** How error messages name the API, e.g. "OpenAI-compatible API at http://localhost:11434/v1" (no userinfo). */
	api: string;
};

/** The settings one SDK client is built with (gar retries, so the SDK never does). */
export type ClientSettings = { apiKey: string | undefined; baseURL: string | undefined; fetch: typeof fetch };

/** "OpenAI-compatible API at https://host/v1" for a base URL, with any userinfo removed. */
export function apiLabel(name: string, baseURL: string | undefined, defaultBaseURL?: string): string {
	return baseURL && baseURL !== defaultBaseURL ? `${name} at ${safeUrl(baseURL)}` : name;
}

/**
 * A Provider around one SDK: resolves the key, retry policy, fetch and idle timeout once, refuses to call without
 * a key (unless a base URL points at a server that needs none), and runs each request through `drive`.
 */
export function sdkProvider(
	spec: AdapterSpec,
	options: ProviderOptions,
	prepare: (request: ModelRequest, client: ClientSettings) => WireCall,
	body: (request: ModelRequest) => unknown,
): Provider {
	const settings: ClientSettings = {
		apiKey: options.apiKey ?? process.env[spec.keyEnv],
		baseURL: options.baseURL,
		fetch: options.fetch ?? createNodeFetch(),
	};
	const retry: RetryPolicy = {
		...DEFAULT_RETRY,
		...options.retry,
		maxRetries: options.maxRetries ?? options.retry?.maxRetries ?? DEFAULT_RETRY.maxRetries,
	};
	const context = { api: spec.api, keyEnv: spec.keyEnv, secrets: [settings.apiKey, ...userinfoOf(settings.baseURL)] };
	const label = spec.name === "anthropic" ? "Anthropic" : "OpenAI";
	return {
		name: spec.name,
		stream(request: ModelRequest) {
			return drive(
				{
					provider: spec.name,
					model: request.model,
					retry,
					idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
					...(request.signal ? { signal: request.signal } : {}),
					describe: (error, midStream) => describeError(error, { ...context, midStream }),
				},
				() => {
					if (!settings.apiKey && !settings.baseURL) {
						const error = `No ${label} API key: set ${spec.keyEnv} or api_key in the config.`;
						return { stopReason: "error", error, errorKind: "auth" };
					}
					return prepare(request, settings);
				},
			);
		},
		body(request: ModelRequest) {
			try {
				return body(request);
			} catch {
				return undefined;
			}
		},
	};
}
