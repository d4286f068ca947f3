import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { EventChannel } from "../src/agent/channel.js";
import type { AgentEvent } from "../src/agent/events.js";
import { OVERFLOW_ADVICE } from "../src/agent/loop.js";
import type { ContextSettings } from "../src/compaction/accounting.js";
import { Conversation } from "../src/conversation/conversation.js";
import { createAnthropicProvider } from "../src/llm/anthropic.js";
import { createOpenAIProvider } from "../src/llm/openai.js";
import { buildContext, loadSession, replayEvents, SessionWriter } from "../src/session/index.js";
import { createTools } from "../src/tools/index.js";
import { fakeClock, tempDirsPerTest } from "./fixtures/session/run.js";
import { startWireServer, type WireServer, type WireTurn } from "./support/wire-server.js";

const tmp = tempDirsPerTest();
const SYSTEM = { text: "You are a test.", parts: [{ source: "base" as const, text: "You are a test." }] };
const SETTINGS: ContextSettings = {
	autoCompact: true,
	reserveTokens: 1000,
	keepRecentTokens: 600,
	maxToolResultShare: 0.25,
};
/** A message of about 500 tokens (chars / 4), so the recent part kept (600 tokens) is about one message. */
const big = (tag: string) => `${tag} ${"x".repeat(2000)}`;

let servers: WireServer[] = [];
afterEach(async () => {
	await Promise.all(servers.map((s) => s.close()));
	servers = [];
});

type Wire = "anthropic" | "openai";

async function setup(script: WireTurn[], options: { window?: number | null; wire?: Wire; file?: string } = {}) {
	const server = await startWireServer(script);
	servers.push(server);
	const wire = options.wire ?? "anthropic";
	const provider =
		wire === "anthropic"
			? createAnthropicProvider({ apiKey: "k", baseURL: server.url })
			: createOpenAIProvider({ apiKey: "k", baseURL: `${server.url}/v1` });
	const cwd = tmp();
	const dir = tmp();
	const channel = new EventChannel((error) => {
		throw error;
	});
	const events: AgentEvent[] = [];
	channel.subscribe((e) => events.push(e));
	const session = options.file
		? SessionWriter.open(options.file)
		: SessionWriter.create({ dir, cwd, now: fakeClock() });
	const history = options.file ? buildContext(session.session).messages : [];
	const conversation = new Conversation({
		channel,
		provider,
		model: "claude-sonnet-4-5",
		contextWindow: options.window === undefined ? 4000 : options.window,
		system: SYSTEM,
		tools: createTools({ cwd }),
		history,
		session,
		approval: { required: false, autoApprove: [] },
		context: SETTINGS,
	});
	return { server, conversation, events, session, cwd };
}

/** The text of every message in a recorded request body (either wire). */
function sent(body: unknown): string[] {
	const messages = (body as { messages: { role: string; content: unknown }[] }).messages;
	return messages.filter((m) => m.role !== "system" && m.role !== "developer").map((m) => JSON.stringify(m.content));
}
const isSummaryRequest = (body: unknown) =>
	JSON.stringify((body as { system?: unknown }).system ?? (body as { messages: unknown[] }).messages[0]).includes(
		"You summarize a conversation",
	);

const reply = (text: string, input: number): WireTurn => ({ text, usage: { input, output: 10 } });
// Input tokens a server would report for the requests with one and two `big` tasks: the system prompt and the
// tool definitions (≈ 620 tokens) and ≈ 500 per task. A compaction must come out smaller than these.
const ONE_BIG = 1150;
const TWO_BIG = 1700;
const types = (events: AgentEvent[]) => events.map((e) => e.type);
const ANTHROPIC_OVERFLOW = JSON.stringify({
	type: "error",
	error: { type: "invalid_request_error", message: "prompt is too long: 210000 tokens > 200000 maximum" },
});
const OPENAI_OVERFLOW = JSON.stringify({
	error: {
		message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
		type: "invalid_request_error",
		param: "messages",
		code: "context_length_exceeded",
	},
});

describe("automatic compaction", () => {
	it("compacts a session that outgrows a small window and goes on with the summary and the recent turns", async () => {
		const { server, conversation, events, session } = await setup([
			reply("done one", 1000),
			reply("done two", 2990),
			{ text: "SUMMARY-1", usage: { input: 800, output: 40 } },
			reply("done three", 900),
		]);
		expect((await conversation.run(big("task one"))).stopReason).toBe("done");
		expect((await conversation.run(big("task two"))).stopReason).toBe("done");
		expect(events.some((e) => e.type === "compaction_start")).toBe(false);
		const third = await conversation.run(big("task three"));
		expect(third).toMatchObject({ stopReason: "done", text: "done three" });

		expect(server.requests).toHaveLength(4);
		const summaryRequest = server.requests[2]?.body;
		expect(isSummaryRequest(summaryRequest)).toBe(true);
		expect((summaryRequest as { tools?: unknown[] }).tools ?? []).toEqual([]);
		expect(sent(summaryRequest).join("")).toContain("task one");
		// The request after compaction: the summary, then the kept turns, and nothing older.
		const after = sent(server.requests[3]?.body);
		expect(after[0]).toContain("SUMMARY-1");
		expect(after.join("")).not.toContain("task one");
		expect(after.join("")).not.toContain("task two");
		expect(after.join("")).toContain("done two");
		expect(after.join("")).toContain("task three");

		const start = events.find((e) => e.type === "compaction_start");
		const end = events.find((e) => e.type === "compaction_end");
		expect(start).toMatchObject({ reason: "auto" });
		expect(end).toMatchObject({ ok: true, reason: "auto", usage: { input: 800, output: 40 } });
		if (end?.type !== "compaction_end") throw new Error("no compaction_end");
		expect(end.tokensAfter).toBeLessThan(end.tokensBefore);
		// The summary request's tokens count in the run's totals.
		expect(third.usage.input).toBe(800 + 900);

		// The file keeps everything; the compaction node marks where it happened.
		const saved = loadSession(session.file);
		expect(saved.entries.filter((e) => e.type === "user")).toHaveLength(3);
		const node = saved.entries.find((e) => e.type === "compaction");
		expect(node).toMatchObject({ reason: "auto", tokensBefore: end.tokensBefore, tokensAfter: end.tokensAfter });
		const kept = saved.get(node?.type === "compaction" ? (node.firstKeptEntryId ?? "") : "");
		expect(kept).toMatchObject({ type: "assistant", content: [{ type: "text", text: "done two" }] });
		// Resuming rebuilds the same context as before the restart.
		expect(buildContext(saved).messages).toEqual(conversation.messages);
		// Replay emits the compaction where it happened, inside its run.
		const replayed = [...replayEvents(saved)].map((r) => r.event.type);
		const at = replayed.indexOf("compaction_start");
		expect(replayed.slice(at, at + 3)).toEqual(["compaction_start", "compaction_end", "turn_start"]);
	});

	it("never splits a reply's tool calls from their results", async () => {
		const { server, conversation, cwd } = await setup([
			{
				toolCalls: ["a", "b", "c"].map((id) => ({ id, name: "read", args: { path: `${id}.txt` } })),
				usage: { input: 600, output: 10 },
			},
			reply("done one", 2990),
			{ text: "SUMMARY" },
			reply("done two", 100),
		]);
		for (const id of ["a", "b", "c"]) writeFileSync(join(cwd, `${id}.txt`), `${id}\n${"y".repeat(2000)}\n`);
		await conversation.run(big("task one"));
		await conversation.run(big("task two"));
		expect(server.requests).toHaveLength(4);
		const after = JSON.stringify((server.requests[3]?.body as { messages?: unknown } | undefined)?.messages);
		const calls = after.match(/"type":"tool_use"/g)?.length ?? 0;
		const results = after.match(/"type":"tool_result"/g)?.length ?? 0;
		expect(calls).toBe(results);
		expect([0, 3]).toContain(calls);
		// The files read come from the tool calls, appended to the model's summary.
		expect(sent(server.requests[3]?.body)[0]).toContain("<read-files>\\na.txt\\nb.txt\\nc.txt\\n</read-files>");
	});

	it("cuts a tool result that would take more than its share of the window", async () => {
		const { conversation, events, cwd } = await setup([
			{ toolCalls: [{ id: "r", name: "read", args: { path: "big.txt" } }], usage: { input: 100, output: 10 } },
			reply("read it", 100),
		]);
		writeFileSync(join(cwd, "big.txt"), `${"z".repeat(100)}\n`.repeat(100));
		await conversation.run("read big.txt");
		const end = events.find((e) => e.type === "tool_end");
		if (end?.type !== "tool_end") throw new Error("no tool_end");
		expect(end.content.length).toBeLessThan(4400);
		expect(end.content).toContain("this result was cut to 4000 of");
		expect(end.content).toContain("offset and limit");
	});

	it("does not compact without a known window", async () => {
		const { conversation, events } = await setup([reply("one", 10_000), reply("two", 10)], { window: null });
		await conversation.run("a");
		await conversation.run("b");
		expect(types(events)).not.toContain("compaction_start");
		expect(conversation.context).toMatchObject({ window: null });
	});
});

describe("overflow recovery", () => {
	for (const [wire, body] of [
		["anthropic", ANTHROPIC_OVERFLOW],
		["openai", OPENAI_OVERFLOW],
	] as const) {
		it(`compacts once and retries the request after a ${wire} "too long" error`, async () => {
			const { server, conversation, events } = await setup(
				[
					reply("done one", ONE_BIG),
					// The overflow answers the second request; the summary request is then served this turn.
					{ text: "SUMMARY", fault: { kind: "http", status: 400, body } },
					reply("done two", 100),
				],
				{ window: null, wire },
			);
			await conversation.run(big("task one"));
			const result = await conversation.run(big("task two"));
			expect(result).toMatchObject({ stopReason: "done", text: "done two" });
			expect(server.requests).toHaveLength(4);
			expect(events.filter((e) => e.type === "compaction_start")).toEqual([
				expect.objectContaining({ reason: "overflow" }),
			]);
			const retry = sent(server.requests[3]?.body);
			expect(retry[0]).toContain("SUMMARY");
			expect(retry.join("")).toContain("task two");
			expect(retry.join("")).not.toContain("task one");
		});
	}

	it("ends the run with advice when the retry overflows too, without a loop", async () => {
		const { server, conversation, events } = await setup(
			[
				reply("done one", ONE_BIG),
				{ text: "SUMMARY", fault: { kind: "http", status: 400, body: ANTHROPIC_OVERFLOW } },
				{ text: "never", fault: { kind: "http", status: 400, body: ANTHROPIC_OVERFLOW, times: 5 } },
			],
			{ window: null },
		);
		await conversation.run(big("task one"));
		const result = await conversation.run(big("task two"));
		expect(result).toMatchObject({ stopReason: "error", errorKind: "overflow", error: OVERFLOW_ADVICE });
		expect(server.requests).toHaveLength(4);
		expect(types(events).filter((t) => t === "compaction_start")).toHaveLength(1);
	});

	it("reports a summary request that fails, and does not loop", async () => {
		const { server, conversation, events } = await setup(
			[
				reply("done one", 100),
				{ text: "SUMMARY", fault: { kind: "http", status: 400, body: ANTHROPIC_OVERFLOW, times: 2 } },
			],
			{ window: null },
		);
		await conversation.run(big("task one"));
		const result = await conversation.run(big("task two"));
		expect(result.stopReason).toBe("error");
		expect(result.error).toContain("compacting failed");
		expect(server.requests).toHaveLength(3);
		expect(events.find((e) => e.type === "compaction_end")).toMatchObject({ ok: false });
	});
});

describe("manual compaction", () => {
	it("updates the previous summary on a second compaction instead of summarizing it blindly", async () => {
		const { server, conversation } = await setup(
			[
				reply("done one", ONE_BIG),
				reply("done two", TWO_BIG),
				{ text: "SUMMARY-1" },
				reply("done three", TWO_BIG),
				{ text: "SUMMARY-2" },
				reply("done four", 100),
			],
			{ window: null },
		);
		await conversation.run(big("task one"));
		await conversation.run(big("task two"));
		expect(await conversation.compact("the tests")).toMatchObject({ ok: true });
		await conversation.run(big("task three"));
		expect(await conversation.compact()).toMatchObject({ ok: true });
		await conversation.run("task four");
		const first = sent(server.requests[2]?.body).join("");
		expect(first).toContain("Focus especially on: the tests");
		const second = sent(server.requests[4]?.body).join("");
		expect(second).toContain("<previous-summary>");
		expect(second).toContain("SUMMARY-1");
		const last = sent(server.requests[5]?.body);
		expect(last[0]).toContain("SUMMARY-2");
		expect(last.join("")).not.toContain("SUMMARY-1");
	});

	it("can be aborted: the context and the session stay as they were", async () => {
		const { conversation, events, session } = await setup(
			[reply("done one", 100), reply("done two", 100), { text: ["S", "U", "M"], delayMs: 300 }],
			{ window: null },
		);
		await conversation.run(big("task one"));
		await conversation.run(big("task two"));
		const before = [...conversation.messages];
		const lines = loadSession(session.file).entries.length;
		const pending = conversation.compact();
		expect(conversation.running).toBe(true);
		await waitFor(() => events.some((e) => e.type === "compaction_start"));
		conversation.abort();
		const result = await pending;
		expect(result).toMatchObject({ ok: false, aborted: true });
		expect(conversation.messages).toEqual(before);
		const saved = loadSession(session.file);
		expect(saved.entries).toHaveLength(lines);
		expect(saved.entries.some((e) => e.type === "compaction")).toBe(false);
		expect(events.find((e) => e.type === "compaction_end")).toMatchObject({ ok: false, aborted: true });
	});

	it("summarizes the older half of a short conversation that fits keep_recent_tokens whole", async () => {
		const turns = [reply("done one", 750), reply("done two", 850), reply("done three", 950)];
		const { server, conversation } = await setup([...turns, { text: "SUMMARY" }, reply("ok", 1)], { window: null });
		// Three turns of ~100 tokens: under keep_recent_tokens (600), yet /compact should free something.
		for (const task of ["task one", "task two", "task three"]) await conversation.run(`${task} ${"x".repeat(400)}`);
		expect(await conversation.compact()).toMatchObject({ ok: true });
		await conversation.run("task four");
		const summarized = sent(server.requests[3]?.body).join("");
		expect(summarized).toContain("task one");
		expect(summarized).toContain("task two");
		expect(summarized).not.toContain("task three");
		const after = sent(server.requests[4]?.body).join("");
		expect(after).toContain("SUMMARY");
		expect(after).not.toContain("task one");
		expect(after).not.toContain("task two");
		expect(after).toContain("task three");
	});

	it("says there is nothing to compact in a fresh conversation", async () => {
		const { conversation, events, server } = await setup([], { window: null });
		const result = await conversation.compact();
		expect(result).toMatchObject({ ok: false });
		expect(server.requests).toHaveLength(0);
		expect(types(events)).toEqual(["notice"]);
	});
});

describe("restart", () => {
	it("rebuilds the same context after a restart, and a resumed run sends it", async () => {
		const first = await setup(
			[reply("done one", ONE_BIG), reply("done two", TWO_BIG), { text: "SUMMARY-1" }, reply("done three", 100)],
			{ window: null },
		);
		await first.conversation.run(big("task one"));
		await first.conversation.run(big("task two"));
		await first.conversation.compact();
		const before = [...first.conversation.messages];
		first.conversation.close();

		const second = await setup([reply("done three", 100)], { window: null, file: first.session.file });
		expect(second.conversation.messages).toEqual(before);
		// A resumed summary makes the old replies' usage stale: the size is estimated, not read from them.
		expect(second.conversation.context.tokens).toBeLessThan(2000);
		await second.conversation.run("task three");
		const resumed = sent(second.server.requests[0]?.body);
		expect(resumed[0]).toContain("SUMMARY-1");
		expect(resumed.join("")).not.toContain("task one");
	});
});

async function waitFor(condition: () => boolean, timeoutMs = 2000): Promise<void> {
	const until = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > until) throw new Error("timed out");
		await new Promise((r) => setTimeout(r, 5));
	}
}
