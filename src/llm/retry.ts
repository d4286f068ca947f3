import type { HeaderReader } from "./errors.js";

/** gar's one retry policy for both wires (the SDKs are built with maxRetries 0). */
export type RetryPolicy = {
	/** Retries after the first attempt. Default 3. */
	maxRetries: number;
	/** First backoff; it doubles each attempt up to `maxDelayMs`. */
	baseDelayMs: number;
	/** The longest gar waits, whatever the server asks for. */
	maxDelayMs: number;
	/** A number in [0, 1): the jitter source (injected by tests). */
	random(): number;
};

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 3, baseDelayMs: 1000, maxDelayMs: 60_000, random: Math.random };
const MAX_BACKOFF_MS = 16_000;

/** The wait the server asks for: `retry-after-ms`, else `retry-after` in seconds or as an HTTP date; else undefined. */
export function serverDelayMs(headers: HeaderReader | undefined, now = Date.now()): number | undefined {
	const ms = Number.parseFloat(headers?.get("retry-after-ms") ?? "");
	if (Number.isFinite(ms) && ms >= 0) return ms;
	const after = headers?.get("retry-after")?.trim();
	if (!after) return undefined;
	if (/^\d+(\.\d+)?$/.test(after)) return Number.parseFloat(after) * 1000;
	const date = Date.parse(after);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * How long to wait before retry number `attempt` (1-based): the server's wish when it states one, else
 * exponential backoff (base × 2^(attempt-1), at most 16 s) less up to 25 % jitter; never over `maxDelayMs`.
 */
export function retryDelayMs(attempt: number, headers: HeaderReader | undefined, policy: RetryPolicy): number {
	const asked = serverDelayMs(headers);
	if (asked !== undefined) return Math.round(Math.min(asked, policy.maxDelayMs));
	const backoff = Math.min(policy.baseDelayMs * 2 ** (attempt - 1), MAX_BACKOFF_MS);
	return Math.round(Math.min(backoff * (1 - 0.25 * policy.random()), policy.maxDelayMs));
}

/** Resolves after `ms`, or at once when `signal` aborts (never rejects). */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
	return new Promise((resolve) => {
		if (signal.aborted) return resolve();
		const done = () => {
			clearTimeout(timer);
			signal.removeEventListener("abort", done);
			resolve();
		};
		const timer = setTimeout(done, ms);
		signal.addEventListener("abort", done, { once: true });
	});
}
