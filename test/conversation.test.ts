import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EventChannel } from "../src/agent/channel.js";
import type { AgentEvent } from "../src/agent/events.js";
import { Conversation, ConversationBusyError, type ConversationOptions } from "../src/conversation/conversation.js";
import { createScriptedProvider, type ScriptedTurn } from "../src/llm/scripted.js";
import { loadSession } from "../src/session/load.js";
import { replayEvents } from "../src/session/replay.js";
import { SessionWriter } from "../src/session/writer.js";
import { createTools } from "../src/tools/index.js";
import { toolSummary } from "../src/view/format.js";
import { reduce } from "../src/view/reducer.js";
import { initialView } from "../src/view/state.js";
import { fakeClock, tempDirsPerTest } from "./fixtures/session/run.js";

const tmp = tempDirsPerTest();
const SYSTEM = { text: "You are a test.", parts: [{ source: "base" as const, text: "You are a test." }] };

function make(turns: ScriptedTurn[], extra: Partial<ConversationOptions> = {}) {
	const cwd = tmp();
	const dir = tmp();
	const channel = new EventChannel((error) => {
		throw error;
	});
	const events: AgentEvent[] = [];
	channel.subscribe((e) => events.push(e));
	const provider = createScriptedProvider(turns, { model: "m1" });
	const session = SessionWriter.create({ dir, cwd, now: fakeClock() });
	const conversation = new Conversation({
		channel,
		provider,
		model: "m1",
		// Large enough that the tool definitions alone never make a compaction due (compaction-*.test.ts covers it).
		contextWindow: 200_000,
		system: SYSTEM,
		tools: createTools({ cwd }),
		session,
		openSession: () => SessionWriter.create({ dir, cwd }),
		approval: { required: false, autoApprove: [] },
		...extra,
	});
	return { conversation, events, provider, session, cwd, dir };
}

const types = (events: AgentEvent[]) => events.map((e) => e.type);

describe("Conversation", () => {
	it("runs a task, saving every entry and the records of the run", async () => {
		const { conversation, session } = make([{ text: "hello" }]);
		const result = await conversation.run("hi");
		expect(result).toMatchObject({ stopReason: "done", text: "hello" });
		expect(conversation.running).toBe(false);
		const saved = loadSession(session.file);
		expect(saved.entries.map((e) => e.type)).toEqual([
			"system_prompt",
			"model_change",
			"user",
			"assistant",
			"request",
			"run",
		]);
		expect(saved.entries[0]).toMatchObject({ text: "You are a test.", parts: [{ source: "base", chars: 15 }] });
		const request = saved.entries.find((e) => e.type === "request");
		const prompt = saved.entries.find((e) => e.type === "system_prompt");
		expect(request?.type === "request" && prompt?.type === "system_prompt" && request.promptHash).toBe(
			prompt?.type === "system_prompt" && prompt.hash,
		);
	});

	it("refuses a prompt larger than the context window before calling the model; nothing of it is kept", async () => {
		const { conversation, events, provider, session } = make([{ text: "never" }, { text: "fits" }], {
			contextWindow: 4000,
		});
		const result = await conversation.run("x".repeat(20_000));
		expect(result).toMatchObject({ stopReason: "error", errorKind: "overflow", turns: 0, text: "" });
		expect(result.error).toMatch(
			/^the prompt is about 5,000 tokens; with the system prompt and tools \([\d,]+\) it does not fit the 4,000-token context window of m1: send a smaller part \(a file's relevant lines, a shorter log\) or use a model with a larger window$/,
		);
		expect(provider.calls).toHaveLength(0);
		expect(types(events)).toEqual(["agent_start", "agent_end"]);
		expect(events.at(-1)).toMatchObject({ type: "agent_end", stopReason: "error", errorKind: "overflow" });
		expect(conversation.messages).toEqual([]);
		expect(loadSession(session.file).entries.some((e) => e.type === "user")).toBe(false);
		// The conversation goes on: a prompt that fits is sent.
		expect(await conversation.run("hi")).toMatchObject({ stopReason: "done", text: "never" });
		expect(provider.calls).toHaveLength(1);
	});

	it("refuses a second run while one is going, without interleaving it", async () => {
		const { conversation, provider } = make([{ text: ["a", "b", "c"], delayMs: 20 }, { text: "second" }]);
		const first = conversation.run("one");
		expect(conversation.running).toBe(true);
		await expect(conversation.run("two")).rejects.toBeInstanceOf(ConversationBusyError);
		expect((await first).text).toBe("abc");
		expect(provider.calls).toHaveLength(1);
		expect((await conversation.run("two")).text).toBe("second");
	});

	it("steers while running: the message is queued, shown as a queue event and delivered", async () => {
		const { conversation, events, provider } = make([
			{ toolCalls: [{ id: "a", name: "bash", args: { command: "echo one" } }] },
			{ text: "ok, changed course" },
		]);
		expect(conversation.steer("not running")).toBe(false);
		conversation.channel.subscribe((e) => {
			if (e.type === "tool_start") conversation.steer("do X instead");
		});
		await conversation.run("go");
		expect(events.filter((e) => e.type === "queue")).toEqual([
			{ type: "queue", steers: ["do X instead"], followUps: [] },
			{ type: "queue", steers: [], followUps: [] },
		]);
		expect(provider.calls[1]?.messages.at(-1)).toEqual({ role: "user", content: "do X instead" });
	});

	it("keeps where the person pasted: on the event, in the session and in its replay; the model reads it all", async () => {
		const { conversation, events, provider, session } = make([
			{ toolCalls: [{ id: "a", name: "bash", args: { command: "echo one" } }] },
			{ text: "done" },
		]);
		const pasted = "line 1\nline 2\n";
		conversation.channel.subscribe((e) => {
			if (e.type === "tool_start") conversation.steer({ text: `and ${pasted}`, pastes: [{ start: 4, end: 18 }] });
		});
		await conversation.run({ text: `see ${pasted}please`, pastes: [{ start: 4, end: 18 }] });
		const sent = events.flatMap((e) => (e.type === "user_message" ? [e] : []));
		expect(sent.map((e) => [e.source, e.pastes])).toEqual([
			["prompt", [{ start: 4, end: 18 }]],
			["steer", [{ start: 4, end: 18 }]],
		]);
		expect(provider.calls[0]?.messages.at(-1)).toEqual({ role: "user", content: "see line 1\nline 2\nplease" });
		const saved = loadSession(session.file);
		expect(saved.entries.filter((e) => e.type === "user").map((e) => e.pastes)).toEqual([
			[{ start: 4, end: 18 }],
			[{ start: 4, end: 18 }],
		]);
		const replayed = [...replayEvents(saved)].flatMap(({ event }) => (event.type === "user_message" ? [event] : []));
		expect(replayed.map((e) => e.pastes)).toEqual(sent.map((e) => e.pastes));
		// A plain message carries no `pastes` field at all.
		await conversation.run("plain");
		expect(events.filter((e) => e.type === "user_message").at(-1)).not.toHaveProperty("pastes");
	});

	it("aborts the run: a running command is stopped and the run ends aborted", async () => {
		const { conversation, events } = make([{ toolCalls: [{ id: "a", name: "bash", args: { command: "sleep 30" } }] }]);
		conversation.channel.subscribe((e) => {
			if (e.type === "tool_start") setTimeout(() => conversation.abort(), 50);
		});
		const started = Date.now();
		const result = await conversation.run("go");
		expect(Date.now() - started).toBeLessThan(5000);
		expect(result.stopReason).toBe("aborted");
		expect(events.find((e) => e.type === "tool_end")).toMatchObject({ isError: true });
		expect(conversation.running).toBe(false);
	});

	it("switches the model between runs and records it as model_change", async () => {
		const { conversation, session, events } = make([{ text: "from m1" }]);
		await conversation.run("hi");
		const next = createScriptedProvider([{ text: "from m2" }], { model: "m2" });
		conversation.setModel(next, "m2", 2000);
		expect(conversation.model).toEqual({ provider: "scripted", model: "m2", contextWindow: 2000 });
		const result = await conversation.run("again");
		expect(result.text).toBe("from m2");
		expect(events.filter((e) => e.type === "model_change")).toHaveLength(1);
		const changes = loadSession(session.file).entries.filter((e) => e.type === "model_change");
		expect(changes.map((e) => e.type === "model_change" && e.model)).toEqual(["m1", "m2"]);
		// The next request went to the new provider with the whole history.
		expect(next.calls[0]?.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
	});

	it("refuses to switch the model during a run", async () => {
		const { conversation } = make([{ text: ["a", "b"], delayMs: 20 }]);
		const run = conversation.run("hi");
		expect(() => conversation.setModel(createScriptedProvider([]), "x", null)).toThrow(ConversationBusyError);
		await run;
	});

	it("moves the leaf to an earlier entry: the next run branches from there", async () => {
		const { conversation, session, provider } = make([{ text: "first answer" }, { text: "second" }, { text: "redo" }]);
		await conversation.run("first");
		const firstUser = session.session.entries.find((e) => e.type === "user");
		await conversation.run("second");
		const firstReply = session.session.children(firstUser?.id ?? null)[0];
		conversation.branch(firstReply?.id ?? null);
		await conversation.run("instead");
		expect(provider.calls[2]?.messages.map((m) => (m.role === "user" ? m.content : m.role))).toEqual([
			"first",
			"assistant",
			"instead",
		]);
		const saved = loadSession(session.file);
		expect(saved.branchPoints().map((e) => e.id)).toEqual([firstReply?.id]);
	});

	it("adds a shell command's output to the context without calling the model", async () => {
		const { conversation, provider, events, session } = make([{ text: "I see hi" }]);
		const result = await conversation.runShell("echo hi");
		expect(result).toMatchObject({ isError: false, content: "hi" });
		conversation.addShellContext("echo hi", result);
		expect(provider.calls).toHaveLength(0);
		expect(events.find((e) => e.type === "user_message")).toMatchObject({ source: "shell" });
		await conversation.run("what did it print?");
		const sent = provider.calls[0]?.messages ?? [];
		expect(sent[0]?.role === "user" && sent[0].content).toContain("$ echo hi\nhi");
		expect(loadSession(session.file).entries.find((e) => e.type === "user")).toMatchObject({ source: "shell" });
	});

	it("remembers 'allow for the rest of the session' and forgets it in a new session", async () => {
		const asked: string[] = [];
		const call = (id: string, text: string): ScriptedTurn => ({
			toolCalls: [{ id, name: "write", args: { path: `${id}.txt`, content: text } }],
		});
		const { conversation, cwd, session } = make(
			[call("a", "1"), { text: "one" }, call("b", "2"), { text: "two" }, call("c", "3"), { text: "three" }],
			{
				approval: {
					required: true,
					autoApprove: [],
					ask: async (request) => {
						asked.push(`${request.callId}:${request.preview.kind}`);
						return { approved: true, remember: true };
					},
				},
			},
		);
		await conversation.run("write a");
		await conversation.run("write b");
		expect(asked).toEqual(["a:write"]);
		expect(conversation.allowedTools.has("write")).toBe(true);
		conversation.newSession();
		expect(conversation.session?.file).not.toBe(session.file);
		expect(conversation.messages).toEqual([]);
		await conversation.run("write c");
		expect(asked).toEqual(["a:write", "c:write"]);
		expect(readFileSync(join(cwd, "c.txt"), "utf8")).toBe("3");
	});

	it("denies and stops the run when the person says stop at an approval question", async () => {
		const { conversation, cwd, events } = make(
			[{ toolCalls: [{ id: "a", name: "write", args: { path: "x.txt", content: "x" } }] }, { text: "never" }],
			{
				approval: { required: true, autoApprove: [], ask: async () => ({ approved: false, stop: true }) },
			},
		);
		const result = await conversation.run("go");
		expect(result.stopReason).toBe("aborted");
		expect(existsSync(join(cwd, "x.txt"))).toBe(false);
		expect(types(events)).not.toContain("tool_start");
		// The person said no (Esc): the call reads "denied (Esc)", not "not run" as if the run had just been aborted.
		expect(events.find((e) => e.type === "approval_result")).toMatchObject({ approved: false, stop: true });
		expect(events.find((e) => e.type === "tool_end")).toMatchObject({ outcome: "denied" });
		let view = initialView({ provider: "p", model: "m1" });
		for (const event of events) view = reduce(view, event, 0);
		const item = view.items.find((i) => i.kind === "tool");
		expect(item?.kind === "tool" && toolSummary(item)).toBe("denied (Esc)");
	});

	it("denies without asking when approval is required and there is no one to ask", async () => {
		const { conversation, cwd, events } = make(
			[{ toolCalls: [{ id: "a", name: "bash", args: { command: "touch made" } }] }, { text: "ok" }],
			{ approval: { required: true, autoApprove: [] } },
		);
		await conversation.run("go");
		expect(existsSync(join(cwd, "made"))).toBe(false);
		expect(events.find((e) => e.type === "tool_end")).toMatchObject({ outcome: "denied" });
	});

	it("asks or runs unasked as setApprovalRequired says, from the next call on", async () => {
		const asked: string[] = [];
		const write = (id: string): ScriptedTurn => ({
			toolCalls: [{ id, name: "write", args: { path: `${id}.txt`, content: id } }],
		});
		const { conversation, cwd } = make([write("a"), { text: "1" }, write("b"), { text: "2" }], {
			approval: {
				required: false,
				autoApprove: [],
				ask: async (request) => {
					asked.push(request.callId);
					return { approved: false };
				},
			},
		});
		conversation.setApprovalRequired(true);
		await conversation.run("write a");
		expect(asked).toEqual(["a"]);
		expect(existsSync(join(cwd, "a.txt"))).toBe(false);
		conversation.setApprovalRequired(false);
		await conversation.run("write b");
		expect(asked).toEqual(["a"]);
		expect(readFileSync(join(cwd, "b.txt"), "utf8")).toBe("b");
	});

	it("reports a failed session write as an event and keeps running", async () => {
		const { conversation, session, events } = make([{ text: "still answered" }]);
		session.close(); // every later append fails
		const result = await conversation.run("hi");
		expect(result.text).toBe("still answered");
		const failures = events.filter((e) => e.type === "session_error");
		expect(failures.length).toBeGreaterThanOrEqual(1);
		expect(failures[0]).toMatchObject({ file: session.file });
	});

	it("runs the context hook before each request without changing the history", async () => {
		const seen: number[] = [];
		const { conversation, provider } = make([{ text: "a" }, { text: "b" }], {
			transformContext: (messages) => {
				seen.push(messages.length);
				return messages.slice(-1);
			},
		});
		await conversation.run("one");
		await conversation.run("two");
		expect(seen).toEqual([1, 3]);
		expect(provider.calls[1]?.messages).toEqual([{ role: "user", content: "two" }]);
		expect(conversation.messages).toHaveLength(4);
		conversation.replaceContext([]);
		expect(conversation.messages).toEqual([]);
	});

	it("keeps the exact body of recent requests for a request viewer", async () => {
		const { conversation, events } = make([{ text: "x" }]);
		await conversation.run("hi");
		const request = events.find((e) => e.type === "request");
		const id = request?.type === "request" ? request.requestId : "";
		// The scripted provider has no wire body; the lookup must not throw and must be per request id.
		expect(conversation.requestBody(id)).toBeUndefined();
		expect(conversation.requestBody("nope")).toBeUndefined();
	});
});
