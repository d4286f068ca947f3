import { describeError } from "./errors.js";
import { createNodeFetch } from "./http-fetch.js";
import { MessageBuilder } from "./message-builder.js";
import { watchFetch } from "./retry.js";
import type { ModelRequest, Provider, StopReason, StreamEvent } from "./types.js";

/** An unbounded single-consumer queue: producers push, one async iterator drains (in batches, O(1) per item). */
export class Channel<T> implements AsyncIterable<T> {
	#items: T[] = [];
	#closed = false;
	#wake: (() => void) | undefined;

	push(item: T): void {
		if (this.#closed) return;
		this.#items.push(item);
		this.#wake?.();
	}

	close(): void {
		this.#closed = true;
		this.#wake?.();
	}

	async *[Symbol.asyncIterator](): AsyncGenerator<T> {
		for (;;) {
			if (this.#items.length > 0) {
				const batch = this.#items;
				this.#items = [];
				yield* batch;
				continue;
			}
			if (this.#closed) return;
			await new Promise<void>((resolve) => {
				this.#wake = resolve;
			});
			this.#wake = undefined;
		}
	}
}

/** Options shared by the real adapters. */
export type ProviderOptions = {
	apiKey?: string;
	baseURL?: string;
	/** SDK retries for failures before the stream starts (429, 5xx, 529, connection errors). Default 3. */
	maxRetries?: number;
	/** End the reply with an error when no bytes arrive for this long. Default 300,000 ms. */
	idleTimeoutMs?: number;
	/** Default: the lean node:http fetch (see http-fetch.ts). */
	fetch?: typeof fetch;
};

export const DEFAULT_MAX_RETRIES = 3;
export const DEFAULT_IDLE_TIMEOUT_MS = 300_000;

/** JSON Schema as sent to a provider: without the top-level `$schema`, which some servers reject. */
export function cleanSchema(schema: Record<string, unknown>): Record<string, unknown> {
	if (!("$schema" in schema)) return schema;
	const { $schema: _ignored, ...rest } = schema;
	return rest;
}

/** What `drive` needs besides the call itself. */
export type DriveOptions = {
	provider: string;
	model: string;
	maxRetries: number;
	idleTimeoutMs: number;
	fetch: typeof fetch;
	signal?: AbortSignal;
	/** Turns an SDK or network error into a message a person can act on (and that holds no secret). */
	describe(error: unknown, midStream: boolean): string;
};

/** What one provider call gets: the fetch to give the SDK, the signal to give it, and the reply builder. */
export type CallContext = { fetch: typeof fetch; signal: AbortSignal; builder: MessageBuilder };
export type CallOutcome = { stopReason: StopReason; error?: string };

function seconds(ms: number): string {
	return `${Number((ms / 1000).toFixed(1))} s`;
}

/**
 * Runs one provider call and yields its stream events; never throws. The call pushes deltas through the builder
 * and resolves with how the reply ended. A user abort or the idle timeout ends the stream at once (the request is
 * aborted behind it); a rejection becomes stopReason "error". SDK retries appear as `retry` events. The last event
 * is always `done` with what arrived so far.
 */
export async function* drive(
	options: DriveOptions,
	call: (ctx: CallContext) => Promise<CallOutcome>,
): AsyncGenerator<StreamEvent> {
	const queue = new Channel<StreamEvent>();
	const controller = new AbortController();
	const builder = new MessageBuilder(options.provider, options.model, (event) => queue.push(event));
	const userSignal = options.signal;
	let settled = false;
	let callDone = false;
	let idleTimer: NodeJS.Timeout | undefined;

	const settle = (stopReason: StopReason, error?: string) => {
		if (settled) return;
		settled = true;
		clearTimeout(idleTimer);
		userSignal?.removeEventListener("abort", onUserAbort);
		queue.push({ type: "done", message: builder.finish(stopReason, error) });
		queue.close();
	};
	const onUserAbort = () => {
		settle("aborted", "aborted");
		controller.abort();
	};
	const onIdle = () => {
		settle("error", `no data from the server for ${seconds(options.idleTimeoutMs)}; the request was abandoned`);
		controller.abort();
	};
	const touch = () => {
		if (settled) return;
		clearTimeout(idleTimer);
		idleTimer = setTimeout(onIdle, options.idleTimeoutMs);
	};

	queue.push({ type: "start" });
	if (userSignal?.aborted) {
		settle("aborted", "aborted");
	} else {
		userSignal?.addEventListener("abort", onUserAbort, { once: true });
		const fetch = watchFetch(options.fetch, {
			maxRetries: options.maxRetries,
			onRetry: (notice) => queue.push({ type: "retry", ...notice }),
			onActivity: touch,
			onWait: () => clearTimeout(idleTimer),
		});
		call({ fetch, signal: controller.signal, builder }).then(
			(outcome) => {
				callDone = true;
				settle(outcome.stopReason, outcome.error);
			},
			(error: unknown) => {
				callDone = true;
				if (!settled) settle("error", options.describe(error, builder.started));
			},
		);
	}
	try {
		yield* queue;
	} finally {
		// The consumer stopped early: end the request behind it.
		if (!settled) settle("aborted", "aborted");
		if (!callDone) controller.abort();
	}
}

/** What differs between the SDK adapters; everything else `sdkProvider` shares. */
export type AdapterSpec = {
	name: "anthropic" | "openai";
	/** The variable a missing key should be set in, for error messages. */
	keyEnv: string;
	/** How error messages name the API, e.g. "OpenAI-compatible API at http://localhost:11434/v1". */
	api: string;
};

/** The settings one SDK client is built with. */
export type ClientSettings = { apiKey: string | undefined; baseURL: string | undefined; maxRetries: number };

/**
 * A Provider around one SDK: resolves the key, retries, fetch and idle timeout once, refuses to call without a
 * key (unless a base URL points at a server that needs none), and runs each request through `drive`.
 */
export function sdkProvider(
	spec: AdapterSpec,
	options: ProviderOptions,
	call: (request: ModelRequest, client: ClientSettings, ctx: CallContext) => Promise<CallOutcome>,
): Provider {
	const settings: ClientSettings = {
		apiKey: options.apiKey ?? process.env[spec.keyEnv],
		baseURL: options.baseURL,
		maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
	};
	const baseFetch = options.fetch ?? createNodeFetch();
	const context = { api: spec.api, keyEnv: spec.keyEnv, secrets: [settings.apiKey] };
	const label = spec.name === "anthropic" ? "Anthropic" : "OpenAI";
	return {
		name: spec.name,
		stream(request: ModelRequest) {
			return drive(
				{
					provider: spec.name,
					model: request.model,
					maxRetries: settings.maxRetries,
					idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
					fetch: baseFetch,
					...(request.signal ? { signal: request.signal } : {}),
					describe: (error, midStream) => describeError(error, { ...context, midStream }),
				},
				async (ctx) => {
					if (!settings.apiKey && !settings.baseURL) {
						return {
							stopReason: "error",
							error: `No ${label} API key: set ${spec.keyEnv} or api_key in the config.`,
						};
					}
					return call(request, settings, ctx);
				},
			);
		},
	};
}
