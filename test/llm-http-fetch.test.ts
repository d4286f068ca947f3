import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { createNodeFetch } from "../src/llm/http-fetch.js";

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

let server: http.Server | undefined;
afterEach(async () => {
	server?.closeAllConnections();
	await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
	server = undefined;
});

async function serve(handler: Handler): Promise<string> {
	server = http.createServer(async (req, res) => {
		let body = "";
		for await (const chunk of req) body += chunk;
		handler(req, res, body);
	});
	server.listen(0, "127.0.0.1");
	await once(server, "listening");
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const fetchLean = createNodeFetch();
const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("createNodeFetch", () => {
	it("sends method, headers and body, and reads a JSON reply", async () => {
		let seen: { method?: string; headers?: http.IncomingHttpHeaders; body?: string } = {};
		const url = await serve((req, res, body) => {
			seen = { method: req.method, headers: req.headers, body };
			res.writeHead(201, { "content-type": "application/json", "X-Thing": "yes" }).end('{"ok":true}');
		});
		const headers = new Headers({ "Content-Type": "application/json", "X-Api-Key": "k" });
		const res = await fetchLean(`${url}/v1/messages?beta=1`, { method: "post", headers, body: '{"a":1}' });
		expect(res.status).toBe(201);
		expect(res.ok).toBe(true);
		expect(res.headers.get("x-thing")).toBe("yes");
		expect(res.headers.get("X-Thing")).toBe("yes");
		expect([...res.headers.entries()]).toContainEqual(["content-type", "application/json"]);
		expect(await res.json()).toEqual({ ok: true });
		expect(seen.method).toBe("POST");
		expect(seen.body).toBe('{"a":1}');
		expect(seen.headers?.["x-api-key"]).toBe("k");
		expect(seen.headers?.["content-length"]).toBe("7");
		expect(seen.headers?.["accept-encoding"]).toBe("identity");
	});

	it("streams the body chunk by chunk as it arrives", async () => {
		const url = await serve(async (_req, res) => {
			res.writeHead(200, { "content-type": "text/event-stream" });
			for (const part of ["data: 1\n\n", "data: 2\n\n", "data: 3\n\n"]) {
				res.write(part);
				await tick(30);
			}
			res.end();
		});
		const res = await fetchLean(url, { method: "POST", body: "" });
		const parts: string[] = [];
		const times: number[] = [];
		for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
			parts.push(Buffer.from(chunk).toString());
			times.push(Date.now());
		}
		expect(parts.join("")).toBe("data: 1\n\ndata: 2\n\ndata: 3\n\n");
		expect(parts.length).toBeGreaterThanOrEqual(3);
		expect((times.at(-1) ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(40);
	});

	it("passes error statuses through with their body", async () => {
		const url = await serve((_req, res) => {
			res.writeHead(529, { "retry-after-ms": "10" }).end('{"type":"error"}');
		});
		const res = await fetchLean(url);
		expect(res.ok).toBe(false);
		expect(res.status).toBe(529);
		expect(res.headers.get("retry-after-ms")).toBe("10");
		expect(await res.text()).toBe('{"type":"error"}');
		await expect(res.text()).rejects.toThrow(/already been read/);
	});

	it("decodes a gzip body even though it asks for identity", async () => {
		const url = await serve((_req, res) => {
			res.writeHead(200, { "content-encoding": "gzip" }).end(gzipSync("squeezed"));
		});
		const res = await fetchLean(url);
		expect(await res.text()).toBe("squeezed");
	});

	it("gives a null body for 204 and reads bytes as an ArrayBuffer", async () => {
		const url = await serve((req, res) => {
			if (req.url === "/empty") res.writeHead(204).end();
			else res.end("abc");
		});
		expect((await fetchLean(`${url}/empty`)).body).toBeNull();
		const buf = await (await fetchLean(url)).arrayBuffer();
		expect(new TextDecoder().decode(buf)).toBe("abc");
	});

	it("rejects like fetch, with the cause's code, when the server is unreachable", async () => {
		const url = await serve(() => {});
		server?.close();
		await once(server as http.Server, "close");
		server = undefined;
		const error = await fetchLean(url).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(TypeError);
		expect((error as { cause?: { code?: string } }).cause?.code).toBe("ECONNREFUSED");
	});

	it("rejects at once for an already-aborted signal", async () => {
		const url = await serve((_req, res) => res.end("never"));
		const error = await fetchLean(url, { signal: AbortSignal.abort() }).catch((e: unknown) => e);
		expect((error as Error).name).toBe("AbortError");
	});

	it("abort while waiting for headers rejects and closes the request", async () => {
		let closed: Promise<unknown> = Promise.resolve();
		const url = await serve((req) => {
			closed = once(req.socket, "close");
		});
		const controller = new AbortController();
		setTimeout(() => controller.abort(), 50);
		const error = await fetchLean(url, { signal: controller.signal }).catch((e: unknown) => e);
		expect((error as Error).name).toBe("AbortError");
		await closed;
	});

	it("abort mid-body makes the body fail with AbortError and destroys the connection", async () => {
		let closed: Promise<unknown> = Promise.resolve();
		const url = await serve((req, res) => {
			closed = once(req.socket, "close");
			res.writeHead(200);
			res.write("first");
		});
		const controller = new AbortController();
		const res = await fetchLean(url, { signal: controller.signal });
		const read = (async () => {
			const parts: string[] = [];
			for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
				parts.push(Buffer.from(chunk).toString());
				controller.abort();
			}
			return parts;
		})();
		const error = await read.catch((e: unknown) => e);
		expect((error as Error).name).toBe("AbortError");
		await closed;
	});

	it("makes a body cut by the server fail instead of ending quietly", async () => {
		const url = await serve((_req, res) => {
			res.writeHead(200, { "content-type": "text/event-stream" });
			res.write("partial", () => res.socket?.destroy());
		});
		const res = await fetchLean(url);
		const error = await res.text().catch((e: unknown) => e);
		expect((error as { code?: string }).code).toBe("ECONNRESET");
	});
});
