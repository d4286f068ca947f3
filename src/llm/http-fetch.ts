import http from "node:http";
import { createRequire } from "node:module";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { connectTunnel, proxyAuth, proxyFor } from "./proxy.js";

/**
 * Loads a built-in on first use: TLS is loaded only for an https URL, so a local server over http (Ollama, llama.cpp,
 * the tests) never pays for it (~3 ms of a `gar -p`). Not `import()`: inside the code-cached bundle Node 20 has no
 * loader for it.
 */
const builtin = createRequire(process.execPath);

/** What `createNodeFetch` reads: the environment (for HTTPS_PROXY, HTTP_PROXY, NO_PROXY) and extra trusted CAs. */
export type NodeFetchOptions = { env?: Record<string, string | undefined>; ca?: string | Buffer };

/**
 * A small `fetch` over node:http/https, enough for the provider SDKs: string or byte request bodies, a streamed
 * response body (an async iterable of Uint8Array), `text()`/`json()`/`arrayBuffer()`, and abort through `signal`.
 * It exists because Node's built-in fetch (undici) costs a lot of memory for one request, and `gar -p` must stay
 * small. It never touches the global fetch, Request or Response. Redirects are not followed. Proxies named by
 * HTTPS_PROXY / HTTP_PROXY (lowercase too) are used unless NO_PROXY exempts the host: https through a CONNECT
 * tunnel, http by asking the proxy for the absolute URL.
 */
export function createNodeFetch(options: NodeFetchOptions = {}): typeof fetch {
	const env = options.env ?? process.env;
	return ((input: string | URL | { url: string }, init?: Init) =>
		nodeFetch(input, init, env, options.ca)) as typeof fetch;
}

type HeaderInit =
	| Record<string, string>
	| [string, string][]
	| { forEach(cb: (value: string, key: string) => void): void };
type Init = { method?: string; headers?: HeaderInit; body?: unknown; signal?: AbortSignal | null };

/** The read-only Headers surface the SDKs use, over Node's lowercased header object. */
export class NodeHeaders {
	readonly #map = new Map<string, string>();
	constructor(raw: http.IncomingHttpHeaders) {
		for (const [key, value] of Object.entries(raw)) {
			if (value !== undefined) this.#map.set(key, Array.isArray(value) ? value.join(", ") : value);
		}
	}
	get(name: string): string | null {
		return this.#map.get(name.toLowerCase()) ?? null;
	}
	has(name: string): boolean {
		return this.#map.has(name.toLowerCase());
	}
	forEach(cb: (value: string, key: string, parent: NodeHeaders) => void): void {
		for (const [key, value] of this.#map) cb(value, key, this);
	}
	entries(): IterableIterator<[string, string]> {
		return this.#map.entries();
	}
	keys(): IterableIterator<string> {
		return this.#map.keys();
	}
	values(): IterableIterator<string> {
		return this.#map.values();
	}
	[Symbol.iterator](): IterableIterator<[string, string]> {
		return this.#map.entries();
	}
}

function abortError(signal: AbortSignal): Error {
	const reason: unknown = signal.reason;
	if (reason instanceof Error && reason.name === "AbortError") return reason;
	const error = new Error("This operation was aborted");
	error.name = "AbortError";
	return error;
}

function flattenHeaders(headers: HeaderInit | undefined): Record<string, string> {
	const out: Record<string, string> = {};
	if (!headers) return out;
	if (Array.isArray(headers)) for (const [key, value] of headers) out[key.toLowerCase()] = value;
	else if (typeof headers.forEach === "function") {
		(headers as { forEach(cb: (v: string, k: string) => void): void }).forEach((v, k) => {
			out[k.toLowerCase()] = v;
		});
	} else for (const [key, value] of Object.entries(headers)) out[key.toLowerCase()] = String(value);
	return out;
}

function encodeBody(body: unknown): Buffer | undefined {
	if (body === undefined || body === null) return undefined;
	if (typeof body === "string") return Buffer.from(body);
	if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
	if (body instanceof ArrayBuffer) return Buffer.from(body);
	throw new TypeError("createNodeFetch: only string and byte request bodies are supported");
}

function decode(res: http.IncomingMessage): NodeJS.ReadableStream & AsyncIterable<Uint8Array> {
	const encoding = res.headers["content-encoding"]?.toLowerCase();
	const decoder =
		encoding === "gzip" || encoding === "x-gzip"
			? createGunzip()
			: encoding === "deflate"
				? createInflate()
				: encoding === "br"
					? createBrotliDecompress()
					: undefined;
	if (!decoder) return res;
	res.on("error", (err) => decoder.destroy(err));
	return res.pipe(decoder);
}

/** Where and how to send one request: directly, through a CONNECT tunnel, or to an http proxy. */
async function route(url: URL, env: NodeFetchOptions["env"], ca: NodeFetchOptions["ca"], signal?: AbortSignal) {
	if (url.protocol !== "https:" && url.protocol !== "http:") {
		throw new TypeError(`createNodeFetch: unsupported protocol ${url.protocol}`);
	}
	const transport: typeof http | typeof import("node:https") = url.protocol === "https:" ? builtin("node:https") : http;
	const tlsOptions = ca ? { ca } : {};
	const proxy = proxyFor(url, env);
	if (!proxy) return { transport, target: url, extra: tlsOptions, headers: {} };
	if (url.protocol === "http:") {
		// A plain-http request goes to the proxy with the absolute URL as its path.
		const target = new URL(proxy.origin);
		return { transport: http, target, path: url.href, extra: {}, headers: { host: url.host, ...proxyAuth(proxy) } };
	}
	const socket = await connectTunnel(proxy, url.hostname, url.port || "443", signal);
	const servername = url.hostname.replace(/^\[|\]$/g, "");
	const tls: typeof import("node:tls") = builtin("node:tls");
	const secure = tls.connect({
		socket,
		servername: /^[\d.:]+$/.test(servername) ? undefined : servername,
		...tlsOptions,
	});
	// No agent: with createConnection and no agent, Node uses this one socket (an agent would dial directly).
	return { transport, target: url, extra: { createConnection: () => secure }, headers: {} };
}

async function nodeFetch(
	input: string | URL | { url: string },
	init: Init = {},
	env?: NodeFetchOptions["env"],
	ca?: NodeFetchOptions["ca"],
): Promise<Response> {
	const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url);
	const signal = init.signal ?? undefined;
	if (signal?.aborted) throw abortError(signal);
	const body = encodeBody(init.body);
	const headers: Record<string, string> = { "accept-encoding": "identity", ...flattenHeaders(init.headers) };
	if (body && headers["content-length"] === undefined) headers["content-length"] = String(body.length);
	let routed: Awaited<ReturnType<typeof route>>;
	try {
		routed = await route(url, env, ca, signal);
	} catch (err) {
		if (signal?.aborted) throw abortError(signal);
		throw err;
	}
	const { transport, target, extra } = routed;
	const requestOptions = {
		method: (init.method ?? "GET").toUpperCase(),
		headers: { ...headers, ...routed.headers },
		...("path" in routed ? { path: routed.path } : {}),
		...extra,
	};

	return new Promise<Response>((resolve, reject) => {
		let response: http.IncomingMessage | undefined;
		const onAbort = () => {
			const err = abortError(signal as AbortSignal);
			response?.destroy(err);
			req.destroy(err);
			reject(err);
		};
		const cleanup = () => signal?.removeEventListener("abort", onAbort);
		const req = transport.request(target, requestOptions, (res) => {
			response = res;
			res.on("error", () => {}); // errors reach whoever reads the body; never an uncaught 'error' event
			res.once("close", cleanup);
			resolve(toResponse(res, url.href));
		});
		req.on("error", (err) => {
			cleanup();
			reject(new TypeError(`fetch failed: ${err.message}`, { cause: err }));
		});
		signal?.addEventListener("abort", onAbort, { once: true });
		req.end(body);
	});
}

function toResponse(res: http.IncomingMessage, url: string): Response {
	const status = res.statusCode ?? 0;
	const noBody = status === 204 || status === 304;
	// The Node stream itself: iterated, it hands over all it has buffered at once (llm/sse.ts cuts a large read).
	const body = noBody ? null : decode(res);
	if (noBody) res.resume();
	let used = false;
	const bytes = async (): Promise<Buffer> => {
		if (used) throw new TypeError("Body has already been read");
		used = true;
		if (!body) return Buffer.alloc(0);
		const chunks: Buffer[] = [];
		for await (const chunk of body) chunks.push(Buffer.from(chunk));
		return Buffer.concat(chunks);
	};
	const response = {
		status,
		statusText: res.statusMessage ?? "",
		ok: status >= 200 && status < 300,
		redirected: false,
		type: "basic",
		url,
		headers: new NodeHeaders(res.headers),
		body,
		get bodyUsed() {
			return used;
		},
		text: async () => (await bytes()).toString("utf8"),
		json: async () => JSON.parse((await bytes()).toString("utf8")),
		arrayBuffer: async () => {
			const buf = await bytes();
			return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
		},
	};
	// Structurally a subset of Response: the SDKs read only the members above.
	return response as unknown as Response;
}
