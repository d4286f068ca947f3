// HTTPS_PROXY / HTTP_PROXY / NO_PROXY: the real OpenAI SDK through gar's fetch and a CONNECT proxy on loopback.
import { readFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import net, { type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createNodeFetch } from "../src/llm/http-fetch.js";
import { createOpenAIProvider } from "../src/llm/openai.js";
import { bypassesProxy, proxyFor } from "../src/llm/proxy.js";
import { collect, startWireServer, type WireServer } from "./support/wire-server.js";

const TLS = new URL("./fixtures/wire/tls/", import.meta.url).pathname;
const cert = readFileSync(`${TLS}localhost.crt`);
const key = readFileSync(`${TLS}localhost.key`);

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	for (const close of closers.splice(0).reverse()) await close();
});

async function listen(server: http.Server | https.Server): Promise<number> {
	server.listen(0, "127.0.0.1");
	await new Promise((resolve) => server.once("listening", resolve));
	closers.push(() => {
		server.closeAllConnections();
		return new Promise<void>((resolve) => server.close(() => resolve()));
	});
	return (server.address() as AddressInfo).port;
}

/** A forward proxy: CONNECT tunnels and absolute-URL http requests, recording what it was asked. */
async function startProxy() {
	const seen: { method: string; target: string; auth?: string }[] = [];
	const sockets = new Set<net.Socket>();
	const server = http.createServer((req, res) => {
		seen.push({ method: req.method ?? "", target: req.url ?? "", auth: req.headers["proxy-authorization"] });
		const upstream = http.request(req.url ?? "", { method: req.method, headers: req.headers }, (up) => {
			res.writeHead(up.statusCode ?? 502, up.headers);
			up.pipe(res);
		});
		req.pipe(upstream);
	});
	server.on("connect", (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
		seen.push({ method: "CONNECT", target: req.url ?? "", auth: req.headers["proxy-authorization"] });
		const [host, port] = (req.url ?? "").split(":");
		const upstream = net.connect(Number(port), host === "localhost" ? "127.0.0.1" : host, () => {
			socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
			upstream.write(head);
			upstream.pipe(socket);
			socket.pipe(upstream);
		});
		sockets.add(socket).add(upstream);
		upstream.on("error", () => socket.destroy());
		socket.on("error", () => upstream.destroy());
	});
	const port = await listen(server);
	// Tunnelled sockets leave the server's books: end them before the server's close waits for them.
	closers.push(() => {
		for (const s of sockets) s.destroy();
	});
	return { url: `http://127.0.0.1:${port}`, port, seen };
}

/** An HTTPS front (the fixture certificate for localhost) that passes every request to the wire server. */
async function startHttpsFront(wire: WireServer): Promise<number> {
	const server = https.createServer({ key, cert }, (req, res) => {
		const upstream = http.request(`${wire.url}${req.url}`, { method: req.method, headers: req.headers }, (up) => {
			res.writeHead(up.statusCode ?? 502, up.headers);
			up.pipe(res);
		});
		req.pipe(upstream);
	});
	return listen(server);
}

async function wire(text: string): Promise<WireServer> {
	const server = await startWireServer([{ text }]);
	closers.push(() => server.close());
	return server;
}

describe("proxyFor", () => {
	const url = (u: string) => new URL(u);
	it("reads the usual variables, lowercase first, https falling back to http_proxy", () => {
		expect(proxyFor(url("https://api.x.com"), { HTTPS_PROXY: "http://p:1" })?.href).toBe("http://p:1/");
		expect(proxyFor(url("https://api.x.com"), { https_proxy: "http://a:1", HTTPS_PROXY: "http://b:1" })?.host).toBe(
			"a:1",
		);
		expect(proxyFor(url("https://api.x.com"), { HTTP_PROXY: "p:3128" })?.href).toBe("http://p:3128/");
		expect(proxyFor(url("http://api.x.com"), { HTTPS_PROXY: "http://p:1" })).toBeUndefined();
		expect(proxyFor(url("http://api.x.com"), { HTTP_PROXY: "http://p:1" })?.host).toBe("p:1");
		expect(proxyFor(url("https://api.x.com"), {})).toBeUndefined();
	});

	it("honours NO_PROXY: *, hosts, domain suffixes and ports", () => {
		expect(bypassesProxy(url("https://api.x.com"), "*")).toBe(true);
		expect(bypassesProxy(url("https://api.x.com"), "x.com")).toBe(true);
		expect(bypassesProxy(url("https://api.x.com"), ".x.com")).toBe(true);
		expect(bypassesProxy(url("https://notx.com"), "x.com")).toBe(false);
		expect(bypassesProxy(url("http://localhost:11434"), "localhost:11434")).toBe(true);
		expect(bypassesProxy(url("http://localhost:8080"), "localhost:11434")).toBe(false);
		expect(bypassesProxy(url("http://127.0.0.1:1"), "example.com, 127.0.0.1")).toBe(true);
		expect(proxyFor(url("https://api.x.com"), { HTTPS_PROXY: "http://p:1", NO_PROXY: "api.x.com" })).toBeUndefined();
	});

	it("refuses an https:// proxy with a clear message", () => {
		expect(() => proxyFor(url("https://api.x.com"), { HTTPS_PROXY: "https://p:1" })).toThrow(/http:\/\/ proxy/);
	});
});

describe("through a proxy", () => {
	it("tunnels HTTPS through CONNECT, with proxy credentials from the URL", async () => {
		const server = await wire("via tunnel");
		const front = await startHttpsFront(server);
		const proxy = await startProxy();
		const fetch = createNodeFetch({ env: { HTTPS_PROXY: `http://me:s3cret@127.0.0.1:${proxy.port}` }, ca: cert });
		const provider = createOpenAIProvider({ apiKey: "k", baseURL: `https://localhost:${front}/v1`, fetch });
		const { message } = await collect(provider, { model: "m" });
		expect(message.stopReason).toBe("stop");
		expect(message.content).toEqual([{ type: "text", text: "via tunnel" }]);
		expect(proxy.seen).toEqual([
			{ method: "CONNECT", target: `localhost:${front}`, auth: `Basic ${Buffer.from("me:s3cret").toString("base64")}` },
		]);
	});

	it("sends plain HTTP to the proxy with the absolute URL", async () => {
		const server = await wire("via proxy");
		const proxy = await startProxy();
		const fetch = createNodeFetch({ env: { http_proxy: proxy.url } });
		const provider = createOpenAIProvider({ apiKey: "k", baseURL: `${server.url}/v1`, fetch });
		const { message } = await collect(provider, { model: "m" });
		expect(message.content).toEqual([{ type: "text", text: "via proxy" }]);
		expect(proxy.seen).toEqual([{ method: "POST", target: `${server.url}/v1/chat/completions`, auth: undefined }]);
	});

	it("goes direct for a host NO_PROXY names", async () => {
		const server = await wire("direct");
		const proxy = await startProxy();
		const fetch = createNodeFetch({ env: { HTTP_PROXY: proxy.url, NO_PROXY: "localhost,127.0.0.1" } });
		const { message } = await collect(createOpenAIProvider({ apiKey: "k", baseURL: `${server.url}/v1`, fetch }), {
			model: "m",
		});
		expect(message.content).toEqual([{ type: "text", text: "direct" }]);
		expect(proxy.seen).toEqual([]);
	});

	it("reports a proxy that refuses the tunnel as an error, without throwing", async () => {
		const refusing = http.createServer();
		refusing.on("connect", (_req, socket: net.Socket) =>
			socket.end("HTTP/1.1 407 Proxy Authentication Required\r\n\r\n"),
		);
		const port = await listen(refusing);
		const fetch = createNodeFetch({ env: { HTTPS_PROXY: `http://127.0.0.1:${port}` } });
		const provider = createOpenAIProvider({ apiKey: "k", baseURL: "https://localhost:9/v1", fetch, maxRetries: 0 });
		const { message } = await collect(provider, { model: "m" });
		expect(message.stopReason).toBe("error");
		expect(message.error).toMatch(/407/);
	});
});
