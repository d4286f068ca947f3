import { afterEach, describe, expect, it } from "vitest";
import { buildAnthropicParams, createAnthropicProvider } from "../src/llm/anthropic.js";
import { NOT_RUN_RESULT } from "../src/llm/transform.js";
import { type AssistantMessage, EMPTY_USAGE, type Message, type ModelRequest } from "../src/llm/types.js";
import { collect, joined, startWireServer, type WireServer, type WireTurn } from "./support/wire-server.js";

let server: WireServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

async function provider(turns: WireTurn[]) {
	server = await startWireServer(turns);
	return createAnthropicProvider({ apiKey: "test-key", baseURL: server.url });
}

type Body = Record<string, unknown> & { messages: { role: string; content: Record<string, unknown>[] }[] };
const sentBody = (i = 0) => server?.requests[i]?.body as Body;

const assistant = (content: AssistantMessage["content"], stopReason: AssistantMessage["stopReason"] = "tool_use") =>
	({
		role: "assistant",
		content,
		provider: "anthropic",
		model: "m",
		usage: EMPTY_USAGE,
		stopReason,
	}) as AssistantMessage;

const request = (over: Partial<ModelRequest> = {}): ModelRequest => ({
	model: "claude-sonnet-4-5",
	system: "sys",
	messages: [{ role: "user", content: "hi" }],
	tools: [],
	...over,
});

describe("anthropic request shape", () => {
	it("posts to /v1/messages with the key, streaming, cache breakpoints on system and the last block", async () => {
		const tools = [
			{
				name: "read",
				description: "Read a file",
				parameters: {
					$schema: "https://json-schema.org/draft/2020-12/schema",
					type: "object",
					properties: { path: { type: "string" } },
					required: ["path"],
				},
			},
		];
		await collect(await provider([{ text: "ok" }]), { tools, system: "Be brief." });
		const req = server?.requests[0];
		expect(req?.path).toBe("/v1/messages");
		expect(req?.headers.authorization).toBe("Bearer test-key");
		expect(req?.headers["anthropic-version"]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
		expect(req?.headers["x-stainless-retry-count"] ?? "0").toBe("0");
		const body = sentBody();
		expect(body.stream).toBe(true);
		expect(body.max_tokens).toBe(32_000);
		expect(body.system).toEqual([{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } }]);
		expect(body.messages).toEqual([
			{ role: "user", content: [{ type: "text", text: "hi", cache_control: { type: "ephemeral" } }] },
		]);
		expect(body.tools).toEqual([
			{
				name: "read",
				description: "Read a file",
				input_schema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
			},
		]);
		expect(body.thinking).toBeUndefined();
	});

	it("groups consecutive tool results into one user message and sends signed thinking back", () => {
		const history: Message[] = [
			{ role: "user", content: "look" },
			assistant([
				{ type: "thinking", thinking: "plan", signature: "sig-1" },
				{ type: "thinking", thinking: "unsigned, from elsewhere" },
				{ type: "thinking", thinking: "", signature: "opaque", redacted: true },
				{ type: "text", text: "Reading both." },
				{ type: "tool_call", id: "call_1", name: "read", arguments: { path: "a" } },
				{ type: "tool_call", id: "call.2", name: "read", arguments: { path: "b" } },
			]),
			{ role: "tool_result", callId: "call_1", name: "read", content: "A", isError: false },
			{ role: "tool_result", callId: "call.2", name: "read", content: "no such file", isError: true },
		];
		const { params } = buildAnthropicParams(request({ messages: history }));
		expect(params.messages).toEqual([
			{ role: "user", content: [{ type: "text", text: "look" }] },
			{
				role: "assistant",
				content: [
					{ type: "thinking", thinking: "plan", signature: "sig-1" },
					{ type: "redacted_thinking", data: "opaque" },
					{ type: "text", text: "Reading both." },
					{ type: "tool_use", id: "call_1", name: "read", input: { path: "a" } },
					{ type: "tool_use", id: "call_2", name: "read", input: { path: "b" } },
				],
			},
			{
				role: "user",
				content: [
					{ type: "tool_result", tool_use_id: "call_1", content: "A" },
					{
						type: "tool_result",
						tool_use_id: "call_2",
						content: "no such file",
						is_error: true,
						cache_control: { type: "ephemeral" },
					},
				],
			},
		]);
	});

	it("answers an aborted reply's tool calls and merges them with the next user message", () => {
		const history: Message[] = [
			{ role: "user", content: "go" },
			assistant([{ type: "tool_call", id: "t1", name: "bash", arguments: { command: "sleep 9" } }], "aborted"),
			{ role: "user", content: "never mind" },
		];
		const { params } = buildAnthropicParams(request({ messages: history }));
		expect(params.messages[2]).toEqual({
			role: "user",
			content: [
				{ type: "tool_result", tool_use_id: "t1", content: NOT_RUN_RESULT, is_error: true },
				{ type: "text", text: "never mind", cache_control: { type: "ephemeral" } },
			],
		});
	});

	it("asks for extended thinking with a budget below max_tokens on budget models", () => {
		const high = buildAnthropicParams(request({ thinking: "high" })).params;
		expect(high.thinking).toEqual({ type: "enabled", budget_tokens: 16384 });
		expect(high.max_tokens).toBe(32_000);
		const capped = buildAnthropicParams(request({ thinking: "medium", maxTokens: 4096 })).params;
		expect(capped.max_tokens).toBe(4096);
		expect(capped.thinking).toEqual({ type: "enabled", budget_tokens: 3072 });
		const low = buildAnthropicParams(request({ thinking: "low", maxTokens: 1500 })).params;
		expect(low.thinking).toBeUndefined();
	});

	it("uses adaptive thinking with an effort on newer models, and none for unknown models", () => {
		const adaptive = buildAnthropicParams(request({ model: "claude-opus-4-6", thinking: "medium" })).params;
		expect(adaptive.thinking).toEqual({ type: "adaptive" });
		expect(adaptive.output_config).toEqual({ effort: "medium" });
		const off = buildAnthropicParams(request({ model: "claude-sonnet-5", thinking: "off" })).params;
		expect(off.thinking).toEqual({ type: "disabled" });
		const unknown = buildAnthropicParams(request({ model: "claude-next-9", thinking: "high" })).params;
		expect(unknown.thinking).toBeUndefined();
		expect(unknown.max_tokens).toBe(8192);
	});
});

describe("anthropic stream mapping", () => {
	it("streams thinking with its signature, then text", async () => {
		const { events, message } = await collect(
			await provider([{ thinking: ["Let me ", "think."], text: ["An", "swer"], usage: { input: 5, output: 9 } }]),
		);
		expect(joined(events, "thinking_delta")).toBe("Let me think.");
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "Let me think.", signature: "sig-0" },
			{ type: "text", text: "Answer" },
		]);
		expect(message.usage).toEqual({ input: 5, output: 9, cacheRead: 0, cacheWrite: 0 });
	});

	it.each([
		["end_turn", "stop"],
		["stop_sequence", "stop"],
		["max_tokens", "length"],
		["tool_use", "tool_use"],
		["model_context_window_exceeded", "length"],
	])("maps stop_reason %s to %s", async (wireStop, expected) => {
		const { message } = await collect(await provider([{ text: "x", wireStop }]));
		expect(message.stopReason).toBe(expected);
		expect(message.error).toBeUndefined();
	});

	it("ends a refusal as stopReason refusal, keeping the model's words", async () => {
		const { message } = await collect(await provider([{ text: "I can't", wireStop: "refusal" }]));
		expect(message.stopReason).toBe("refusal");
		expect(message.errorKind).toBe("refusal");
		expect(message.error).toBeUndefined();
		expect(message.content).toEqual([{ type: "text", text: "I can't" }]);
	});

	it("keeps unparsable tool arguments as rawArguments", async () => {
		const turn: WireTurn = { toolCalls: [{ name: "edit", args: {} }], rawArgs: ['{"path": "x", "edits": ['] };
		const { message } = await collect(await provider([turn]));
		expect(message.content).toEqual([
			{ type: "tool_call", id: "call_1", name: "edit", arguments: {}, rawArguments: '{"path": "x", "edits": [' },
		]);
		expect(message.stopReason).toBe("tool_use");
	});
});

describe("anthropic structured output", () => {
	const responseSchema = {
		name: "verdict",
		schema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
	};

	it("forces a tool named like the schema and returns its input as JSON text", async () => {
		const p = await provider([{ toolCalls: [{ name: "verdict", args: { ok: true }, chunks: 4 }] }]);
		const tools = [{ name: "read", description: "r", parameters: { type: "object" } }];
		const { events, message } = await collect(p, { responseSchema, tools, thinking: "high" });
		const body = sentBody();
		expect(body.tool_choice).toEqual({ type: "tool", name: "verdict" });
		expect((body.tools as { name: string }[]).map((t) => t.name)).toEqual(["read", "verdict"]);
		expect(body.thinking).toBeUndefined();
		expect(events.some((e) => e.type === "toolcall_start")).toBe(false);
		expect(joined(events, "text_delta")).toBe('{"ok":true}');
		expect(message.content).toEqual([{ type: "text", text: '{"ok":true}' }]);
		expect(message.stopReason).toBe("stop");
	});

	it("uses output_config.format on models that always think", () => {
		const { params, schemaTool } = buildAnthropicParams(request({ model: "claude-opus-5-5", responseSchema }));
		expect(schemaTool).toBeUndefined();
		expect(params.tool_choice).toBeUndefined();
		expect(params.output_config).toEqual({ format: { type: "json_schema", schema: responseSchema.schema } });
	});
});

describe("anthropic without a key", () => {
	it("ends with an error naming the variable, before any request", async () => {
		const saved = process.env.ANTHROPIC_API_KEY;
		delete process.env.ANTHROPIC_API_KEY;
		try {
			const { message } = await collect(createAnthropicProvider({}));
			expect(message.stopReason).toBe("error");
			expect(message.error).toMatch(/ANTHROPIC_API_KEY/);
		} finally {
			if (saved !== undefined) process.env.ANTHROPIC_API_KEY = saved;
		}
	});
});
