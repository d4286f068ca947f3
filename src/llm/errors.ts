/** What a person should check after an HTTP error, by status. */
function hintFor(status: number, keyEnv: string): string | undefined {
	if (status === 401) return `check ${keyEnv}`;
	if (status === 403) return `check that ${keyEnv} may use this model`;
	if (status === 404) return "check the model name and the base URL";
	if (status === 413) return "the request is too large; compact the conversation";
	if (status === 429) return "rate limited; wait a moment and try again";
	if (status === 529) return "the API is overloaded; try again later";
	if (status >= 500) return "the server failed; try again";
	return undefined;
}

type ErrorParts = { status?: number; type?: string; message?: string; code?: string };

function partsOf(error: unknown): ErrorParts {
	if (!error || typeof error !== "object") return { message: String(error) };
	const e = error as Record<string, unknown>;
	const parts: ErrorParts = {};
	if (typeof e.status === "number") parts.status = e.status;
	// Anthropic: error = {type: "error", error: {type, message}}; OpenAI: error = {message, type, code}.
	const body = e.error as Record<string, unknown> | undefined;
	const inner = (body?.error && typeof body.error === "object" ? body.error : body) as
		| Record<string, unknown>
		| undefined;
	const type = inner?.type ?? inner?.code;
	if (typeof type === "string" && type !== "error") parts.type = type;
	if (typeof inner?.message === "string") parts.message = inner.message;
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
	return parts;
}

/** Removes every secret (and anything shaped like an API key) from `text`. */
export function redact(text: string, secrets: (string | undefined)[]): string {
	let out = text;
	for (const secret of secrets) {
		if (secret && secret.length >= 4) out = out.split(secret).join("[redacted]");
	}
	return out.replace(/\b(sk-[A-Za-z0-9_-]{2})[A-Za-z0-9_*.-]{6,}/g, "$1…[redacted]");
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
	let text: string;
	if (parts.status !== undefined) {
		const type = parts.type ? ` (${parts.type})` : "";
		const detail = parts.message ? `: ${parts.message}` : "";
		const hint = hintFor(parts.status, ctx.keyEnv);
		text = `${ctx.api} error ${parts.status}${type}${detail}${hint ? ` — ${hint}` : ""}`;
	} else if (parts.type) {
		text = `${ctx.api} error (${parts.type})${parts.message ? `: ${parts.message}` : ""}`;
	} else if (parts.code && ctx.midStream) {
		text = `${ctx.api} connection lost mid-reply (${parts.code})`;
	} else if (parts.code) {
		text = `${ctx.api} unreachable (${parts.code}) — check the network and the base URL`;
	} else if (error instanceof SyntaxError) {
		text = `${ctx.api} sent a malformed stream event (${parts.message ?? "invalid JSON"})`;
	} else {
		text = `${ctx.api} request failed: ${parts.message ?? "unknown error"}`;
	}
	return redact(text, ctx.secrets);
}
