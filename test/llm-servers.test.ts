// Retries owned by gar, request bodies, refusals, clean endings and reasoning, with the real SDKs over loopback.
import { afterEach, describe, expect, it } from "vitest";
import { createAnthropicProvider } from "../src/llm/anthropic.js";
import { createOpenAIProvider } from "../src/llm/openai.js";
import type { ProviderOptions } from "../src/llm/stream-driver.js";
import type { Message, ModelRequest, Provider, StreamEvent } from "../src/llm/types.js";
import { collect, startWireServer, type WireServer, type WireTurn } from "./support/wire-server.js";

let server: WireServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

type Wire = "anthropic" | "openai";
async function serve(wire: Wire, turns: WireTurn[], options: ProviderOptions = {}): Promise<Provider> {
	server = await startWireServer(turns);
	return wire === "anthropic"
		? createAnthropicProvider({ apiKey: "k", baseURL: server.url, ...options })
		: createOpenAIProvider({ apiKey: "k", baseURL: `${server.url}/v1`, ...options });
}
const retries = (events: StreamEvent[]) => events.filter((e) => e.type === "retry");

describe.each(["anthropic", "openai"] as const)("%s: gar's retries", (wire) => {
	it("gives one exact retry event for a 529, then streams the reply", async () => {
		const p = await serve(wire, [{ text: "ok", fault: { kind: "http", status: 529 } }]);
		const { events, message } = await collect(p);
		expect(events.map((e) => e.type)).toEqual(["start", "retry", "text_delta", "done"]);
		expect(events[1]).toEqual({
			type: "retry",
			attempt: 1,
			maxAttempts: 3,
			reason: "HTTP 529 overloaded",
			delayMs: 10,
			errorKind: "overloaded",
		});
		expect(message.stopReason).toBe("stop");
		expect(server?.requests.length).toBe(2);
	});

	it("honours retry-after in seconds", async () => {
		const fault = { kind: "http" as const, status: 429, headers: { "retry-after": "1" } };
		const p = await serve(wire, [{ text: "ok", fault }]);
		const started = Date.now();
		const { events, message } = await collect(p);
		expect(retries(events).map((e) => e.type === "retry" && e.delayMs)).toEqual([1000]);
		expect(Date.now() - started).toBeGreaterThanOrEqual(950);
		expect(message.stopReason).toBe("stop");
	});

	it("does not retry a 400", async () => {
		const p = await serve(wire, [{ text: "x", fault: { kind: "http", status: 400 } }]);
		const { events, message } = await collect(p);
		expect(retries(events)).toEqual([]);
		expect(message.stopReason).toBe("error");
		expect(message.errorKind).toBe("invalid_request");
		expect(server?.requests.length).toBe(1);
	});

	it("does not retry once the reply started streaming, and keeps the partial reply", async () => {
		const p = await serve(wire, [{ text: ["one ", "two"], fault: { kind: "cut", afterDeltas: 1 } }]);
		const { events, message } = await collect(p);
		expect(retries(events)).toEqual([]);
		expect(message.stopReason).toBe("error");
		expect(message.errorKind).toBe("network");
		expect(message.content).toEqual([{ type: "text", text: "one " }]);
		expect(server?.requests.length).toBe(1);
	});

	it("classifies a context overflow", async () => {
		const body =
			wire === "anthropic"
				? JSON.stringify({
						type: "error",
						error: { type: "invalid_request_error", message: "prompt is too long: 210000 tokens > 200000 maximum" },
					})
				: JSON.stringify({
						error: { message: "too long", type: "invalid_request_error", code: "context_length_exceeded" },
					});
		const p = await serve(wire, [{ text: "x", fault: { kind: "http", status: 400, body } }]);
		const { message } = await collect(p);
		expect(message.errorKind).toBe("overflow");
		expect(message.error).toMatch(/compact it or start anew/);
	});

	it("body() is exactly what the server received", async () => {
		const p = await serve(wire, [{ text: "ok" }]);
		const request: ModelRequest = {
			model: "claude-sonnet-4-5",
			system: "sys",
			messages: [{ role: "user", content: "hi" }],
			tools: [{ name: "read", description: "Read", parameters: { type: "object", properties: {} } }],
			thinking: "low",
			maxTokens: 5000,
		};
		const expected = p.body?.(request);
		await collect(p, request);
		expect(server?.requests[0]?.body).toEqual(expected);
	});

	it("a URL with userinfo never shows it", async () => {
		server = await startWireServer([]);
		const url = server.url.replace("http://", "http://user:secretpw@");
		await server.close();
		server = undefined;
		const p =
			wire === "anthropic"
				? createAnthropicProvider({ apiKey: "k", baseURL: url, maxRetries: 0 })
				: createOpenAIProvider({ apiKey: "k", baseURL: `${url}/v1`, maxRetries: 0 });
		const { message } = await collect(p);
		expect(message.error).toMatch(/unreachable/);
		expect(message.error).not.toContain("secretpw");
		expect(message.error).not.toContain("user:");
	});

	it("takes a reply whose end arrived as complete when the connection then drops", async () => {
		const quirks = { noMessageStop: true, cutAtEnd: true };
		const p = await serve(wire, [{ text: "kept", quirks }]);
		const { message } = await collect(p);
		expect(message.stopReason).toBe("stop");
		expect(message.error).toBeUndefined();
		expect(message.content).toEqual([{ type: "text", text: "kept" }]);
	});

	it("takes a reply whose end arrived as complete, without the final blank line", async () => {
		const quirks = { noMessageStop: true, noFinalBlankLine: true, noUsage: true, noDone: wire === "openai" };
		const p = await serve(wire, [{ text: "done", quirks }]);
		const { message } = await collect(p);
		expect(message.stopReason).toBe("stop");
		expect(message.content).toEqual([{ type: "text", text: "done" }]);
	});
});

describe("a JSON error where a stream was expected", () => {
	it("reads LM Studio's 200 with a JSON overflow error as an overflow", async () => {
		const body = JSON.stringify({
			error:
				"Trying to keep the first 15857 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough.",
		});
		const p = await serve("openai", [{ text: "never", fault: { kind: "http", status: 200, body } }]);
		const { events, message } = await collect(p);
		expect(message.stopReason).toBe("error");
		expect(message.errorKind).toBe("overflow");
		expect(message.error).toContain("Trying to keep the first 15857 tokens");
		expect(retries(events)).toEqual([]);
	});
});

describe("refusals", () => {
	it("OpenAI structured outputs: delta.refusal becomes the reply text, stopReason refusal", async () => {
		const p = await serve("openai", [{ quirks: { refusal: ["I'm sorry, ", "I can't help with that."] } }]);
		const { events, message } = await collect(p);
		expect(message.stopReason).toBe("refusal");
		expect(message.errorKind).toBe("refusal");
		expect(message.content).toEqual([{ type: "text", text: "I'm sorry, I can't help with that." }]);
		expect(events.filter((e) => e.type === "text_delta").length).toBe(2);
	});
});

describe("reasoning the server needs back", () => {
	const toolTurn = (field: "reasoning_content" | "reasoning"): WireTurn => ({
		thinking: ["Need ", "the file."],
		toolCalls: [{ id: "call_1", name: "read", args: { path: "a" } }],
		quirks: { reasoningField: field },
	});

	it("echoes reasoning_content on the next request's tool-calling assistant message", async () => {
		const p = await serve("openai", [toolTurn("reasoning_content"), { text: "done" }]);
		const first = await collect(p);
		expect(first.message.content[0]).toEqual({
			type: "thinking",
			thinking: "Need the file.",
			field: "reasoning_content",
		});
		const history: Message[] = [
			{ role: "user", content: "hi" },
			first.message,
			{ role: "tool_result", callId: "call_1", name: "read", content: "text", isError: false },
		];
		await collect(p, { messages: history });
		const sent = ((server?.requests[1]?.body ?? {}) as { messages: Record<string, unknown>[] }).messages;
		const assistant = sent.find((m) => m.role === "assistant");
		expect(assistant?.reasoning_content).toBe("Need the file.");
		expect(assistant?.tool_calls).toHaveLength(1);
	});

	it("never sends reasoning to a server that sent it in another field", async () => {
		const p = await serve("openai", [toolTurn("reasoning"), { text: "done" }]);
		const first = await collect(p);
		expect(first.message.content[0]).toEqual({ type: "thinking", thinking: "Need the file.", field: "reasoning" });
		const history: Message[] = [
			{ role: "user", content: "hi" },
			first.message,
			{ role: "tool_result", callId: "call_1", name: "read", content: "text", isError: false },
		];
		await collect(p, { messages: history });
		const sent = ((server?.requests[1]?.body ?? {}) as { messages: Record<string, unknown>[] }).messages;
		expect(sent.find((m) => m.role === "assistant")).not.toHaveProperty("reasoning_content");
	});
});

describe("reasoning inside the text", () => {
	it("splits <think> across deltas into a thinking block and never sends it back as text", async () => {
		const p = await serve("openai", [
			{ text: ["<thi", "nk>\nplan ", "it</th", "ink>\n\nThe ", "answer."] },
			{ text: "again" },
		]);
		const { events, message } = await collect(p);
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "\nplan it", field: "think_tag" },
			{ type: "text", text: "The answer." },
		]);
		expect(events.filter((e) => e.type === "thinking_delta").every((e) => e.contentIndex === 0)).toBe(true);
		expect(events.filter((e) => e.type === "text_delta").every((e) => e.contentIndex === 1)).toBe(true);
		await collect(p, { messages: [{ role: "user", content: "hi" }, message, { role: "user", content: "more" }] });
		const sent = ((server?.requests[1]?.body ?? {}) as { messages: { role: string; content: unknown }[] }).messages;
		expect(sent.find((m) => m.role === "assistant")?.content).toBe("The answer.");
	});

	it("keeps the tags as text when thinkTags is off", async () => {
		const p = await serve("openai", [{ text: ["<think>x</think>", "y"] }], { thinkTags: false });
		const { message } = await collect(p);
		expect(message.content).toEqual([{ type: "text", text: "<think>x</think>y" }]);
	});
});
