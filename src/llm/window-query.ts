import { baseModelId } from "./models.js";

/** How long the whole question may take: a server that does not answer by then is taken not to know. */
export const WINDOW_QUERY_MS = 2000;
/** The largest answer read (OpenRouter's list of every model is a few MB); more is not an answer. */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;
/** No model has a window larger than this; a larger figure is not believed. */
const MAX_WINDOW = 100_000_000;

export type WindowQuery = {
	/** The OpenAI-compatible base URL the model is served at (".../v1"). */
	baseUrl: string;
	model: string;
	apiKey?: string;
	fetch: typeof fetch;
	timeoutMs?: number;
};

/** A window a server told, and which of its answers told it. */
export type WindowAnswer = { window: number; source: string };

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
	typeof value === "object" && value !== null && !Array.isArray(value);

function windowOf(value: unknown): number | undefined {
	return typeof value === "number" && Number.isInteger(value) && value > 0 && value <= MAX_WINDOW ? value : undefined;
}

/** The base URL without a trailing `/v1` (where llama.cpp, Ollama and LM Studio answer their own questions). */
function rootOf(baseUrl: string): string {
	return baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "");
}

/** A GET or POST answered with JSON within the limits; undefined for anything else. */
async function ask(query: WindowQuery, url: string, signal: AbortSignal, body?: unknown): Promise<unknown> {
	try {
		const headers: Record<string, string> = { accept: "application/json" };
		if (query.apiKey) headers.authorization = `Bearer ${query.apiKey}`;
		if (body !== undefined) headers["content-type"] = "application/json";
		const response = await query.fetch(url, {
			method: body === undefined ? "GET" : "POST",
			headers,
			signal,
			...(body === undefined ? {} : { body: JSON.stringify(body) }),
		});
		if (!response.ok) return undefined;
		const length = Number(response.headers.get("content-length") ?? 0);
		if (length > MAX_ANSWER_BYTES) return undefined;
		const text = await readCapped(response.body as AsyncIterable<Uint8Array> | null, MAX_ANSWER_BYTES);
		return text === undefined ? undefined : JSON.parse(text);
	} catch {
		return undefined;
	}
}

/** A body read up to `max` bytes; undefined when it is larger (reading stops there: a huge answer costs no more). */
async function readCapped(body: AsyncIterable<Uint8Array> | null, max: number): Promise<string | undefined> {
	if (!body) return "";
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of body) {
		size += chunk.byteLength;
		if (size > max) return undefined;
		chunks.push(Buffer.from(chunk));
	}
	return Buffer.concat(chunks).toString("utf8");
}

/** The entry of `model` in a model list: its exact id, else the one whose id ends in it (OpenRouter's `vendor/`). */
function listed(list: unknown, model: string): Json | undefined {
	const data = isObject(list) ? list.data : list;
	if (!Array.isArray(data)) return undefined;
	const entries = data.filter(isObject);
	return (
		entries.find((e) => e.id === model) ??
		entries.find((e) => typeof e.id === "string" && baseModelId(e.id) === baseModelId(model))
	);
}

/** vLLM's `max_model_len`, OpenRouter's `context_length`, LM Studio's loaded (else maximum) context in `/v1/models`. */
function fromModelList(list: unknown, model: string): WindowAnswer | undefined {
	const entry = listed(list, model);
	if (!entry) return undefined;
	const top = isObject(entry.top_provider) ? entry.top_provider : {};
	for (const [field, value] of [
		["max_model_len", entry.max_model_len],
		["loaded_context_length", entry.loaded_context_length],
		["context_length", entry.context_length],
		["top_provider.context_length", top.context_length],
		["max_context_length", entry.max_context_length],
	] as const) {
		const window = windowOf(value);
		if (window) return { window, source: `models: ${field}` };
	}
	return undefined;
}

/** llama.cpp's `/props`: the context of its slots (`n_ctx`). */
function fromProps(props: unknown): WindowAnswer | undefined {
	if (!isObject(props)) return undefined;
	const settings = isObject(props.default_generation_settings) ? props.default_generation_settings : {};
	const window = windowOf(settings.n_ctx) ?? windowOf(props.n_ctx);
	return window ? { window, source: "llama.cpp /props: n_ctx" } : undefined;
}

/** Ollama's `/api/show`: the model's `num_ctx` when it sets one, else its `<arch>.context_length`. */
function fromOllama(show: unknown): WindowAnswer | undefined {
	if (!isObject(show)) return undefined;
	const params = typeof show.parameters === "string" ? /(?:^|\n)\s*num_ctx\s+(\d+)/.exec(show.parameters) : null;
	const numCtx = windowOf(Number(params?.[1]));
	if (numCtx) return { window: numCtx, source: "ollama /api/show: num_ctx" };
	const info = isObject(show.model_info) ? show.model_info : {};
	for (const [key, value] of Object.entries(info)) {
		const window = key.endsWith(".context_length") ? windowOf(value) : undefined;
		if (window) return { window, source: `ollama /api/show: ${key}` };
	}
	return undefined;
}

/**
 * Asks an OpenAI-compatible server the context window of `model`, every way servers answer it at once (vLLM,
 * OpenRouter and LM Studio in the model list, LM Studio's own API, llama.cpp's /props, Ollama's /api/show), and
 * takes the first answer in that order. Costs at most `timeoutMs`; a slow, huge, malformed or missing answer is no
 * answer (null), never a guess. Never throws.
 */
export async function queryContextWindow(query: WindowQuery): Promise<WindowAnswer | null> {
	const controller = new AbortController();
	const timer = setTimeout(() => controller.abort(), query.timeoutMs ?? WINDOW_QUERY_MS);
	timer.unref?.();
	const base = query.baseUrl.replace(/\/+$/, "");
	const root = rootOf(base);
	const { model } = query;
	const { signal } = controller;
	try {
		const answers = await Promise.all([
			ask(query, `${base}/models`, signal).then((list) => fromModelList(list, model)),
			ask(query, `${root}/api/v0/models/${encodeURIComponent(model)}`, signal).then((entry) =>
				fromModelList({ data: [isObject(entry) ? { ...entry, id: model } : entry] }, model),
			),
			ask(query, `${root}/props`, signal).then(fromProps),
			ask(query, `${root}/api/show`, signal, { model }).then(fromOllama),
		]);
		return answers.find((answer) => answer !== undefined) ?? null;
	} catch {
		return null;
	} finally {
		clearTimeout(timer);
		controller.abort();
	}
}

const asked = new Map<string, Promise<WindowAnswer | null>>();

/** queryContextWindow, asked once per server and model in this process (the answer, or its absence, is kept). */
export function contextWindowFromServer(query: WindowQuery): Promise<WindowAnswer | null> {
	const key = `${query.baseUrl}\n${query.model}`;
	let answer = asked.get(key);
	if (!answer) {
		answer = queryContextWindow(query);
		asked.set(key, answer);
	}
	return answer;
}
