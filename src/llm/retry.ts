import { STATUS_CODES } from "node:http";

/** A retry the SDK is about to make, as the `retry` stream event reports it. */
export type RetryNotice = { attempt: number; reason: string; delayMs: number };

export type WatchHooks = {
	/** The `maxRetries` the SDK client was given. */
	maxRetries: number;
	/** Called when a failed attempt will be retried by the SDK. */
	onRetry(notice: RetryNotice): void;
	/** Called when bytes move: a request starts, headers arrive, a body chunk arrives. */
	onActivity(): void;
	/** Called when an attempt fails and the SDK waits before the next one (no bytes are expected meanwhile). */
	onWait(): void;
};

const REASONS: Record<number, string> = {
	408: "request timeout",
	409: "conflict",
	429: "rate limited",
	500: "server error",
	502: "bad gateway",
	503: "service unavailable",
	504: "gateway timeout",
	529: "overloaded",
};

/** "HTTP 529 overloaded" and the like. */
export function describeStatus(status: number): string {
	const words = REASONS[status] ?? STATUS_CODES[status]?.toLowerCase();
	return words ? `HTTP ${status} ${words}` : `HTTP ${status}`;
}

/** Mirrors the Stainless SDKs' retry rule: x-should-retry wins, then 408, 409, 429 and 5xx. */
export function sdkWillRetryStatus(status: number, shouldRetryHeader: string | null): boolean {
	if (shouldRetryHeader === "true") return true;
	if (shouldRetryHeader === "false") return false;
	return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * The delay the SDKs will wait: `retry-after-ms`, then `retry-after` (seconds or a date), else their default
 * backoff of 0.5 s doubling up to 8 s (reported without the SDK's random jitter of up to -25 %).
 */
export function sdkRetryDelayMs(retryCount: number, headers?: { get(name: string): string | null }): number {
	const ms = Number.parseFloat(headers?.get("retry-after-ms") ?? "");
	if (ms > 0 && ms <= 2 ** 31 - 1) return ms;
	const after = headers?.get("retry-after");
	if (after) {
		const seconds = Number.parseFloat(after);
		const delay = Number.isNaN(seconds) ? Date.parse(after) - Date.now() : seconds * 1000;
		if (delay > 0 && delay <= 2 ** 31 - 1) return delay;
	}
	return Math.min(500 * 2 ** retryCount, 8000);
}

function headerOf(headers: unknown, name: string): string | null {
	if (!headers || typeof headers !== "object") return null;
	if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name);
	if (Array.isArray(headers)) {
		const hit = headers.find(([key]) => String(key).toLowerCase() === name);
		return hit ? String(hit[1]) : null;
	}
	for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return String(value);
	return null;
}

function errorReason(error: unknown): string {
	let cause: unknown = error;
	for (let depth = 0; cause && depth < 4; depth++) {
		const code = (cause as { code?: unknown }).code;
		if (typeof code === "string") return `connection error (${code})`;
		cause = (cause as { cause?: unknown }).cause;
	}
	return "connection error";
}

async function* observe(body: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>, onChunk: () => void) {
	if (Symbol.asyncIterator in body) {
		for await (const chunk of body as AsyncIterable<Uint8Array>) {
			onChunk();
			yield chunk;
		}
		return;
	}
	const reader = (body as ReadableStream<Uint8Array>).getReader();
	try {
		for (;;) {
			const { done, value } = await reader.read();
			if (done) return;
			onChunk();
			yield value;
		}
	} finally {
		reader.releaseLock();
	}
}

/**
 * Wraps the fetch given to an SDK so that each attempt is seen: a failure the SDK will retry becomes a
 * `RetryNotice` (the attempt number comes from the SDKs' `x-stainless-retry-count` header), and every byte of
 * progress reports activity, for the idle timeout. A successful response's body is passed through unchanged
 * except that reading it reports activity.
 */
export function watchFetch(base: typeof fetch, hooks: WatchHooks): typeof fetch {
	const watched = async (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> => {
		const retryCount = Number.parseInt(headerOf(init?.headers, "x-stainless-retry-count") ?? "0", 10) || 0;
		const willRetry = retryCount < hooks.maxRetries;
		hooks.onActivity();
		let response: Response;
		try {
			response = await base(input, init);
		} catch (error) {
			hooks.onWait();
			if (willRetry && !init?.signal?.aborted) {
				hooks.onRetry({ attempt: retryCount + 1, reason: errorReason(error), delayMs: sdkRetryDelayMs(retryCount) });
			}
			throw error;
		}
		if (!response.ok) {
			hooks.onWait();
			if (willRetry && sdkWillRetryStatus(response.status, response.headers.get("x-should-retry"))) {
				const delayMs = sdkRetryDelayMs(retryCount, response.headers);
				hooks.onRetry({ attempt: retryCount + 1, reason: describeStatus(response.status), delayMs });
			}
			return response;
		}
		hooks.onActivity();
		const body = response.body;
		if (!body) return response;
		const observed = observe(body, hooks.onActivity);
		// A view of the response whose body reports progress; everything else reads through to the original.
		return new Proxy(response, {
			get(target, prop) {
				if (prop === "body") return observed;
				const value: unknown = Reflect.get(target, prop, target);
				return typeof value === "function" ? value.bind(target) : value;
			},
		});
	};
	return watched as typeof fetch;
}
