import { sha256Hex } from "../text/digest.js";
import { maskKeys, maskValues, SECRET_MARKER } from "../text/secrets.js";
import { safeUrl } from "./errors.js";
import type { SentRequest } from "./types.js";

/** Headers whose whole value is a credential: shown as SECRET_MARKER, never in part. */
const AUTH_HEADERS = new Set([
	"authorization",
	"x-api-key",
	"api-key",
	"proxy-authorization",
	"cookie",
	"x-goog-api-key",
]);

/**
 * Where a model call says who waits for what it sends: a key of the SDK's per-request `fetchOptions`, which the SDKs
 * spread into the init they give fetch (symbols too), read by the fetch below. Not AsyncLocalStorage: on Node 20 its
 * first `run` turns on promise hooks for the rest of the process, and every promise of a streamed reply then cost
 * more (~25 ms of CPU in a 20,000-delta `gar -p`).
 */
export const ON_SENT: unique symbol = Symbol("gar.onSent");

/** The per-request `fetchOptions` that make the fetch of one SDK call report what it sent to `onSent`. */
export function sendingTo(onSent: ((sent: SentRequest) => void) | undefined): Record<symbol, unknown> {
	return onSent ? { [ON_SENT]: onSent } : {};
}

/** The header names and values of a fetch init, lower-cased, as the SDKs pass them (a Headers object or a record). */
function headerEntries(headers: unknown): [string, string][] {
	const out: [string, string][] = [];
	if (!headers) return out;
	if (typeof (headers as { forEach?: unknown }).forEach === "function") {
		(headers as { forEach(cb: (value: string, key: string) => void): void }).forEach((value, key) => {
			out.push([key.toLowerCase(), String(value)]);
		});
	} else if (Array.isArray(headers)) {
		for (const [key, value] of headers as [string, string][]) out.push([key.toLowerCase(), String(value)]);
	} else for (const [key, value] of Object.entries(headers)) out.push([key.toLowerCase(), String(value)]);
	return out;
}

/** A request's headers for a person to read: credentials replaced whole, known secrets and key shapes masked. */
export function maskHeaders(headers: unknown, secrets: readonly (string | undefined)[]): Record<string, string> {
	const out: Record<string, string> = {};
	// Names are lower-case ASCII: compared by code unit, since localeCompare's first call starts ICU's collator (~6 ms of
	// a `gar -p` start-up).
	for (const [key, value] of headerEntries(headers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
		out[key] = AUTH_HEADERS.has(key) ? SECRET_MARKER : maskKeys(maskValues(value, secrets), () => SECRET_MARKER);
	}
	return out;
}

/** The bytes of a request body as fetch sends them (the SDKs send a JSON string). */
function bodyBytes(body: unknown): Buffer | undefined {
	if (typeof body === "string") return Buffer.from(body, "utf8");
	if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
	return undefined;
}

/**
 * `fetch` that tells the model call it serves (see sendingTo) what went out: the URL without userinfo, the
 * headers masked, and the sha256 and size of the body's exact bytes. O(body) once per attempt, never per delta.
 */
export function capturingFetch(inner: typeof fetch, secrets: readonly (string | undefined)[]): typeof fetch {
	type Init = { method?: string; headers?: unknown; body?: unknown; [ON_SENT]?: (sent: SentRequest) => void };
	return ((input: string | URL | { url: string }, init?: Init) => {
		const onSent = init?.[ON_SENT];
		if (onSent) {
			const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
			const bytes = bodyBytes(init?.body);
			onSent({
				method: init?.method ?? "GET",
				url: safeUrl(url),
				headers: maskHeaders(init?.headers, secrets),
				bodySha256: bytes ? sha256Hex(bytes) : null,
				bodyBytes: bytes?.length ?? 0,
			});
		}
		return inner(input as Parameters<typeof fetch>[0], init as RequestInit);
	}) as typeof fetch;
}
