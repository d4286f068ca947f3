import http from "node:http";
import type { Socket } from "node:net";

type Env = Record<string, string | undefined>;

function envValue(env: Env, name: string): string | undefined {
	const value = env[name.toLowerCase()] ?? env[name.toUpperCase()];
	return value?.trim() ? value.trim() : undefined;
}

/** Whether NO_PROXY exempts `url`: `*`, a host or domain suffix (`.corp`, `corp`), optionally with `:port`. */
export function bypassesProxy(url: URL, noProxy: string | undefined): boolean {
	if (!noProxy) return false;
	const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
	const port = url.port || (url.protocol === "https:" ? "443" : "80");
	for (const raw of noProxy.split(/[\s,]+/)) {
		const entry = raw.trim().toLowerCase();
		if (!entry) continue;
		if (entry === "*") return true;
		const match = /^(.*?)(?::(\d+))?$/.exec(entry.replace(/^\[|\](?=:|$)/g, ""));
		const name = (match?.[1] ?? entry).replace(/^\*?\./, "");
		if (match?.[2] && match[2] !== port) continue;
		if (host === name || host.endsWith(`.${name}`)) return true;
	}
	return false;
}

/**
 * The proxy for `url` from the environment (curl's and undici's convention): https_proxy/HTTPS_PROXY, falling back
 * to http_proxy/HTTP_PROXY, for https; http_proxy/HTTP_PROXY for http; none when no_proxy/NO_PROXY exempts the
 * host. Only http:// proxies are supported.
 */
export function proxyFor(url: URL, env: Env = process.env): URL | undefined {
	const raw =
		url.protocol === "https:"
			? (envValue(env, "https_proxy") ?? envValue(env, "http_proxy"))
			: envValue(env, "http_proxy");
	if (!raw || bypassesProxy(url, envValue(env, "no_proxy"))) return undefined;
	const proxy = new URL(raw.includes("://") ? raw : `http://${raw}`);
	if (proxy.protocol !== "http:")
		throw new TypeError(`unsupported proxy protocol ${proxy.protocol} (use an http:// proxy)`);
	return proxy;
}

/** The Proxy-Authorization header for a proxy URL with userinfo. */
export function proxyAuth(proxy: URL): Record<string, string> {
	if (!proxy.username && !proxy.password) return {};
	const user = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
	return { "proxy-authorization": `Basic ${Buffer.from(user).toString("base64")}` };
}

/** Opens a CONNECT tunnel through `proxy` to host:port; resolves with the raw socket. Rejects on a non-2xx answer. */
export function connectTunnel(proxy: URL, host: string, port: string, signal?: AbortSignal): Promise<Socket> {
	return new Promise((resolve, reject) => {
		const target = `${host.includes(":") ? `[${host}]` : host}:${port}`;
		const req = http.request({
			host: proxy.hostname,
			port: proxy.port || 80,
			method: "CONNECT",
			path: target,
			headers: { host: target, ...proxyAuth(proxy) },
		});
		const onAbort = () => req.destroy(new Error("This operation was aborted"));
		signal?.addEventListener("abort", onAbort, { once: true });
		req.once("connect", (res, socket) => {
			signal?.removeEventListener("abort", onAbort);
			if ((res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300) return resolve(socket);
			socket.destroy();
			reject(new TypeError(`fetch failed: proxy ${proxy.host} answered CONNECT with ${res.statusCode}`));
		});
		req.once("error", (err) => {
			signal?.removeEventListener("abort", onAbort);
			reject(new TypeError(`fetch failed: proxy ${proxy.host}: ${err.message}`, { cause: err }));
		});
		req.end();
	});
}
