import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterEach, describe, expect, it } from "vitest";
import { createAnthropicProvider } from "../src/llm/anthropic.js";
import { AsyncQueue } from "../src/llm/async-queue.js";
import { describeError, describeStatus, redact } from "../src/llm/errors.js";
import { createProvider } from "../src/llm/index.js";
import { parseArguments } from "../src/llm/message-builder.js";
import { createOpenAIProvider } from "../src/llm/openai.js";
import { DEFAULT_RETRY, retryDelayMs, serverDelayMs } from "../src/llm/retry.js";
import type { StreamEvent } from "../src/llm/types.js";
import { collect, startWireServer, type WireServer } from "./support/wire-server.js";

let server: WireServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

const headers = (values: Record<string, string>) => new Headers(values);

describe("retry policy", () => {
	const policy = { ...DEFAULT_RETRY, random: () => 0 };

	it("describes statuses", () => {
		expect(describeStatus(529)).toBe("HTTP 529 overloaded");
		expect(describeStatus(429)).toBe("HTTP 429 rate limited");
		expect(describeStatus(418)).toBe("HTTP 418 i'm a teapot");
		expect(describeStatus(599)).toBe("HTTP 599");
	});

	it("honours retry-after-ms, retry-after in seconds or as a date, capped", () => {
		expect(retryDelayMs(1, headers({ "retry-after-ms": "25" }), policy)).toBe(25);
		expect(retryDelayMs(1, headers({ "retry-after": "2" }), policy)).toBe(2000);
		expect(retryDelayMs(1, headers({ "retry-after": "3600" }), policy)).toBe(60_000);
		const date = new Date(Date.now() + 5000).toUTCString();
		const fromDate = retryDelayMs(1, headers({ "retry-after": date }), policy);
		expect(fromDate).toBeGreaterThan(3000);
		expect(fromDate).toBeLessThanOrEqual(5000);
		expect(serverDelayMs(headers({ "retry-after": "soon" }))).toBeUndefined();
	});

	it("backs off exponentially with up to 25 % jitter", () => {
		expect(retryDelayMs(1, undefined, policy)).toBe(1000);
		expect(retryDelayMs(2, undefined, policy)).toBe(2000);
		expect(retryDelayMs(3, undefined, policy)).toBe(4000);
		expect(retryDelayMs(9, undefined, policy)).toBe(16_000);
		expect(retryDelayMs(1, undefined, { ...policy, random: () => 0.999 })).toBe(750);
	});
});

describe("errors", () => {
	it("redacts the key and anything shaped like one", () => {
		expect(redact("bad key abc123secret!", ["abc123secret"])).toBe("bad key [redacted]!");
		expect(redact("Incorrect API key provided: sk-proj-AbCdEf123456", [])).toBe(
			"Incorrect API key provided: sk-pr…[redacted]",
		);
	});

	it("writes status, type, message and a hint", () => {
		const error = {
			status: 401,
			error: { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } },
		};
		const ctx = { api: "Anthropic API", keyEnv: "ANTHROPIC_API_KEY", secrets: [] };
		expect(describeError(error, ctx)).toBe(
			"Anthropic API error 401 (authentication_error): invalid x-api-key — check ANTHROPIC_API_KEY",
		);
	});
});

describe("parseArguments", () => {
	it("parses objects, keeps anything else raw", () => {
		expect(parseArguments('{"a":1}')).toEqual({ arguments: { a: 1 } });
		expect(parseArguments("")).toEqual({ arguments: {} });
		expect(parseArguments("[1]")).toEqual({ arguments: {}, rawArguments: "[1]" });
		expect(parseArguments('{"a":')).toEqual({ arguments: {}, rawArguments: '{"a":' });
	});
});

describe("AsyncQueue", () => {
	it("delivers items pushed before and after the consumer waits, then ends on close", async () => {
		const channel = new AsyncQueue<number>();
		channel.push(1);
		const got: number[] = [];
		const done = (async () => {
			for await (const n of channel) got.push(n);
		})();
		await new Promise((r) => setTimeout(r, 5));
		channel.push(2);
		channel.push(3);
		channel.close();
		channel.push(4);
		await done;
		expect(got).toEqual([1, 2, 3]);
	});
});

describe("stream lifecycle", () => {
	it("a consumer that stops early aborts the request", async () => {
		server = await startWireServer([{ text: Array.from({ length: 50 }, (_, i) => `${i} `), delayMs: 20 }]);
		const provider = createOpenAIProvider({ apiKey: "k", baseURL: `${server.url}/v1` });
		for await (const event of provider.stream({ model: "m", system: "", messages: [], tools: [] })) {
			if (event.type === "text_delta") break;
		}
		for (let i = 0; i < 50 && server.disconnects === 0; i++) await new Promise((r) => setTimeout(r, 10));
		expect(server.disconnects).toBe(1);
	});

	it("an abort during gar's retry backoff ends the stream at once", async () => {
		server = await startWireServer([
			{ text: "late", fault: { kind: "http", status: 529, times: 1, headers: { "retry-after": "30" } } },
		]);
		const provider = createAnthropicProvider({ apiKey: "k", baseURL: server.url });
		const controller = new AbortController();
		const events: StreamEvent[] = [];
		const started = Date.now();
		for await (const event of provider.stream({
			model: "m",
			system: "",
			messages: [{ role: "user", content: "x" }],
			tools: [],
			signal: controller.signal,
		})) {
			events.push(event);
			if (event.type === "retry") controller.abort();
		}
		expect(Date.now() - started).toBeLessThan(400);
		expect(events.map((e) => e.type)).toEqual(["start", "retry", "done"]);
		expect(events[1]).toEqual({
			type: "retry",
			attempt: 1,
			maxAttempts: 3,
			reason: "HTTP 529 overloaded",
			delayMs: 30_000,
			errorKind: "overloaded",
		});
		const done = events[2];
		expect(done?.type === "done" && done.message.stopReason).toBe("aborted");
		expect(done?.type === "done" && done.message.errorKind).toBe("aborted");
		expect(server.requests.length).toBe(1);
	});

	it("uses the lean fetch by default", async () => {
		server = await startWireServer([{ text: "x" }]);
		await collect(createOpenAIProvider({ apiKey: "k", baseURL: `${server.url}/v1` }));
		expect(server.requests[0]?.headers["accept-encoding"]).toBe("identity");
	});
});

describe("createProvider", () => {
	it("creates each provider by name", async () => {
		expect((await createProvider("anthropic", { apiKey: "k" })).name).toBe("anthropic");
		expect((await createProvider("openai", { apiKey: "k" })).name).toBe("openai");
		const scripted = await createProvider("scripted", { script: [{ text: "hi" }] });
		const { message } = await collect(scripted);
		expect(message.content).toEqual([{ type: "text", text: "hi" }]);
	});

	it("keeps each SDK out of the entry chunk (they load lazily)", async () => {
		const entry = fileURLToPath(new URL("../src/llm/index.ts", import.meta.url));
		const result = await build({
			entryPoints: [entry],
			bundle: true,
			splitting: true,
			format: "esm",
			platform: "node",
			outdir: "/tmp/gar-llm-split",
			write: false,
			metafile: true,
			logLevel: "silent",
		});
		const outputs = Object.entries(result.metafile.outputs);
		const main = outputs.find(([, out]) => out.entryPoint?.endsWith("src/llm/index.ts"));
		const inputs = Object.keys(main?.[1].inputs ?? {});
		expect(inputs.length).toBeGreaterThan(0);
		expect(inputs.filter((i) => i.includes("node_modules"))).toEqual([]);
		const chunkInputs = outputs.flatMap(([, out]) => Object.keys(out.inputs));
		expect(chunkInputs.some((i) => i.includes("@anthropic-ai/sdk"))).toBe(true);
		expect(chunkInputs.some((i) => i.includes("node_modules/openai"))).toBe(true);
	});
});
