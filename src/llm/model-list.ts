import { createNodeFetch } from "./http-fetch.js";

/** A model an OpenAI-compatible server lists at `/models`; `contextWindow` where the server says it (OpenRouter). */
export type ListedModel = { id: string; contextWindow?: number };

/** How long the model list may take: the picker shows gar's table meanwhile, and after a failure. */
export const MODEL_LIST_TIMEOUT_MS = 2000;
/** A model list larger than this is not read (OpenRouter's, with descriptions, is about 1 MB). */
const MAX_LIST_BYTES = 16 * 1024 * 1024;
/** At most this many models are kept from one list. */
const MAX_MODELS = 5000;

export type ListOptions = {
	apiKey?: string;
	timeoutMs?: number;
	/** The fetch to use (default: gar's own over node:http, which honours HTTPS_PROXY and NO_PROXY). */
	fetch?: typeof fetch;
	env?: Record<string, string | undefined>;
};

/**
 * The models an OpenAI-compatible server at `baseUrl` lists at `GET {baseUrl}/models`, or why not, in words (never
 * the key). Gives up after `timeoutMs` (default 2 s). Never throws.
 */
export async function listServerModels(
	baseUrl: string,
	options: ListOptions = {},
): Promise<{ models: ListedModel[] } | { error: string }> {
	const timeoutMs = options.timeoutMs ?? MODEL_LIST_TIMEOUT_MS;
	const doFetch = options.fetch ?? createNodeFetch(options.env ? { env: options.env } : {});
	const controller = new AbortController();
	const timer = setTimeout(() => controller.abort(), timeoutMs);
	const url = `${baseUrl.replace(/\/+$/, "")}/models`;
	try {
		const headers: Record<string, string> = { accept: "application/json" };
		if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
		const response = await doFetch(url, { headers, signal: controller.signal });
		if (!response.ok) return { error: `the server answered ${response.status} to GET /models` };
		const text = await response.text();
		if (text.length > MAX_LIST_BYTES) return { error: "the server's model list is too large to read" };
		return parseModelList(text);
	} catch {
		if (controller.signal.aborted) return { error: `the server did not list its models within ${timeoutMs / 1000} s` };
		return { error: "the server could not be reached to list its models" };
	} finally {
		clearTimeout(timer);
	}
}

/** `{"data": [{"id": …}, …]}` (OpenAI's shape; Ollama, LiteLLM, vLLM and OpenRouter answer it) → the models. */
export function parseModelList(text: string): { models: ListedModel[] } | { error: string } {
	let body: unknown;
	try {
		body = JSON.parse(text);
	} catch {
		return { error: "the server's answer to GET /models is not JSON" };
	}
	const data = (body as { data?: unknown } | null)?.data;
	if (!Array.isArray(data)) return { error: "the server's answer to GET /models has no model list (data)" };
	const models: ListedModel[] = [];
	const seen = new Set<string>();
	for (const entry of data) {
		const id = (entry as { id?: unknown } | null)?.id;
		if (typeof id !== "string" || id.trim() === "" || /\s/.test(id) || seen.has(id)) continue;
		seen.add(id);
		const window =
			(entry as { context_length?: unknown; context_window?: unknown }).context_length ??
			(entry as { context_window?: unknown }).context_window;
		models.push(typeof window === "number" && window > 0 ? { id, contextWindow: window } : { id });
		if (models.length >= MAX_MODELS) break;
	}
	models.sort((a, b) => a.id.localeCompare(b.id));
	return { models };
}
