import { afterEach, describe, expect, it } from "vitest";
import { buildOpenAIParams, createOpenAIProvider } from "../src/llm/openai.js";
import { NOT_RUN_RESULT } from "../src/llm/transform.js";
import { type AssistantMessage, EMPTY_USAGE, type Message, type ModelRequest } from "../src/llm/types.js";
import { collect, joined, startWireServer, type WireServer, type WireTurn } from "./support/wire-server.js";

let server: WireServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

async function provider(turns: WireTurn[], path = "/v1") {
	server = await startWireServer(turns);
	return createOpenAIProvider({ apiKey: "test-key", baseURL: `${server.url}${path}` });
}

const sentBody = (i = 0) => server?.requests[i]?.body as Record<string, unknown>;

const request = (over: Partial<ModelRequest> = {}): ModelRequest => ({
	model: "llama3.1:8b",
	system: "sys",
	messages: [{ role: "user", content: "hi" }],
	tools: [],
	...over,
});

const assistant = (content: AssistantMessage["content"], stopReason: AssistantMessage["stopReason"] = "tool_use") =>
	({ role: "assistant", content, provider: "openai", model: "m", usage: EMPTY_USAGE, stopReason }) as AssistantMessage;

describe("openai request shape", () => {
	it("streams with include_usage, system first, tools as functions, no max_tokens by default", async () => {
		const tools = [
			{
				name: "bash",
				description: "Run a command",
				parameters: { $schema: "x", type: "object", properties: { command: { type: "string" } } },
			},
		];
		await collect(await provider([{ text: "ok" }]), { model: "llama3.1:8b", tools });
		const req = server?.requests[0];
		expect(req?.path).toBe("/v1/chat/completions");
		expect(req?.headers.authorization).toBe("Bearer test-key");
		const body = sentBody();
		expect(body.stream).toBe(true);
		expect(body.stream_options).toEqual({ include_usage: true });
		expect(body.messages).toEqual([
			{ role: "system", content: "You are terse." },
			{ role: "user", content: "hi" },
		]);
		expect(body.tools).toEqual([
			{
				type: "function",
				function: {
					name: "bash",
					description: "Run a command",
					parameters: { type: "object", properties: { command: { type: "string" } } },
				},
			},
		]);
		expect(body).not.toHaveProperty("max_tokens");
		expect(body).not.toHaveProperty("max_completion_tokens");
		expect(body).not.toHaveProperty("reasoning_effort");
	});

	it("sends assistant tool calls as JSON strings and results as role tool", () => {
		const history: Message[] = [
			{ role: "user", content: "go" },
			assistant([
				{ type: "thinking", thinking: "hidden" },
				{ type: "text", text: "Running." },
				{ type: "tool_call", id: "c1", name: "bash", arguments: { command: "ls" } },
				{ type: "tool_call", id: "c2", name: "edit", arguments: {}, rawArguments: '{"path": ' },
			]),
			{ role: "tool_result", callId: "c1", name: "bash", content: "a.txt", isError: false },
		];
		const params = buildOpenAIParams(request({ messages: history }));
		expect(params.messages).toEqual([
			{ role: "system", content: "sys" },
			{ role: "user", content: "go" },
			{
				role: "assistant",
				content: "Running.",
				tool_calls: [
					{ id: "c1", type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } },
					{ id: "c2", type: "function", function: { name: "edit", arguments: '{"path": ' } },
				],
			},
			{ role: "tool", tool_call_id: "c1", content: "a.txt" },
			{ role: "tool", tool_call_id: "c2", content: NOT_RUN_RESULT },
		]);
	});

	it("uses max_completion_tokens and reasoning_effort for OpenAI's models, max_tokens for others", () => {
		const own = buildOpenAIParams(request({ model: "o4-mini", maxTokens: 1000, thinking: "high" }));
		expect(own.max_completion_tokens).toBe(1000);
		expect(own.reasoning_effort).toBe("high");
		expect(own).not.toHaveProperty("max_tokens");
		const other = buildOpenAIParams(request({ maxTokens: 500, thinking: "high" }));
		expect(other.max_tokens).toBe(500);
		expect(other).not.toHaveProperty("reasoning_effort");
		expect(buildOpenAIParams(request({ model: "gpt-4.1", thinking: "high" }))).not.toHaveProperty("reasoning_effort");
	});

	it("asks for JSON Schema output and turns tools off for structured output", async () => {
		const responseSchema = { name: "verdict", schema: { type: "object", properties: { ok: { type: "boolean" } } } };
		const tools = [{ name: "read", description: "r", parameters: { type: "object" } }];
		const { message } = await collect(await provider([{ text: ['{"ok":', "true}"] }]), { responseSchema, tools });
		const body = sentBody();
		expect(body.response_format).toEqual({
			type: "json_schema",
			json_schema: { name: "verdict", schema: responseSchema.schema, strict: false },
		});
		expect(body.tool_choice).toBe("none");
		expect(message.content).toEqual([{ type: "text", text: '{"ok":true}' }]);
		expect(message.stopReason).toBe("stop");
	});
});

describe("openai stream mapping", () => {
	it("maps reasoning_content and reasoning deltas to thinking", async () => {
		const p = await provider([
			{ thinking: ["a ", "b"], text: "c" },
			{ thinking: ["x"], text: "y", quirks: { reasoningField: "reasoning" } },
		]);
		const first = await collect(p);
		expect(joined(first.events, "thinking_delta")).toBe("a b");
		expect(first.message.content).toEqual([
			{ type: "thinking", thinking: "a b", field: "reasoning_content" },
			{ type: "text", text: "c" },
		]);
		const second = await collect(p);
		expect(second.message.content[0]).toEqual({ type: "thinking", thinking: "x", field: "reasoning" });
	});

	it("serves a base URL without /v1 (chat/completions at the root)", async () => {
		const { message } = await collect(await provider([{ text: "root" }], ""));
		expect(server?.requests[0]?.path).toBe("/chat/completions");
		expect(message.content).toEqual([{ type: "text", text: "root" }]);
	});

	it("tolerates a server without usage, tool ids or proper finish reasons", async () => {
		const turn: WireTurn = {
			text: "calling",
			toolCalls: [
				{ name: "read", args: { path: "a" } },
				{ name: "read", args: { path: "b" } },
			],
			quirks: { noUsage: true, noToolIds: true, stopForToolCalls: true, emptyChunk: true },
		};
		const { message } = await collect(await provider([turn]));
		expect(message.stopReason).toBe("tool_use");
		expect(message.usage).toEqual(EMPTY_USAGE);
		const calls = message.content.filter((b) => b.type === "tool_call");
		expect(calls.map((c) => c.type === "tool_call" && c.arguments)).toEqual([{ path: "a" }, { path: "b" }]);
		const ids = calls.map((c) => (c.type === "tool_call" ? c.id : ""));
		expect(new Set(ids).size).toBe(2);
		for (const id of ids) expect(id).toMatch(/^call_\d_/);
	});

	it("ends with an error when the body ends without a finish reason, usage or [DONE]", async () => {
		const turn: WireTurn = { text: "half", quirks: { noFinishReason: true, noUsage: true, noDone: true } };
		const { message } = await collect(await provider([turn]));
		expect(message.stopReason).toBe("error");
		expect(message.errorKind).toBe("network");
		expect(message.error).toMatch(/ended before the reply was complete/);
		expect(message.content).toEqual([{ type: "text", text: "half" }]);
	});

	it("takes a reply without finish_reason as complete when [DONE] or a last usage chunk arrived", async () => {
		const p = await provider([
			{ text: "cortex", quirks: { noFinishReason: true } },
			{ text: "usage last", quirks: { noFinishReason: true, noDone: true } },
			{ toolCalls: [{ name: "read", args: { path: "a" } }], quirks: { noFinishReason: true, noUsage: true } },
		]);
		expect((await collect(p)).message.stopReason).toBe("stop");
		expect((await collect(p)).message.stopReason).toBe("stop");
		const tools = await collect(p);
		expect(tools.message.stopReason).toBe("tool_use");
		expect(tools.message.content).toEqual([
			{ type: "tool_call", id: "call_1", name: "read", arguments: { path: "a" } },
		]);
	});

	it("ends a content_filter stop as an error of kind refusal", async () => {
		const { message } = await collect(await provider([{ text: "bad", wireStop: "content_filter" }]));
		expect(message.stopReason).toBe("error");
		expect(message.errorKind).toBe("refusal");
		expect(message.error).toMatch(/content filter/);
	});

	it("reports a missing key for the OpenAI endpoint, but needs none for a local base URL", async () => {
		const saved = process.env.OPENAI_API_KEY;
		delete process.env.OPENAI_API_KEY;
		try {
			const { message } = await collect(createOpenAIProvider({}));
			expect(message.error).toMatch(/OPENAI_API_KEY/);
			server = await startWireServer([{ text: "local" }]);
			const local = await collect(createOpenAIProvider({ baseURL: `${server.url}/v1` }));
			expect(local.message.content).toEqual([{ type: "text", text: "local" }]);
		} finally {
			if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
		}
	});
});
