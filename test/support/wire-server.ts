// A local HTTP server that speaks the real Anthropic Messages and OpenAI Chat Completions streaming protocols
// (SSE), driven by scripted turns, so tests and benches run the real SDKs over loopback.
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { type ScriptedTurn, splitInto } from "../../src/llm/scripted.js";
import type { AssistantMessage, ModelRequest, Provider, StreamEvent } from "../../src/llm/types.js";

/** A scripted turn plus wire-level details the canonical turn cannot express. */
export type WireTurn = ScriptedTurn & {
	/** The stop reason as sent on the wire, overriding `stop` ("refusal", "stop_sequence", "content_filter"…). */
	wireStop?: string;
	/** Argument text sent for the i-th tool call instead of its JSON (e.g. invalid JSON). */
	rawArgs?: string[];
	/** OpenAI-compatible server quirks. */
	quirks?: {
		noUsage?: boolean;
		noToolIds?: boolean;
		noFinishReason?: boolean;
		/** End the body without `data: [DONE]`. */
		noDone?: boolean;
		/** Say finish_reason "stop" for a reply with tool calls (Ollama does). */
		stopForToolCalls?: boolean;
		/** Where reasoning text goes; default reasoning_content. */
		reasoningField?: "reasoning_content" | "reasoning";
		/** Send a chunk with an empty choices array before the reply. */
		emptyChunk?: boolean;
		/** Structured-output refusal: these deltas go in `delta.refusal` with `content: null`. */
		refusal?: string[];
		/** Anthropic: end the body right after `message_delta` (no `message_stop`). */
		noMessageStop?: boolean;
		/** End the body without the blank line that closes the last event. */
		noFinalBlankLine?: boolean;
		/** Drop the connection after the last frame instead of ending the body cleanly. */
		cutAtEnd?: boolean;
		/** OpenRouter: the usage report says what the call cost (`usage.cost`, USD). */
		usageCost?: number;
	};
};

export type RecordedRequest = {
	method: string;
	path: string;
	headers: http.IncomingHttpHeaders;
	/** The parsed JSON body (the raw text when it is not JSON). */
	body: unknown;
	/** The body's bytes as received, as UTF-8 text. */
	raw: string;
};

export type WireServer = {
	url: string;
	requests: RecordedRequest[];
	/** How many replies the client walked away from before they were complete. */
	readonly disconnects: number;
	close(): Promise<void>;
};
type Script = WireTurn[] | ((req: RecordedRequest, call: number) => WireTurn);
type Format = "anthropic" | "openai";
/** One SSE frame; `delta` marks frames that carry reply content (what fault positions count). */
type Frame = { text: string; delta: boolean };

const ERRORS: Record<number, [type: string, message: string]> = {
	400: ["invalid_request_error", "Invalid request"],
	401: ["authentication_error", "invalid x-api-key"],
	403: ["permission_error", "Your API key does not have permission to use the specified resource."],
	404: ["not_found_error", "model: not found"],
	413: ["request_too_large", "Request exceeds the maximum allowed number of bytes."],
	429: ["rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit"],
	500: ["api_error", "Internal server error"],
	503: ["api_error", "Service unavailable"],
	529: ["overloaded_error", "Overloaded"],
};

function errorBody(format: Format, status: number, message?: string): string {
	const [type, text] = ERRORS[status] ?? ["api_error", `HTTP ${status}`];
	if (format === "anthropic") {
		return JSON.stringify({ type: "error", error: { type, message: message ?? text }, request_id: "req_wire" });
	}
	return JSON.stringify({ error: { message: message ?? text, type, param: null, code: null } });
}

const chunksOf = (value: string | string[] | undefined) =>
	value === undefined ? [] : typeof value === "string" ? [value] : value;

function usageOf(turn: WireTurn) {
	return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, ...turn.usage };
}

function anthropicFrames(turn: WireTurn, model: string): Frame[] {
	const frames: Frame[] = [];
	const sse = (data: Record<string, unknown>, delta = false) =>
		frames.push({ text: `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`, delta });
	const u = usageOf(turn);
	const usage = {
		input_tokens: u.input,
		cache_creation_input_tokens: u.cacheWrite,
		cache_read_input_tokens: u.cacheRead,
	};
	const message = { id: "msg_wire", type: "message", role: "assistant", model, content: [], stop_reason: null };
	sse({ type: "message_start", message: { ...message, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } });
	sse({ type: "ping" });
	let index = 0;
	const thinking = chunksOf(turn.thinking);
	if (thinking.length) {
		sse({ type: "content_block_start", index, content_block: { type: "thinking", thinking: "", signature: "" } });
		for (const t of thinking)
			sse({ type: "content_block_delta", index, delta: { type: "thinking_delta", thinking: t } }, true);
		sse({ type: "content_block_delta", index, delta: { type: "signature_delta", signature: `sig-${index}` } });
		sse({ type: "content_block_stop", index: index++ });
	}
	const text = chunksOf(turn.text);
	if (text.length) {
		sse({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
		for (const t of text) sse({ type: "content_block_delta", index, delta: { type: "text_delta", text: t } }, true);
		sse({ type: "content_block_stop", index: index++ });
	}
	for (const [i, call] of (turn.toolCalls ?? []).entries()) {
		const block = { type: "tool_use", id: call.id ?? `call_${i + 1}`, name: call.name, input: {} };
		sse({ type: "content_block_start", index, content_block: block });
		for (const part of splitInto(turn.rawArgs?.[i] ?? JSON.stringify(call.args), call.chunks ?? 3)) {
			sse({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: part } }, true);
		}
		sse({ type: "content_block_stop", index: index++ });
	}
	if (turn.fault?.kind === "error") {
		sse({ type: "error", error: { type: "api_error", message: turn.fault.message } });
		return frames;
	}
	const stop = turn.wireStop ?? { stop: "end_turn", length: "max_tokens", tool_use: "tool_use" }[defaultStop(turn)];
	sse({
		type: "message_delta",
		delta: { stop_reason: stop, stop_sequence: null },
		usage: { ...usage, output_tokens: u.output },
	});
	if (!turn.quirks?.noMessageStop) sse({ type: "message_stop" });
	return frames;
}

function defaultStop(turn: WireTurn): "stop" | "length" | "tool_use" {
	return turn.stop ?? (turn.toolCalls?.length ? "tool_use" : "stop");
}

function openaiFrames(turn: WireTurn, model: string): Frame[] {
	const frames: Frame[] = [];
	const q = turn.quirks ?? {};
	const base = { id: "chatcmpl-wire", object: "chat.completion.chunk", created: 1_700_000_000, model };
	const chunk = (delta: Record<string, unknown>, isDelta = false, finish: string | null = null) =>
		frames.push({
			text: `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
			delta: isDelta,
		});
	if (q.emptyChunk) frames.push({ text: `data: ${JSON.stringify({ ...base, choices: [] })}\n\n`, delta: false });
	chunk({ role: "assistant", content: "" });
	for (const t of chunksOf(turn.thinking)) chunk({ [q.reasoningField ?? "reasoning_content"]: t }, true);
	for (const t of chunksOf(turn.text)) chunk({ content: t }, true);
	for (const t of q.refusal ?? []) chunk({ content: null, refusal: t }, true);
	for (const [i, call] of (turn.toolCalls ?? []).entries()) {
		const head = { index: i, type: "function", function: { name: call.name, arguments: "" } };
		chunk({ tool_calls: [q.noToolIds ? head : { ...head, id: call.id ?? `call_${i + 1}` }] });
		for (const part of splitInto(turn.rawArgs?.[i] ?? JSON.stringify(call.args), call.chunks ?? 3)) {
			chunk({ tool_calls: [{ index: i, function: { arguments: part } }] }, true);
		}
	}
	if (turn.fault?.kind === "error") {
		frames.push({
			text: `data: ${JSON.stringify({ error: { message: turn.fault.message, type: "server_error" } })}\n\n`,
			delta: false,
		});
		return frames;
	}
	const stop = defaultStop(turn);
	const finish =
		turn.wireStop ??
		(stop === "tool_use" && !q.stopForToolCalls ? "tool_calls" : stop === "length" ? "length" : "stop");
	if (!q.noFinishReason) chunk({}, false, finish);
	if (!q.noUsage) {
		const u = usageOf(turn);
		const usage = {
			prompt_tokens: u.input + u.cacheRead,
			completion_tokens: u.output,
			total_tokens: u.input + u.cacheRead + u.output,
			prompt_tokens_details: { cached_tokens: u.cacheRead },
			...(q.usageCost === undefined ? {} : { cost: q.usageCost }),
		};
		frames.push({ text: `data: ${JSON.stringify({ ...base, choices: [], usage })}\n\n`, delta: false });
	}
	if (!q.noDone) frames.push({ text: "data: [DONE]\n\n", delta: false });
	return frames;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves when `res` can take more data or has closed (listeners removed either way). */
function drained(res: http.ServerResponse): Promise<void> {
	return new Promise((resolve) => {
		const done = () => {
			res.off("drain", done);
			res.off("close", done);
			resolve();
		};
		res.on("drain", done);
		res.on("close", done);
	});
}

function writeAsync(res: http.ServerResponse, text: string): Promise<void> {
	return new Promise((resolve) => res.write(text, () => resolve()));
}

async function serveStream(res: http.ServerResponse, format: Format, turn: WireTurn, model: string) {
	res.writeHead(200, {
		"content-type": "text/event-stream",
		"cache-control": "no-cache",
		[format === "anthropic" ? "request-id" : "x-request-id"]: "req_wire",
	});
	const frames = format === "anthropic" ? anthropicFrames(turn, model) : openaiFrames(turn, model);
	const last = frames[frames.length - 1];
	if (turn.quirks?.noFinalBlankLine && last) last.text = last.text.replace(/\n\n$/, "");
	const fault = turn.fault;
	const faultAt = fault && fault.kind !== "http" && fault.kind !== "error" ? (fault.afterDeltas ?? 1) : -1;
	let deltas = 0;
	for (const frame of frames) {
		if (res.destroyed) return;
		if (frame.delta) {
			if (deltas === faultAt && fault) {
				await writeAsync(res, "");
				if (fault.kind === "cut") res.socket?.destroy();
				else if (fault.kind === "malformed") {
					const bad =
						format === "anthropic" ? 'event: content_block_delta\ndata: {"type": oops\n\n' : "data: {oops\n\n";
					res.end(bad);
				} else if (fault.kind === "silence" && !res.destroyed) await once(res, "close");
				return;
			}
			deltas++;
			if (turn.delayMs) await sleep(turn.delayMs);
		}
		if (!res.write(frame.text)) await drained(res);
	}
	if (turn.quirks?.cutAtEnd) {
		await writeAsync(res, "");
		res.socket?.destroy();
		return;
	}
	res.end();
}

function formatOf(path: string): Format | undefined {
	if (path === "/v1/messages" || path === "/messages") return "anthropic";
	if (path === "/v1/chat/completions" || path === "/chat/completions") return "openai";
	return undefined;
}

/**
 * A loopback HTTP server that reads and records every request (JSON bodies parsed, the query left out of `path`),
 * then lets `respond` answer it; it counts the replies the client broke off (`disconnects`).
 */
async function recordingServer(
	respond: (recorded: RecordedRequest, res: http.ServerResponse) => Promise<void>,
): Promise<WireServer> {
	const requests: RecordedRequest[] = [];
	let disconnects = 0;
	const server = http.createServer((req, res) => {
		res.on("error", () => {}); // the client may go away mid-reply; that is what some tests do
		res.on("close", () => {
			if (!res.writableFinished) disconnects++;
		});
		handle(req, res).catch(() => res.destroy());
	});
	async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const raw = Buffer.concat(chunks).toString("utf8");
		let body: unknown = raw;
		try {
			body = JSON.parse(raw);
		} catch {
			// Keep the raw text.
		}
		const path = (req.url ?? "/").split("?")[0] ?? "/";
		const recorded: RecordedRequest = { method: req.method ?? "GET", path, headers: req.headers, body, raw };
		requests.push(recorded);
		await respond(recorded, res);
	}
	server.listen(0, "127.0.0.1");
	await once(server, "listening");
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		get disconnects() {
			return disconnects;
		},
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** A server's answer to a request that is not a model call (a model list, llama.cpp's /props, Ollama's /api/show). */
export type OtherAnswer = { status?: number; body: string; delayMs?: number };

/** An `other` answering `GET /v1/models` (an OpenAI-compatible server's model list) with `data`, or with `status`. */
export function modelList(models: { data: unknown[]; status?: number; delayMs?: number }) {
	return ({ method, path }: RecordedRequest): OtherAnswer | undefined => {
		if (method !== "GET" || (path !== "/v1/models" && path !== "/models")) return undefined;
		const status = models.status ?? 200;
		const body = status === 200 ? JSON.stringify({ object: "list", data: models.data }) : '{"error":"no"}';
		return { status, body, ...(models.delayMs ? { delayMs: models.delayMs } : {}) };
	};
}

/**
 * Starts a server on 127.0.0.1 (port 0). Each request to `/v1/messages` (Anthropic) or `/v1/chat/completions`
 * (OpenAI; `/chat/completions` too) consumes the next turn; an `http` fault answers with its status `times`
 * times (default 1) before the turn is served. `other` answers any other request (default: 404). `url` has no
 * `/v1` suffix.
 */
export async function startWireServer(
	script: Script,
	other?: (req: RecordedRequest) => OtherAnswer | undefined,
): Promise<WireServer> {
	const turns = new Map<number, WireTurn | undefined>();
	const httpFaults = new Map<number, number>();
	let served = 0;
	return recordingServer(async (recorded, res) => {
		const { path, method, body } = recorded;
		const format = formatOf(path);
		if (!format || method !== "POST") {
			const answer = other?.(recorded);
			if (answer?.delayMs) await sleep(answer.delayMs);
			if (res.destroyed) return;
			res.writeHead(answer?.status ?? (answer ? 200 : 404), { "content-type": "application/json" });
			res.end(answer?.body ?? '{"error":"not found"}');
			return;
		}
		const call = served;
		if (!turns.has(call)) turns.set(call, typeof script === "function" ? script(recorded, call) : script[call]);
		const turn = turns.get(call);
		if (!turn) {
			res.writeHead(400, { "content-type": "application/json" });
			res.end(errorBody(format, 400, `wire server: no turn scripted for call ${call + 1}`));
			return;
		}
		const fault = turn.fault;
		if (fault?.kind === "http" && (httpFaults.get(call) ?? 0) < (fault.times ?? 1)) {
			httpFaults.set(call, (httpFaults.get(call) ?? 0) + 1);
			const headers = fault.headers ?? { "retry-after-ms": "10" };
			res.writeHead(fault.status, { "content-type": "application/json", ...headers });
			res.end(fault.body ?? errorBody(format, fault.status));
			return;
		}
		served++;
		const model = (body as { model?: unknown })?.model;
		await serveStream(res, format, turn, typeof model === "string" ? model : "wire-model");
	});
}

export async function collect(
	provider: Provider,
	request: Partial<ModelRequest> = {},
): Promise<{ events: StreamEvent[]; message: AssistantMessage }> {
	const events: StreamEvent[] = [];
	const full: ModelRequest = {
		model: "claude-sonnet-4-5",
		system: "You are terse.",
		messages: [{ role: "user", content: "hi" }],
		tools: [],
		...request,
	};
	for await (const event of provider.stream(full)) events.push(event);
	const done = events.filter((e) => e.type === "done");
	if (done.length !== 1 || events[events.length - 1]?.type !== "done") {
		throw new Error(`expected exactly one final done event, got ${JSON.stringify(events.map((e) => e.type))}`);
	}
	const last = events[events.length - 1] as Extract<StreamEvent, { type: "done" }>;
	return { events, message: last.message };
}

/** The concatenated deltas of one kind. */
export function joined(events: StreamEvent[], type: "text_delta" | "thinking_delta"): string {
	let out = "";
	for (const e of events) if (e.type === type) out += e.delta;
	return out;
}

/**
 * Serves the same recorded body to every POST (any path), as `text/event-stream`, either in one write or split
 * into `pieceBytes`-byte writes, each flushed before the next. For replaying recordings byte for byte.
 */
export async function startReplayServer(body: Buffer, pieceBytes?: number): Promise<WireServer> {
	return recordingServer(async (_recorded, res) => {
		res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
		if (!pieceBytes) {
			res.end(body);
			return;
		}
		for (let i = 0; i < body.length && !res.destroyed; i += pieceBytes) {
			await new Promise<void>((resolve) => res.write(body.subarray(i, i + pieceBytes), () => resolve()));
		}
		res.end();
	});
}
