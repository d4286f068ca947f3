// Both adapters, with their real SDKs, against the same scripted turns served over loopback in each wire format.
import { afterEach, describe, expect, it } from "vitest";
import { createAnthropicProvider } from "../src/llm/anthropic.js";
import { createOpenAIProvider } from "../src/llm/openai.js";
import type { ProviderOptions } from "../src/llm/stream-driver.js";
import type { Provider, StreamEvent } from "../src/llm/types.js";
import { collect, joined, startWireServer, type WireServer, type WireTurn } from "./support/wire-server.js";

const KEY = "sk-wire-secret-0123456789abcdef";

type Format = { name: "anthropic" | "openai"; create(server: WireServer, options?: ProviderOptions): Provider };

const formats: Format[] = [
	{
		name: "anthropic",
		create: (server: WireServer, options: ProviderOptions = {}) =>
			createAnthropicProvider({ apiKey: KEY, baseURL: server.url, ...options }),
	},
	{
		name: "openai",
		create: (server: WireServer, options: ProviderOptions = {}) =>
			createOpenAIProvider({ apiKey: KEY, baseURL: `${server.url}/v1`, ...options }),
	},
];

let server: WireServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

async function serve(turns: WireTurn[], options: ProviderOptions, format: Format): Promise<Provider> {
	server = await startWireServer(turns);
	return format.create(server, options);
}

const retries = (events: StreamEvent[]) => events.filter((e) => e.type === "retry");

async function waitForDisconnect(): Promise<number> {
	for (let i = 0; i < 100 && !server?.disconnects; i++) await new Promise((r) => setTimeout(r, 10));
	return server?.disconnects ?? 0;
}

describe.each(formats)("$name over the wire", (format) => {
	const setup = (turns: WireTurn[], options: ProviderOptions = {}) => serve(turns, options, format);

	it("streams text split into many deltas, in order", async () => {
		const words = Array.from({ length: 40 }, (_, i) => `w${i} `);
		const { events, message } = await collect(await setup([{ text: words }]));
		expect(events[0]).toEqual({ type: "start" });
		expect(events.filter((e) => e.type === "text_delta").map((e) => (e as { delta: string }).delta)).toEqual(words);
		expect(message.content).toEqual([{ type: "text", text: words.join("") }]);
		expect(message.stopReason).toBe("stop");
		expect(message.provider).toBe(format.name);
	});

	it("assembles several tool calls whose arguments arrive in fragments", async () => {
		const args1 = { path: "src/a.ts", offset: 10, limit: 20 };
		const args2 = { command: "ls -la && echo 'done' \u00e9\u00e8" };
		const { events, message } = await collect(
			await setup([
				{
					text: "Reading.",
					toolCalls: [
						{ id: "call_a", name: "read", args: args1, chunks: 7 },
						{ id: "call_b", name: "bash", args: args2, chunks: 5 },
					],
				},
			]),
		);
		const starts = events.filter((e) => e.type === "toolcall_start");
		expect(starts).toEqual([
			{ type: "toolcall_start", id: "call_a", name: "read", contentIndex: 1 },
			{ type: "toolcall_start", id: "call_b", name: "bash", contentIndex: 2 },
		]);
		const fragments = events.filter((e) => e.type === "toolcall_delta" && e.id === "call_a");
		expect(fragments.length).toBe(7);
		expect(fragments.every((e) => e.type === "toolcall_delta" && e.contentIndex === 1)).toBe(true);
		const texts = events.filter((e) => e.type === "text_delta");
		expect(texts.every((e) => e.type === "text_delta" && e.contentIndex === 0)).toBe(true);
		expect(message.content).toEqual([
			{ type: "text", text: "Reading." },
			{ type: "tool_call", id: "call_a", name: "read", arguments: args1 },
			{ type: "tool_call", id: "call_b", name: "bash", arguments: args2 },
		]);
		expect(message.stopReason).toBe("tool_use");
	});

	it("reports usage with cache tokens, input excluding cached tokens", async () => {
		const usage = { input: 120, output: 33, cacheRead: 1000, cacheWrite: format.name === "anthropic" ? 50 : 0 };
		const { message } = await collect(await setup([{ text: "ok", usage }]));
		expect(message.usage).toEqual(usage);
	});

	it("maps the length stop reason", async () => {
		const { message } = await collect(await setup([{ text: "cut", stop: "length" }]));
		expect(message.stopReason).toBe("length");
	});

	it.each([429, 500, 529])("retries HTTP %i before the stream, with visible retry events", async (status) => {
		const provider = await setup([{ text: "recovered", fault: { kind: "http", status, times: 2 } }]);
		const { events, message } = await collect(provider);
		const reason = { 429: "HTTP 429 rate limited", 500: "HTTP 500 server error", 529: "HTTP 529 overloaded" }[status];
		const errorKind = { 429: "rate_limit", 500: "server", 529: "overloaded" }[status];
		expect(retries(events)).toEqual([
			{ type: "retry", attempt: 1, maxAttempts: 3, reason, delayMs: 10, errorKind },
			{ type: "retry", attempt: 2, maxAttempts: 3, reason, delayMs: 10, errorKind },
		]);
		expect(message.stopReason).toBe("stop");
		expect(message.content).toEqual([{ type: "text", text: "recovered" }]);
		expect(server?.requests.length).toBe(3);
	});

	it("ends with an actionable error when retries run out", async () => {
		const provider = await setup([{ text: "never", fault: { kind: "http", status: 529, times: 5 } }], {
			maxRetries: 2,
		});
		const { events, message } = await collect(provider);
		expect(retries(events).length).toBe(2);
		expect(message.stopReason).toBe("error");
		expect(message.error).toMatch(/error 529 \(overloaded_error\): Overloaded — the API is overloaded/);
		expect(server?.requests.length).toBe(3);
	});

	it("does not retry a 401 and names the key variable, without the key", async () => {
		const body =
			format.name === "anthropic"
				? JSON.stringify({
						type: "error",
						error: { type: "authentication_error", message: `invalid x-api-key ${KEY}` },
					})
				: JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}`, type: "invalid_request_error" } });
		const provider = await setup([{ text: "x", fault: { kind: "http", status: 401, body } }]);
		const { events, message } = await collect(provider);
		expect(retries(events)).toEqual([]);
		expect(message.stopReason).toBe("error");
		expect(message.error).toContain("error 401");
		expect(message.error).toContain(format.name === "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY");
		expect(JSON.stringify(events)).not.toContain(KEY);
		expect(JSON.stringify(events)).not.toContain(KEY.slice(3, 20));
	});

	it("keeps partial content when the connection is cut mid-stream", async () => {
		const provider = await setup([{ text: ["one ", "two ", "three"], fault: { kind: "cut", afterDeltas: 2 } }]);
		const { message } = await collect(provider);
		expect(message.stopReason).toBe("error");
		expect(message.content).toEqual([{ type: "text", text: "one two " }]);
		expect(message.error).toMatch(/connection lost mid-reply|ended before the reply was complete/);
	});

	it("ends with an error on a malformed SSE event, keeping partial content", async () => {
		const provider = await setup([{ text: ["alpha ", "beta"], fault: { kind: "malformed", afterDeltas: 1 } }]);
		const { message } = await collect(provider);
		expect(message.stopReason).toBe("error");
		expect(message.content).toEqual([{ type: "text", text: "alpha " }]);
		expect(message.error).toMatch(/malformed stream event/);
	});

	it("gives up on a stream that goes silent (idle timeout)", async () => {
		const provider = await setup([{ text: ["a", "b"], fault: { kind: "silence", afterDeltas: 1 } }], {
			idleTimeoutMs: 200,
		});
		const started = Date.now();
		const { message } = await collect(provider);
		expect(Date.now() - started).toBeLessThan(3000);
		expect(message.stopReason).toBe("error");
		expect(message.error).toBe(
			"no data from the server for 0.2 s; the request was abandoned " +
				"(raise the limit with --idle-timeout SECONDS, GAR_IDLE_TIMEOUT or idle_timeout in the config)",
		);
		expect(message.errorKind).toBe("timeout");
		expect(message.content).toEqual([{ type: "text", text: "a" }]);
		expect(await waitForDisconnect()).toBe(1);
	});

	it("stops on abort mid-stream, keeping the partial text", async () => {
		const provider = await setup([{ text: ["1", "2", "3", "4", "5", "6", "7", "8"], delayMs: 40 }]);
		const controller = new AbortController();
		const events: StreamEvent[] = [];
		const stream = provider.stream({
			model: "m",
			system: "",
			messages: [{ role: "user", content: "count" }],
			tools: [],
			signal: controller.signal,
		});
		let abortedAt = 0;
		for await (const event of stream) {
			events.push(event);
			if (event.type === "text_delta" && event.delta === "2") {
				controller.abort();
				abortedAt = Date.now();
			}
		}
		expect(Date.now() - abortedAt).toBeLessThan(100);
		const done = events[events.length - 1];
		expect(done?.type).toBe("done");
		if (done?.type !== "done") return;
		expect(done.message.stopReason).toBe("aborted");
		expect(done.message.content).toEqual([{ type: "text", text: "12" }]);
		expect(await waitForDisconnect()).toBe(1);
	});

	it("reports an unreachable server without throwing", async () => {
		server = await startWireServer([]);
		const provider = format.create(server, { maxRetries: 1, retry: { baseDelayMs: 20, random: () => 0 } });
		await server.close();
		server = undefined;
		const { events, message } = await collect(provider);
		expect(message.stopReason).toBe("error");
		expect(message.error).toMatch(/unreachable \(ECONNREFUSED\)/);
		expect(retries(events)).toEqual([
			{
				type: "retry",
				attempt: 1,
				maxAttempts: 1,
				reason: "connection error (ECONNREFUSED)",
				delayMs: 20,
				errorKind: "network",
			},
		]);
		expect(message.errorKind).toBe("network");
	});

	it("turns an error event inside the stream into an error reply", async () => {
		const provider = await setup([{ text: "partial", fault: { kind: "error", message: "Internal failure" } }]);
		const { message } = await collect(provider);
		expect(message.stopReason).toBe("error");
		expect(message.error).toContain("Internal failure");
		expect(message.content).toEqual([{ type: "text", text: "partial" }]);
	});

	it("works with the platform fetch too", async () => {
		const provider = await setup([{ text: ["via ", "undici"], toolCalls: [{ name: "read", args: { path: "x" } }] }], {
			fetch: globalThis.fetch,
		});
		const { events, message } = await collect(provider);
		expect(message.stopReason).toBe("tool_use");
		expect(joined(events, "text_delta")).toBe("via undici");
		expect(message.content[1]).toEqual({ type: "tool_call", id: "call_1", name: "read", arguments: { path: "x" } });
	});
});
