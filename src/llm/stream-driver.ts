import { AsyncQueue } from "./async-queue.js";
import { classifyError, describeError, isRetryable, partsOf, retryReason, safeUrl, userinfoOf } from "./errors.js";
import { createNodeFetch } from "./http-fetch.js";
import { MessageBuilder } from "./message-builder.js";
import { abortableSleep, DEFAULT_RETRY, type RetryPolicy, retryDelayMs } from "./retry.js";
import { capturingFetch, sendingTo } from "./sent-capture.js";
import { type Body, type CallOutcome, readSse, type SseDecoder } from "./sse.js";
import type { ErrorKind, ModelRequest, Provider, SentRequest, StopReason, StreamEvent } from "./types.js";

export { cleanSchema } from "./schema.js";
export type { CallOutcome, SseDecoder } from "./sse.js";

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

/** The part of a fetch Response `drive` reads. */
export type RawResponse = { body: Body | null; headers: { get(name: string): string | null }; text(): Promise<string> };

/** One model call as an adapter prepares it: how to send it, and how to read its reply. */
export type WireCall = {
	/**
	 * Sends the request through the SDK (built with maxRetries 0); resolves with the raw response (2xx only).
	 * `fetchOptions` go in the SDK call's request options (they tell the fetch who waits for what it sends).
	 */
	open(signal: AbortSignal, fetchOptions: Record<symbol, unknown>): Promise<RawResponse>;
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
	/** Told what each attempt sent (the model request's `onSent`). */
	onSent?: (sent: SentRequest) => void;
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
	const call = new DrivenCall(options, prepare);
	return {
		[Symbol.asyncIterator]() {
			// Lazy, like a generator: nothing is sent until someone iterates.
			call.start();
			return call.queue[Symbol.asyncIterator]();
		},
	};
}

/** The idle timeout: armed while bytes are expected, re-armed by each chunk, stopped for good when the call ends. */
class IdleTimer {
	#timer: NodeJS.Timeout | undefined;
	#stopped = false;

	constructor(
		private readonly ms: number,
		private readonly onIdle: () => void,
	) {}

	/** Bytes are expected from now (a request went out, a chunk came); refresh() is cheaper than a new timer. */
	readonly touch = (): void => {
		if (this.#stopped) return;
		if (this.#timer) this.#timer.refresh();
		else this.#timer = setTimeout(this.onIdle, this.ms);
	};

	/** No bytes are expected for a while (gar waits to retry). */
	pause(): void {
		clearTimeout(this.#timer);
		this.#timer = undefined;
	}

	stop(): void {
		this.#stopped = true;
		clearTimeout(this.#timer);
	}
}

/**
 * One call as `drive` runs it, in three steps: open the request (with retries), read its reply (under the idle
 * timeout), and settle exactly once, whatever happened (the never-throw rule: the last event is always `done`).
 */
class DrivenCall {
	/** The events the consumer reads; a consumer that stops early ends the request behind it. */
	readonly queue = new AsyncQueue<StreamEvent>(() => {
		if (!this.#settled) this.#settle("aborted", "aborted", "aborted");
		if (!this.#callDone) this.#controller.abort();
	});
	readonly #controller = new AbortController();
	readonly #builder: MessageBuilder;
	readonly #idle: IdleTimer;
	#started = false;
	#settled = false;
	#callDone = false;
	#decoder: SseDecoder | undefined;

	constructor(
		private readonly options: DriveOptions,
		private readonly prepare: () => WireCall | CallOutcome,
	) {
		this.#builder = new MessageBuilder(options.provider, options.model, (event) => this.queue.push(event));
		this.#idle = new IdleTimer(options.idleTimeoutMs, () => this.#onIdle());
	}

	/** Starts the call once; a signal already aborted ends it before anything is sent. */
	start(): void {
		if (this.#started) return;
		this.#started = true;
		this.queue.push({ type: "start" });
		const signal = this.options.signal;
		if (signal?.aborted) {
			this.#settle("aborted", "aborted", "aborted");
			return;
		}
		signal?.addEventListener("abort", this.#onUserAbort, { once: true });
		this.#run().then(
			(outcome) => {
				this.#callDone = true;
				if (outcome) this.#settleWith(outcome);
			},
			(error: unknown) => {
				this.#callDone = true;
				this.#crashed(error);
			},
		);
	}

	/** The request, opened then read; undefined when the call settled meanwhile (an abort, the idle timeout). */
	async #run(): Promise<CallOutcome | undefined> {
		const call = this.prepare();
		if (!("open" in call)) return call;
		const opened = await this.#open(call);
		if (opened === undefined || "stopReason" in opened) return opened;
		return this.#read(call, opened);
	}

	/** Opens the request, retrying failures before the reply starts: a `retry` event, then an abortable wait. */
	async #open(call: WireCall): Promise<RawResponse | CallOutcome | undefined> {
		const { retry } = this.options;
		for (let attempt = 0; ; attempt++) {
			this.#idle.touch();
			try {
				return await call.open(this.#controller.signal, sendingTo(this.options.onSent));
			} catch (error) {
				if (this.#settled) return undefined;
				// open() failing without an HTTP status means no reply came: a connection failure.
				const classified = classifyError(error);
				const kind = classified === "other" ? "network" : classified;
				if (attempt >= retry.maxRetries || !isRetryable(kind)) {
					return { stopReason: "error", error: this.options.describe(error, false), errorKind: kind };
				}
				const parts = partsOf(error);
				const delayMs = retryDelayMs(attempt + 1, parts.headers, retry);
				this.#idle.pause(); // no bytes are expected while gar waits
				const reason = retryReason(parts);
				const maxAttempts = retry.maxRetries;
				this.queue.push({ type: "retry", attempt: attempt + 1, maxAttempts, reason, delayMs, errorKind: kind });
				await abortableSleep(delayMs, this.#controller.signal);
				if (this.#settled) return undefined;
			}
		}
	}

	/** Reads the reply: its SSE body chunk by chunk (each re-arms the idle timer), or a JSON error. */
	async #read(call: WireCall, response: RawResponse): Promise<CallOutcome> {
		this.#idle.touch();
		// Some servers answer a failed streaming request with 200 and a JSON error (LM Studio on overflow).
		if (/json/i.test(response.headers.get("content-type") ?? "")) return this.#jsonReply(await response.text());
		this.#decoder = call.decoder(this.#builder, this.#fail);
		if (!response.body) return this.#decoder.end();
		return readSse(response.body, this.#decoder, this.#idle.touch);
	}

	/** An error payload inside the stream (or a JSON reply) as the call's outcome. */
	readonly #fail = (payload: unknown): CallOutcome => {
		const kind = classifyError(payload);
		return {
			stopReason: "error",
			error: this.options.describe(payload, true),
			errorKind: kind === "other" ? "server" : kind,
		};
	};

	#jsonReply(text: string): CallOutcome {
		let payload: unknown;
		try {
			payload = JSON.parse(text);
		} catch {
			payload = undefined;
		}
		const error = (payload as { error?: unknown } | undefined)?.error;
		if (error) return this.#fail(payload);
		return this.#fail({ error: { message: `expected an event stream, got JSON: ${text.slice(0, 200)}` } });
	}

	/** Never throw: whatever the request threw becomes the reply's end. */
	#crashed(error: unknown): void {
		if (this.#settled) return;
		// A connection dropped after the reply's end arrived loses nothing: the reply is complete.
		if (this.#decoder?.complete && !(error instanceof SyntaxError)) {
			this.#settleWith(this.#decoder.end());
			return;
		}
		// After the first byte nothing is retried; the error's kind still says what happened.
		const kind = classifyError(error);
		const broken = kind === "other" && !(error instanceof SyntaxError);
		this.#settle("error", this.options.describe(error, this.#builder.started), broken ? "network" : kind);
	}

	readonly #onUserAbort = (): void => {
		this.#settle("aborted", "aborted", "aborted");
		this.#controller.abort();
	};

	#onIdle(): void {
		// A reply whose end already arrived is complete even if the server never closes the body.
		if (this.#decoder?.complete) this.#settleWith(this.#decoder.end());
		else this.#settle("error", idleMessage(this.options.idleTimeoutMs), "timeout");
		this.#controller.abort();
	}

	#settleWith(outcome: CallOutcome): void {
		this.#settle(outcome.stopReason, outcome.error, outcome.errorKind);
	}

	/** The one way the stream ends: the final message as `done`, then the queue closes. Once only. */
	#settle(stopReason: StopReason, error?: string, errorKind?: ErrorKind): void {
		if (this.#settled) return;
		this.#settled = true;
		this.#idle.stop();
		this.options.signal?.removeEventListener("abort", this.#onUserAbort);
		this.queue.push({ type: "done", message: this.#builder.finish(stopReason, error, errorKind) });
		this.queue.close();
	}
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
	const apiKey = options.apiKey ?? process.env[spec.keyEnv];
	const secrets = [apiKey, ...userinfoOf(options.baseURL)];
	const settings: ClientSettings = {
		apiKey,
		baseURL: options.baseURL,
		// Tells each call what it sent (the request viewer, the session's hash of the body).
		fetch: capturingFetch(options.fetch ?? createNodeFetch(), secrets),
	};
	const retry: RetryPolicy = {
		...DEFAULT_RETRY,
		...options.retry,
		maxRetries: options.maxRetries ?? options.retry?.maxRetries ?? DEFAULT_RETRY.maxRetries,
	};
	const context = { api: spec.api, keyEnv: spec.keyEnv, secrets };
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
					...(request.onSent ? { onSent: request.onSent } : {}),
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
