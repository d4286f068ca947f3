import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../src/agent/events.js";
import { loadSession } from "../src/session/load.js";
import { runGar, tempHome } from "./support/cli.js";
import { startWireServer, type WireServer } from "./support/wire-server.js";

let server: WireServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

const MARKER = "unique-output-marker-42";

/** `gar -p --output stream-json` over the wire server: the events, parsed. */
async function streamJson(args: string[] = []) {
	const { project, env } = tempHome();
	writeFileSync(join(project, "notes.txt"), `${MARKER}\n`);
	const run = await runGar(
		["-p", "read the notes", "--output", "stream-json", "--base-url", server?.url ?? "", ...args],
		{
			env: { ...env, OPENAI_API_KEY: "test-key" },
			cwd: project,
		},
	);
	const lines = run.stdout.trim().split("\n");
	const events = lines.map((l) => JSON.parse(l) as AgentEvent | { type: "result"; sessionId: string });
	return { run, lines, events };
}

describe("the stream-json event contract", () => {
	it("pairs every request with its message_end by requestId, with timing and retries", async () => {
		server = await startWireServer([
			{ toolCalls: [{ id: "c1", name: "read", args: { path: "notes.txt" } }], usage: { input: 50, output: 5 } },
			{ text: "done", usage: { input: 80, output: 2 } },
		]);
		const { run, events } = await streamJson();
		expect(run.code).toBe(0);
		const requests = events.filter((e) => e.type === "request");
		const ends = events.filter((e) => e.type === "message_end");
		expect(requests).toHaveLength(2);
		expect(requests.map((e) => e.type === "request" && e.requestId)).toEqual(
			ends.map((e) => e.type === "message_end" && e.requestId),
		);
		const first = requests[0];
		expect(first).toMatchObject({
			type: "request",
			turn: 1,
			provider: "openai",
			params: { maxTokens: null, thinking: "off" },
			tools: { names: ["read", "write", "edit", "bash"] },
			messages: { count: 1 },
		});
		if (first?.type !== "request") throw new Error("no request event");
		expect(first.system.parts.map((p) => p.source)).toEqual(["base", "environment"]);
		expect(first.system.tokens).toBe(Math.ceil(first.system.chars / 4));
		const end = ends[0];
		if (end?.type !== "message_end") throw new Error("no message_end");
		expect(end.retries).toBe(0);
		expect(end.timing.durationMs).toBeGreaterThanOrEqual(0);
		expect(end.timing.firstTokenMs).not.toBeNull();
		// Deltas say which block of the reply they belong to.
		const deltas = events.filter((e) => e.type === "text_delta");
		expect(deltas.every((e) => e.type === "text_delta" && e.contentIndex === 0)).toBe(true);
		const user = events.find((e) => e.type === "user_message");
		expect(user).toMatchObject({ source: "prompt" });
	});

	it("carries a tool's content once, and only one terminal tool_end per call", async () => {
		server = await startWireServer([
			{ toolCalls: [{ id: "c1", name: "read", args: { path: "notes.txt" } }] },
			{ text: "done" },
		]);
		const { lines, events } = await streamJson();
		const toolLines = lines.filter((l) => l.includes(MARKER));
		// The file's text reaches the stream in the tool_end line only, once in that line.
		expect(toolLines).toHaveLength(1);
		expect(toolLines[0]?.split(MARKER)).toHaveLength(2);
		expect(events.filter((e) => e.type === "tool_end")).toEqual([
			expect.objectContaining({ callId: "c1", outcome: "done", details: expect.objectContaining({ kind: "read" }) }),
		]);
		const order = events.map((e) => e.type).filter((t) => t.startsWith("tool_"));
		expect(order).toEqual(["tool_start", "tool_end"]);
	});

	it("starts a run with its limits and ends with a result naming the session", async () => {
		server = await startWireServer([{ text: "hi" }]);
		const { events } = await streamJson(["--max-turns", "7"]);
		const start = events.find((e) => e.type === "agent_start");
		expect(start).toMatchObject({ provider: "openai", maxTurns: 7, contextWindow: expect.any(Number) });
		expect(events.at(-1)).toMatchObject({
			type: "result",
			ok: true,
			sessionId: expect.stringMatching(/^[0-9a-z]{12}$/),
		});
	});
});

describe("a session written by this gar", () => {
	it("holds system-prompt, request and run records, and replay reproduces the live events from them", async () => {
		server = await startWireServer([
			{ toolCalls: [{ id: "c1", name: "bash", args: { command: "echo hi" } }], usage: { input: 10, output: 3 } },
			{ text: "all done", usage: { input: 20, output: 2 } },
		]);
		const { project, env } = tempHome();
		const opts = { env: { ...env, OPENAI_API_KEY: "k" }, cwd: project };
		const live = await runGar(["-p", "go", "--output", "stream-json", "--base-url", server.url], opts);
		const liveEvents = live.stdout
			.trim()
			.split("\n")
			.map((l) => JSON.parse(l));
		const id = liveEvents.at(-1).sessionId as string;
		const list = JSON.parse((await runGar(["sessions", "--json"], opts)).stdout) as { id: string; file: string }[];
		const file = list.find((s) => s.id === id)?.file ?? "";
		const types = loadSession(file).entries.map((e) => e.type);
		expect(types).toEqual([
			"system_prompt",
			"model_change",
			"user",
			"assistant",
			"request",
			"tool_start",
			"tool_result",
			"assistant",
			"request",
			"run",
		]);
		const replay = await runGar(["replay", id, "--output", "stream-json"], opts);
		const replayed = replay.stdout
			.trim()
			.split("\n")
			.map((l) => JSON.parse(l));
		const pick = (events: { type: string }[], type: string) => events.filter((e) => e.type === type);
		// Exact where it is recorded: the request summaries, the timings and the run's end.
		expect(pick(replayed, "request")).toEqual(pick(liveEvents, "request"));
		expect(pick(replayed, "message_end")).toEqual(pick(liveEvents, "message_end"));
		expect(pick(replayed, "agent_end")).toEqual(pick(liveEvents, "agent_end"));
		expect(pick(replayed, "agent_start")).toEqual(pick(liveEvents, "agent_start"));
		expect(pick(replayed, "tool_end")).toEqual(pick(liveEvents, "tool_end"));
	});
});
