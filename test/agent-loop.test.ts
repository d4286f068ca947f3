import { describe, expect, it } from "vitest";
import { EventChannel } from "../src/agent/channel.js";
import type { AgentEvent } from "../src/agent/events.js";
import { Agent, type AgentOptions } from "../src/agent/loop.js";
import { checkAnswer } from "../src/agent/structured.js";
import { compileValidator } from "../src/agent/validate.js";
import { createScriptedProvider, type ScriptedTurn } from "../src/llm/scripted.js";
import * as z from "../src/text/zod.js";
import type { ReadDetails } from "../src/tools/details.js";
import type { Tool } from "../src/tools/types.js";

const SYSTEM = { text: "sys", parts: [{ source: "base" as const, text: "sys" }] };

type EchoArgs = { text: string };

/** A real tool (the loop's contract is what is tested): records its calls and echoes its argument. */
function echoTool(
	calls: string[] = [],
	options: { wait?: boolean; mutating?: boolean } = {},
): Tool<EchoArgs, ReadDetails> {
	return {
		name: "echo",
		description: "echo text",
		parameters: z.object({ text: z.string() }),
		mutating: options.mutating ?? false,
		async execute(args, ctx) {
			calls.push(args.text);
			if (options.wait) {
				await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
				throw new Error("echo aborted");
			}
			ctx.onUpdate?.({ kind: "bash", command: "echo", output: args.text, totalLines: 1, totalBytes: 1, elapsedMs: 0 });
			const details: ReadDetails = {
				kind: "read",
				path: args.text,
				startLine: 1,
				endLine: 1,
				totalLines: 1,
				truncated: false,
			};
			return { content: `echo: ${args.text}`, details, isError: false };
		},
	};
}

function setup(turns: ScriptedTurn[], extra: Partial<AgentOptions> = {}) {
	const provider = createScriptedProvider(turns, { model: "test-model" });
	const channel = new EventChannel();
	const events: AgentEvent[] = [];
	channel.subscribe((e) => events.push(e));
	const agent = new Agent({ provider, model: "test-model", system: SYSTEM, tools: [echoTool()], channel, ...extra });
	return { agent, events, provider, channel };
}

const types = (events: AgentEvent[]) => events.map((e) => e.type);

describe("agent loop", () => {
	it("streams a text reply as deltas and ends done", async () => {
		const { agent, events } = setup([{ text: ["Hel", "lo", "!"], usage: { input: 10, output: 3 } }]);
		const result = await agent.run("hi");
		expect(result).toMatchObject({ stopReason: "done", turns: 1, text: "Hello!", usage: { input: 10, output: 3 } });
		expect(types(events)).toEqual([
			"agent_start",
			"user_message",
			"turn_start",
			"request",
			"message_start",
			"text_delta",
			"text_delta",
			"text_delta",
			"message_end",
			"turn_end",
			"agent_end",
		]);
		expect(events.filter((e) => e.type === "text_delta").map((e) => (e as { delta: string }).delta)).toEqual([
			"Hel",
			"lo",
			"!",
		]);
		expect(agent.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
	});

	it("runs tool calls in order, appends their results and calls the model again", async () => {
		const calls: string[] = [];
		const { agent, events, provider } = setup(
			[
				{
					toolCalls: [
						{ id: "a", name: "echo", args: { text: "one" } },
						{ id: "b", name: "echo", args: { text: "two" } },
					],
				},
				{ text: "done" },
			],
			{ tools: [echoTool(calls)] },
		);
		const result = await agent.run("go");
		expect(result.stopReason).toBe("done");
		expect(result.turns).toBe(2);
		expect(calls).toEqual(["one", "two"]);
		const ends = events.filter((e) => e.type === "tool_end");
		expect(ends.map((e) => e.type === "tool_end" && e.content)).toEqual(["echo: one", "echo: two"]);
		expect(ends[0]?.type === "tool_end" && ends[0].details).toMatchObject({ kind: "read", path: "one" });
		expect(events.some((e) => e.type === "tool_update")).toBe(true);
		// The second request carries both results, in order, after the assistant message.
		expect(provider.calls[1]?.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool_result", "tool_result"]);
	});

	it("keeps going when a listener throws", async () => {
		const errors: string[] = [];
		const channel = new EventChannel((error) => errors.push(String(error)));
		channel.subscribe(() => {
			throw new Error("boom");
		});
		const seen: string[] = [];
		channel.subscribe((e) => seen.push(e.type));
		const agent = new Agent({
			provider: createScriptedProvider([{ text: "ok" }]),
			model: "m",
			system: { text: "", parts: [] },
			tools: [],
			channel,
		});
		const result = await agent.run("hi");
		expect(result.stopReason).toBe("done");
		expect(seen.at(-1)).toBe("agent_end");
		expect(errors.length).toBe(seen.length);
	});

	it("stops at the turn limit", async () => {
		const loop: ScriptedTurn = { toolCalls: [{ name: "echo", args: { text: "again" } }] };
		const { agent } = setup([loop, loop, loop, loop], { maxTurns: 3 });
		const result = await agent.run("loop");
		expect(result.stopReason).toBe("max_turns");
		expect(result.turns).toBe(3);
		expect(result.error).toContain("--max-turns");
		const once = await setup([loop, loop], { maxTurns: 1 }).agent.run("loop");
		expect(once.error).toBe("stopped after 1 turn (the turn limit; raise it with --max-turns)");
	});

	it("turns unknown tools and unparsable arguments into error results the model can read", async () => {
		const { agent, events } = setup([
			{ toolCalls: [{ id: "x", name: "nope", args: {} }] },
			{ toolCalls: [{ id: "y", name: "echo", args: { wrong: 1 } }] },
			{ text: "fine" },
		]);
		await agent.run("go");
		const results = events.flatMap((e) => (e.type === "tool_end" ? [e] : []));
		expect(results[0]).toMatchObject({ isError: true, outcome: "error" });
		expect(results[0]?.content).toContain('Unknown tool "nope"');
		expect(results[1]).toMatchObject({ isError: true });
		expect(results[1]?.content).toContain("Invalid arguments for echo");
	});

	it("aborts mid-stream, keeping the partial text", async () => {
		const controller = new AbortController();
		const { agent, channel } = setup([{ text: ["par", "tial", " never"], delayMs: 30 }]);
		channel.subscribe((e) => {
			if (e.type === "text_delta" && e.delta === "tial") controller.abort();
		});
		const result = await agent.run("hi", controller.signal);
		expect(result.stopReason).toBe("aborted");
		expect(result.text).toBe("partial");
		const last = agent.messages.at(-1);
		expect(last?.role === "assistant" && last.stopReason).toBe("aborted");
	});

	it("aborts a running tool and gives the calls that never ran a result", async () => {
		const controller = new AbortController();
		const { agent, events } = setup(
			[
				{
					toolCalls: [
						{ id: "a", name: "echo", args: { text: "slow" } },
						{ id: "b", name: "echo", args: { text: "never" } },
					],
				},
			],
			{ tools: [echoTool([], { wait: true })] },
		);
		setTimeout(() => controller.abort(), 50);
		const result = await agent.run("go", controller.signal);
		expect(result.stopReason).toBe("aborted");
		const results = events.flatMap((e) => (e.type === "tool_end" ? [e] : []));
		expect(results.map((r) => r.callId)).toEqual(["a", "b"]);
		expect(results.every((r) => r.isError)).toBe(true);
		expect(results.map((r) => r.outcome)).toEqual(["error", "not_run"]);
		expect(results[1]?.content).toContain("Not run");
		// The call that never started has no tool_start.
		expect(events.filter((e) => e.type === "tool_start").map((e) => e.type === "tool_start" && e.callId)).toEqual([
			"a",
		]);
	});

	it("delivers a steer after the current tool and skips the reply's remaining calls", async () => {
		const calls: string[] = [];
		const { agent, channel, provider, events } = setup(
			[
				{
					toolCalls: [
						{ id: "a", name: "echo", args: { text: "first" } },
						{ id: "b", name: "echo", args: { text: "second" } },
					],
				},
				{ text: "changed course" },
			],
			{ tools: [echoTool(calls)] },
		);
		channel.subscribe((e) => {
			if (e.type === "tool_start" && e.callId === "a") agent.queue.steer("stop, do X instead");
		});
		const result = await agent.run("go");
		expect(calls).toEqual(["first"]);
		expect(result.text).toBe("changed course");
		const sent = provider.calls[1]?.messages ?? [];
		expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "tool_result", "tool_result", "user"]);
		expect(sent[3]?.role === "tool_result" && sent[3].content).toContain("Skipped");
		expect(sent[4]).toEqual({ role: "user", content: "stop, do X instead" });
		const skipped = events.find((e) => e.type === "tool_end" && e.callId === "b");
		expect(skipped).toMatchObject({ outcome: "skipped", isError: true });
		expect(events.find((e) => e.type === "user_message" && e.message.content.startsWith("stop"))).toMatchObject({
			source: "steer",
		});
	});

	it("delivers a follow-up when the run would otherwise stop", async () => {
		const { agent, provider } = setup([{ text: "first answer" }, { text: "second answer" }]);
		agent.queue.followUp("and also this");
		const result = await agent.run("hi");
		expect(result.turns).toBe(2);
		expect(result.text).toBe("second answer");
		expect(provider.calls[1]?.messages.at(-1)).toEqual({ role: "user", content: "and also this" });
	});

	it("asks before mutating calls under approval and reports a denial to the model", async () => {
		const calls: string[] = [];
		const asked: string[] = [];
		const { agent, events } = setup(
			[
				{ toolCalls: [{ id: "a", name: "echo", args: { text: "danger" } }] },
				{ toolCalls: [{ id: "b", name: "echo", args: { text: "ok" } }] },
				{ text: "end" },
			],
			{
				tools: [echoTool(calls, { mutating: true })],
				approval: {
					needed: () => true,
					ask: async (call) => {
						asked.push(call.callId);
						return call.callId === "a" ? { approved: false, reason: "not today" } : { approved: true };
					},
				},
			},
		);
		await agent.run("go");
		expect(asked).toEqual(["a", "b"]);
		expect(calls).toEqual(["ok"]);
		const denied = events.find((e) => e.type === "tool_end" && e.callId === "a");
		expect(denied).toMatchObject({ outcome: "denied" });
		expect(denied?.type === "tool_end" && denied.content).toContain("denied");
		// Lifecycle: the request comes before the start, a denied call never starts.
		const lifecycle = events
			.filter((e) => e.type.startsWith("approval") || e.type.startsWith("tool_"))
			.filter((e) => e.type !== "tool_update")
			.map((e) => `${e.type}:${"callId" in e ? e.callId : ""}`);
		expect(lifecycle).toEqual([
			"approval_request:a",
			"approval_result:a",
			"tool_end:a",
			"approval_request:b",
			"approval_result:b",
			"tool_start:b",
			"tool_end:b",
		]);
	});

	it("skips approval for auto-approved tools", async () => {
		const asked: string[] = [];
		const { agent, events } = setup([{ toolCalls: [{ name: "echo", args: { text: "x" } }] }, { text: "end" }], {
			tools: [echoTool([], { mutating: true })],
			approval: {
				needed: (tool) => tool !== "echo",
				ask: async (call) => {
					asked.push(call.name);
					return { approved: true };
				},
			},
		});
		await agent.run("go");
		expect(asked).toEqual([]);
		expect(types(events)).not.toContain("approval_request");
	});

	it("ends with error when the provider fails", async () => {
		const { agent } = setup([{ text: "half", fault: { kind: "error", message: "HTTP 500 from server" } }]);
		const result = await agent.run("hi");
		expect(result).toMatchObject({ stopReason: "error", error: "HTTP 500 from server", text: "half" });
	});
});

describe("structured output", () => {
	const schema = {
		type: "object",
		properties: { answer: { type: "number" } },
		required: ["answer"],
		additionalProperties: false,
	};
	const output = { name: "final_answer", schema, validate: compileValidator(schema) };

	it("accepts a final answer that already validates", async () => {
		const { agent, provider } = setup([{ text: '{"answer": 42}' }], { output });
		const result = await agent.run("q");
		expect(result).toMatchObject({ stopReason: "done", structured: { answer: 42 } });
		expect(provider.calls).toHaveLength(1);
	});

	it("forces a structured answer, then asks once to correct it", async () => {
		const { agent, provider } = setup(
			[{ text: "It is forty-two." }, { text: '{"answer": "42"}' }, { text: '{"answer": 42}' }],
			{ output },
		);
		const result = await agent.run("q");
		expect(result.structured).toEqual({ answer: 42 });
		expect(provider.calls[1]?.responseSchema?.name).toBe("final_answer");
		expect(provider.calls[2]?.messages.at(-1)?.content).toContain("/answer must be number");
	});

	it("marks the corrections as gar's own messages, never as the person's", async () => {
		const { agent, events } = setup([{ text: "It is forty-two." }, { text: '{"answer": 42}' }], { output });
		await agent.run("q");
		const sources = events.flatMap((e) => (e.type === "user_message" ? [e.source] : []));
		expect(sources).toEqual(["prompt", "schema_retry"]);
	});

	it("fails with the validation errors when the correction is still invalid", async () => {
		const { agent } = setup([{ text: "no" }, { text: "{}" }, { text: '{"answer": true}' }], { output });
		const result = await agent.run("q");
		expect(result.stopReason).toBe("error");
		expect(result.error).toContain("must be number");
	});

	it("reads an answer inside a json code fence", () => {
		expect(checkAnswer('```json\n{"answer": 1}\n```', output)).toEqual({ ok: true, value: { answer: 1 } });
		expect(checkAnswer("nope", output).ok).toBe(false);
	});
});

describe("loop guard", () => {
	const same: ScriptedTurn = { toolCalls: [{ name: "echo", args: { text: "again" } }] };

	it("tells the model on the third identical call in a row and stops the run at the fifth", async () => {
		const calls: string[] = [];
		const { agent, events } = setup([same, same, same, same, same, { text: "never" }], { tools: [echoTool(calls)] });
		const result = await agent.run("go");
		expect(calls).toHaveLength(4);
		const ends = events.flatMap((e) => (e.type === "tool_end" ? [e] : []));
		expect(ends.map((e) => e.outcome)).toEqual(["done", "done", "done", "done", "not_run"]);
		expect(ends[1]?.content).not.toContain("loop guard");
		expect(ends[2]?.content).toContain("3 times in a row");
		expect(ends[2]?.content).toContain("try a different approach");
		expect(result.stopReason).toBe("error");
		expect(result.error).toContain("the same echo call with the same arguments 5 times in a row");
		expect(result.turns).toBe(5);
	});

	it("counts only identical calls in a row (argument key order aside): a different call resets it", async () => {
		const other: ScriptedTurn = { toolCalls: [{ name: "echo", args: { text: "else" } }] };
		const a: ScriptedTurn = { toolCalls: [{ name: "echo", args: { text: "x", n: 1 } }] };
		const b: ScriptedTurn = { toolCalls: [{ name: "echo", args: { n: 1, text: "x" } }] };
		const reset = setup([same, same, other, same, same, same, { text: "ok" }]);
		expect((await reset.agent.run("go")).stopReason).toBe("done");
		const reorder = setup([a, b, a, b, a, { text: "never" }]);
		expect((await reorder.agent.run("go")).stopReason).toBe("error");
	});

	it("can be turned off", async () => {
		const { agent } = setup([same, same, same, same, same, same, { text: "ok" }], { loopGuard: false });
		const result = await agent.run("go");
		expect(result).toMatchObject({ stopReason: "done", turns: 7 });
	});
});

describe("the context hook", () => {
	it("sends what the hook returns and fails the turn cleanly when it throws", async () => {
		const { agent, provider } = setup([{ text: "a" }], {
			transformContext: (m) => [...m, { role: "user", content: "x" }],
		});
		await agent.run("hi");
		expect(provider.calls[0]?.messages.map((m) => m.role === "user" && m.content)).toEqual(["hi", "x"]);
		const failing = setup([{ text: "never" }], {
			transformContext: () => {
				throw new Error("no room");
			},
		});
		const result = await failing.agent.run("hi");
		expect(result).toMatchObject({ stopReason: "error", error: "the context hook failed: no room" });
		expect(failing.provider.calls).toHaveLength(0);
	});
});

describe("switching the model", () => {
	it("sends the next run to the new model and leaves the options the agent was built with as they were", async () => {
		const first = createScriptedProvider([{ text: "one" }], { model: "m1" });
		const second = createScriptedProvider([{ text: "two" }], { model: "m2" });
		const channel = new EventChannel();
		const events: AgentEvent[] = [];
		channel.subscribe((e) => events.push(e));
		const options: AgentOptions = {
			provider: first,
			model: "m1",
			contextWindow: 1000,
			system: SYSTEM,
			tools: [],
			channel,
		};
		const agent = new Agent(options);
		await agent.run("a");
		agent.setModel({ provider: second, model: "m2", contextWindow: 2000 });
		const result = await agent.run("b");
		expect(result.text).toBe("two");
		expect(second.calls.map((c) => c.model)).toEqual(["m2"]);
		expect(agent.current).toEqual({ provider: second, model: "m2", contextWindow: 2000 });
		const starts = events.flatMap((e) => (e.type === "agent_start" ? [[e.model, e.contextWindow]] : []));
		expect(starts).toEqual([
			["m1", 1000],
			["m2", 2000],
		]);
		expect(options).toMatchObject({ provider: first, model: "m1", contextWindow: 1000 });
	});
});

describe("how a run ends", () => {
	const ending = (events: AgentEvent[]) => events.find((e) => e.type === "agent_end");
	for (const [name, turns, extra] of [
		["done", [{ text: "ok", usage: { input: 3, output: 1 } }], {}],
		["at the turn limit", [{ toolCalls: [{ name: "echo", args: { text: "x" } }] }], { maxTurns: 1 }],
		["on a provider error", [{ fault: { kind: "error", message: "boom" } }], {}],
	] as const) {
		it(`agent_end carries the result's fields, without the answer (${name})`, async () => {
			const { agent, events } = setup([...turns] as ScriptedTurn[], extra);
			const { text: _text, structured: _structured, ...end } = await agent.run("go");
			expect(ending(events)).toEqual({ type: "agent_end", ...end });
		});
	}

	it("an aborted run says so in its result and its agent_end", async () => {
		const { agent, events } = setup([{ text: "never" }]);
		const controller = new AbortController();
		controller.abort();
		const result = await agent.run("go", controller.signal);
		expect(result).toMatchObject({ stopReason: "aborted", error: "aborted", errorKind: "aborted", turns: 0 });
		expect(ending(events)).toMatchObject({ stopReason: "aborted", error: "aborted", errorKind: "aborted" });
	});
});
