import { STATUS_CODES } from "node:http";
import { maskKeys, maskValues, SECRET_MARKER } from "../text/secrets.js";
import type { ErrorKind } from "./types.js";

/** What a person should check after an HTTP error, by status. */
function hintFor(status: number, keyEnv: string, kind: ErrorKind): string | undefined {
	if (kind === "overflow") return "the conversation is longer than the model's context; compact it or start anew";
	if (status === 401) return `check ${keyEnv}`;
	if (status === 403) return `check that ${keyEnv} may use this model`;
	if (status === 404) return "check the model name and the base URL";
	if (status === 413) return "the request is too large; compact the conversation";
	if (status === 429) return "rate limited; wait a moment and try again";
	if (status === 529) return "the API is overloaded; try again later";
	if (status >= 500) return "the server failed; try again";
	return undefined;
}

/** The parts of a provider error that classification and messages use. */
export type ErrorParts = {
	status?: number;
	type?: string;
	message?: string;
	code?: string;
	headers?: HeaderReader;
	/** The innermost cause's message, when it says more than the SDK's generic "Connection error.". */
	cause?: string;
};
export type HeaderReader = { get(name: string): string | null };

/** Pulls status, error type, message, network code and headers out of an SDK error or an SSE error payload. */
export function partsOf(error: unknown): ErrorParts {
	if (!error || typeof error !== "object") return { message: String(error) };
	const e = error as Record<string, unknown>;
	const parts: ErrorParts = {};
	if (typeof e.status === "number") parts.status = e.status;
	const headers = e.headers as HeaderReader | undefined;
	if (headers && typeof headers.get === "function") parts.headers = headers;
	// Anthropic: error = {type: "error", error: {type, message}}; OpenAI: error = {message, type, code}.
	const body = e.error as Record<string, unknown> | undefined;
	const inner = (body?.error && typeof body.error === "object" ? body.error : body) as
		| Record<string, unknown>
		| undefined;
	const type = inner?.type ?? inner?.code;
	if (typeof type === "string" && type !== "error") parts.type = type;
	// OpenAI puts the precise reason in `code` ("context_length_exceeded") next to a broad type.
	if (typeof inner?.code === "string" && inner.code !== parts.type) parts.type = `${parts.type ?? ""}/${inner.code}`;
	// Errors inside a stream carry the HTTP status in the body (OpenRouter `code`, Groq `status_code`).
	const bodyStatus = typeof inner?.code === "number" ? inner.code : inner?.status_code;
	if (parts.status === undefined && typeof bodyStatus === "number") parts.status = bodyStatus;
	if (typeof inner?.message === "string") parts.message = inner.message;
	// Ollama and LM Studio: {"error": "the input length exceeds the context length"}, as an SDK error's body or as
	// the payload itself.
	else if (typeof body?.error === "string") parts.message = body.error;
	else if (typeof e.error === "string") parts.message = e.error;
	let cause: unknown = error;
	for (let depth = 0; cause && typeof cause === "object" && depth < 5; depth++) {
		const code = (cause as { code?: unknown }).code;
		if (typeof code === "string" && /^[A-Z][A-Z_]+$/.test(code)) {
			parts.code = code;
			break;
		}
		cause = (cause as { cause?: unknown }).cause;
	}
	if (!parts.message && typeof e.message === "string") parts.message = e.message;
	let nested: unknown = e.cause;
	for (let depth = 0; nested && typeof nested === "object" && depth < 5; depth++) {
		const message = (nested as { message?: unknown }).message;
		if (typeof message === "string" && message && message !== parts.message) parts.cause = message;
		nested = (nested as { cause?: unknown }).cause;
	}
	return parts;
}

/**
 * Context-overflow wordings, by server. Sources: Anthropic "prompt is too long: N tokens > M maximum"
 * (invalid_request_error); OpenAI code `context_length_exceeded` and vLLM "This model's maximum context length is N
 * tokens" (vllm-project/vllm#20409); llama.cpp type `exceed_context_size_error`, "the request exceeds the available
 * context size" (ggml-org/llama.cpp#15780, #17284); LM Studio "Trying to keep the first N tokens when context the
 * overflows", "The number of tokens to keep from the initial prompt is greater than the context length" and
 * "Reached context length of N tokens" (lmstudio-ai/lmstudio-bug-tracker#237, #2205, #1024), llama.cpp via LM Studio
 * "Cannot truncate prompt with n_keep (N) >= n_ctx (M)" (anomalyco/opencode#11141); Ollama with truncate:false
 * "the input length exceeds the context length" (ollama/ollama#17944 and user reports).
 */
const OVERFLOW =
	/prompt is too long|context_length_exceeded|exceed_context_size_error|maximum context length|exceeds the available context size|context the overflows|greater than the context length|reached context length|cannot truncate prompt with n_keep|input length exceeds the context length/i;

const NETWORK_CODES = /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/;

/** The error's class name: the SDKs' errors do not set `name`, so their constructor's name says what they are. */
function className(error: unknown): string | undefined {
	if (!error || typeof error !== "object") return undefined;
	const name = (error as { name?: unknown }).name;
	if (typeof name === "string" && name !== "Error") return name;
	return (error as { constructor?: { name?: string } }).constructor?.name;
}

function isAbort(error: unknown): boolean {
	const name = className(error);
	return name === "AbortError" || name === "APIUserAbortError";
}

/**
 * Classifies a provider failure where it is in hand: status, the error body's type/code, the usual wordings
 * (overflow first, since llama.cpp reports it as a 500), then connection codes. Pure.
 */
export function classifyError(error: unknown): ErrorKind {
	if (isAbort(error)) return "aborted";
	return classifyParts(partsOf(error), error);
}

/** `classifyError` over already extracted parts (`error` only helps recognise connection failures). */
export function classifyParts(parts: ErrorParts, error?: unknown): ErrorKind {
	const { status, type = "", message = "" } = parts;
	if (OVERFLOW.test(type) || OVERFLOW.test(message)) return "overflow";
	if (status === 401 || status === 403 || /authentication_error|permission_error/.test(type)) return "auth";
	if (status === 429 || /rate_limit/.test(type)) return "rate_limit";
	if (status === 529 || /overloaded/.test(type)) return "overloaded";
	if (status !== undefined && status >= 500) return "server";
	if (status !== undefined && status >= 400) return "invalid_request";
	if (/invalid_request/.test(type)) return "invalid_request";
	if (/api_error|server_error|internal/.test(type)) return "server";
	const name = className(error);
	if (name === "APIConnectionTimeoutError") return "timeout";
	if ((parts.code && NETWORK_CODES.test(parts.code)) || name === "APIConnectionError") return "network";
	return "other";
}

/** Whether gar retries a failure of this kind before the reply started: 429, 5xx, 529 and connection errors. */
export function isRetryable(kind: ErrorKind): boolean {
	return kind === "rate_limit" || kind === "overloaded" || kind === "server" || kind === "network";
}

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

/** A short reason for a retry event: "HTTP 529 overloaded", "connection error (ECONNREFUSED)". */
export function retryReason(parts: ErrorParts): string {
	if (parts.status !== undefined) return describeStatus(parts.status);
	if (parts.type) return parts.type;
	return parts.code ? `connection error (${parts.code})` : "connection error";
}

/** Removes every secret (of 4 characters or more) and anything shaped like one from `text`: "sk-pr…[redacted]". */
export function redact(text: string, secrets: (string | undefined)[]): string {
	return maskKeys(maskValues(text, secrets), (key) => `${key.slice(0, 5)}…${SECRET_MARKER}`);
}

/** `url` without userinfo (`https://user:pass@host/v1` → `https://host/v1`), for labels and messages. */
export function safeUrl(url: string): string {
	try {
		const parsed = new URL(url);
		if (!parsed.username && !parsed.password) return url;
		parsed.username = "";
		parsed.password = "";
		return parsed.href.endsWith("/") && !url.endsWith("/") ? parsed.href.slice(0, -1) : parsed.href;
	} catch {
		return url.replace(/\/\/[^/@]*@/, "//");
	}
}

export type DescribeContext = {
	/** "Anthropic API", "OpenAI-compatible API at http://localhost:11434/v1". */
	api: string;
	keyEnv: string;
	secrets: (string | undefined)[];
	/** The reply had started streaming when the error happened. */
	midStream?: boolean;
};

/** A message a person can act on for an SDK or network error; secrets never appear in it. */
export function describeError(error: unknown, ctx: DescribeContext): string {
	const parts = partsOf(error);
	const kind = classifyParts(parts, error);
	let text: string;
	if (parts.status !== undefined) {
		const type = parts.type ? ` (${parts.type})` : "";
		const detail = parts.message ? `: ${parts.message}` : "";
		const hint = hintFor(parts.status, ctx.keyEnv, kind);
		text = `${ctx.api} error ${parts.status}${type}${detail}${hint ? ` — ${hint}` : ""}`;
	} else if (parts.type) {
		const hint = kind === "overflow" ? ` — ${hintFor(0, ctx.keyEnv, kind)}` : "";
		text = `${ctx.api} error (${parts.type})${parts.message ? `: ${parts.message}` : ""}${hint}`;
	} else if (parts.code && ctx.midStream) {
		text = `${ctx.api} connection lost mid-reply (${parts.code})`;
	} else if (parts.code) {
		text = `${ctx.api} unreachable (${parts.code}) — check the network and the base URL`;
	} else if (error instanceof SyntaxError) {
		text = `${ctx.api} sent a malformed stream event (${parts.message ?? "invalid JSON"})`;
	} else {
		const cause = parts.cause ? ` (${parts.cause})` : "";
		text = `${ctx.api} request failed: ${parts.message ?? "unknown error"}${cause}`;
	}
	return redact(text, ctx.secrets);
}

/** The user name and password in a URL (kept out of every message as secrets). */
export function userinfoOf(url: string | undefined): string[] {
	try {
		const parsed = url ? new URL(url) : undefined;
		return parsed ? [parsed.username, parsed.password].filter(Boolean).map(decodeURIComponent) : [];
	} catch {
		return [];
	}
}
