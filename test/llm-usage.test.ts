// Usage after a reply that never finished: an abort, a cut connection. The real SDKs against the wire server.
import { afterEach, describe, expect, it } from "vitest";
import { EventChannel } from "../src/agent/channel.js";
import type { AgentEvent } from "../src/agent/events.js";
import { Agent } from "../src/agent/loop.js";
import { createAnthropicProvider } from "../src/llm/anthropic.js";
import { costUsd } from "../src/llm/models.js";
import { createOpenAIProvider } from "../src/llm/openai.js";
import type { Provider, StreamEvent } from "../src/llm/types.js";
import { runGar, tempHome } from "./support/cli.js";
import { collect, startWireServer, type WireServer } from "./support/wire-server.js";

let server: WireServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

/** Twelve 20-character deltas: 240 characters, about 60 tokens, if all of them arrive. */
const DELTAS = Array.from({ length: 12 }, (_, i) => `word${String(i).padStart(2, "0")} and some more `);

function providerFor(wire: "anthropic" | "openai", url: string): Provider {
	const options = { apiKey: "k", maxRetries: 0 };
	return wire === "anthropic"
		? createAnthropicProvider({ ...options, baseURL: url })
		: createOpenAIProvider({ ...options, baseURL: `${url}/v1` });
}

/** Streams until `deltas` text deltas arrived, then aborts; returns the events. */
async function abortAfter(provider: Provider, deltas: number): Promise<StreamEvent[]> {
	const controller = new AbortController();
	const events: StreamEvent[] = [];
	const request = { model: "m", system: "", messages: [{ role: "user" as const, content: "x" }], tools: [] };
	let seen = 0;
	for await (const event of provider.stream({ ...request, signal: controller.signal })) {
		events.push(event);
		if (event.type === "text_delta" && ++seen === deltas) controller.abort();
	}
	return events;
}

const streamedChars = (events: StreamEvent[]) =>
	events.reduce((n, e) => n + (e.type === "text_delta" ? e.delta.length : 0), 0);

describe.each(["anthropic", "openai"] as const)("usage of a %s reply that never finished", (wire) => {
	it("an abort mid-stream counts the streamed text as estimated output", async () => {
		server = await startWireServer([{ text: DELTAS, delayMs: 30, usage: { input: 1200, output: 400 } }]);
		const events = await abortAfter(providerFor(wire, server.url), 4);
		const done = events.at(-1);
		if (done?.type !== "done") throw new Error("no final message");
		expect(done.message.stopReason).toBe("aborted");
		const chars = streamedChars(events);
		expect(chars).toBeGreaterThanOrEqual(80);
		expect(done.message.usage).toMatchObject({ output: Math.ceil(chars / 4), estimated: true });
		// Anthropic reports the input when the reply opens: it stays as reported.
		expect(done.message.usage.input).toBe(wire === "anthropic" ? 1200 : 0);
	});

	it("a cut connection counts the streamed text as estimated output", async () => {
		server = await startWireServer([
			{ text: DELTAS, usage: { input: 1200, output: 400 }, fault: { kind: "cut", afterDeltas: 5 } },
		]);
		const { events, message } = await collect(providerFor(wire, server.url), { model: "m" });
		expect(message.stopReason).toBe("error");
		expect(message.errorKind).toBe("network");
		expect(message.usage).toMatchObject({ output: Math.ceil(streamedChars(events) / 4), estimated: true });
	});

	it("a finished reply keeps the reported usage, unmarked", async () => {
		server = await startWireServer([{ text: DELTAS, usage: { input: 1200, output: 400 } }]);
		const { message } = await collect(providerFor(wire, server.url), { model: "m" });
		expect(message.usage).toEqual({ input: 1200, output: 400, cacheRead: 0, cacheWrite: 0 });
		expect(message.usage.estimated).toBeUndefined();
	});

	it("a failure before anything streamed estimates nothing", async () => {
		server = await startWireServer([{ text: DELTAS, fault: { kind: "cut", afterDeltas: 0 } }]);
		const { message } = await collect(providerFor(wire, server.url), { model: "m" });
		expect(message.stopReason).toBe("error");
		expect(message.usage.estimated).toBeUndefined();
	});
});

describe("the cost of a cut reply", () => {
	it("the loop estimates the input of a reply cut before any usage report, so a priced model never costs $0", async () => {
		server = await startWireServer([
			{ text: DELTAS, usage: { input: 1200, output: 400 }, fault: { kind: "cut", afterDeltas: 5 } },
		]);
		const channel = new EventChannel();
		const events: AgentEvent[] = [];
		channel.subscribe((e) => events.push(e));
		const system = { text: "You are terse.".repeat(40), parts: [] };
		const provider = providerFor("openai", server.url);
		const agent = new Agent({ provider, model: "gpt-5", system, tools: [], channel });
		const result = await agent.run("say something long");
		const end = events.find((e) => e.type === "message_end");
		if (end?.type !== "message_end") throw new Error("no message_end");
		const { usage } = end.message;
		expect(usage.estimated).toBe(true);
		// The system prompt alone is 560 characters: at least 140 tokens were sent.
		expect(usage.input).toBeGreaterThanOrEqual(140);
		expect(usage.output).toBeGreaterThan(0);
		expect(end.costUsd).toBe(costUsd("gpt-5", usage));
		expect(end.costUsd).toBeGreaterThan(0);
		expect(result.usage.estimated).toBe(true);
	});

	it("gar -p --output json reports the estimate, marked", async () => {
		server = await startWireServer([
			{ text: DELTAS, usage: { input: 1200, output: 400 }, fault: { kind: "cut", afterDeltas: 5 } },
		]);
		const { project, env } = tempHome();
		const run = await runGar(
			["-p", "hi", "--output", "json", "--provider", "openai", "--model", "gpt-5", "--base-url", server.url],
			{ env: { ...env, OPENAI_API_KEY: "k" }, cwd: project },
		);
		expect(run.code).toBe(1);
		const result = JSON.parse(run.stdout);
		expect(result.stopReason).toBe("error");
		expect(result.usage.estimated).toBe(true);
		expect(result.usage.output).toBeGreaterThan(0);
		expect(result.usage.input).toBeGreaterThan(0);
		expect(result.costUsd).toBeGreaterThan(0);
	});
});
