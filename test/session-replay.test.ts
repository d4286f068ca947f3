import { afterEach, describe, expect, it } from "vitest";
import { EventChannel } from "../src/agent/channel.js";
import type { AgentEvent } from "../src/agent/events.js";
import type { AssistantMessage } from "../src/llm/types.js";
import { createTranscript } from "../src/output/transcript.js";
import { SessionRecorder } from "../src/session/recorder.js";
import { replayEvents } from "../src/session/replay.js";
import { SessionWriter } from "../src/session/writer.js";
import { toolSummary } from "../src/view/format.js";
import { reduce } from "../src/view/reducer.js";
import { initialView, type ToolItem } from "../src/view/state.js";
import { fakeClock, firstReply, MODEL, PROVIDER, secondReply, tempDir, twoTurnRun } from "./fixtures/session/run.js";

let cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups) cleanup();
	cleanups = [];
});
function recorded(runs: AgentEvent[][]): SessionWriter {
	const { dir, cleanup } = tempDir();
	cleanups.push(cleanup);
	const writer = SessionWriter.create({ dir, cwd: "/w", now: fakeClock() });
	const channel = new EventChannel();
	new SessionRecorder(writer, (_file, error) => {
		throw new Error(error);
	}).attach(channel);
	for (const run of runs) for (const event of run) channel.emit(event);
	writer.close();
	return writer;
}
/** The events a replay should reproduce: everything the loop emits except live-only events. */
function replayable(events: AgentEvent[]): AgentEvent[] {
	return events.filter((e) => e.type !== "tool_update");
}
/** Run ids and durations differ between a live run and a replay. */
function comparable(event: AgentEvent): AgentEvent {
	if (event.type === "agent_start") return { ...event, runId: "*" };
	if (event.type === "agent_end") return { ...event, durationMs: 0 };
	return event;
}

describe("replayEvents", () => {
	it("re-emits a recorded 2-turn run as the events the loop emitted, in order", () => {
		const writer = recorded([twoTurnRun()]);
		const replay = [...replayEvents(writer.session)];
		const expected = replayable(twoTurnRun()).map(comparable);
		const events = replay.map((r) => comparable(r.event));
		// Cost sums as floating point; compare it separately.
		const end = events.at(-1);
		expect(end?.type === "agent_end" && end.costUsd).toBeCloseTo(0.002, 10);
		expect(events.slice(0, -1)).toEqual(expected.slice(0, -1));
		expect({ ...end, costUsd: 0.002 }).toEqual(expected.at(-1));
	});

	it("carries the recorded times, in order, so a caller can pace the replay", () => {
		const writer = recorded([twoTurnRun()]);
		const replay = [...replayEvents(writer.session)];
		const times = replay.map((r) => Date.parse(r.ts));
		expect(times.every((t) => !Number.isNaN(t))).toBe(true);
		expect([...times].sort((a, b) => a - b)).toEqual(times);
		const byType = (type: AgentEvent["type"]) => replay.find((r) => r.event.type === type)?.ts;
		const entryTs = (type: string) => writer.session.entries.find((e) => e.type === type)?.ts;
		expect(byType("user_message")).toBe(entryTs("user"));
		expect(byType("message_end")).toBe(entryTs("assistant"));
		expect(byType("tool_end")).toBe(entryTs("tool_result"));
	});

	it("splits runs at user messages, keeps a steer inside its run, and replays a branch", () => {
		const writer = recorded([twoTurnRun("first", "run_1"), twoTurnRun("second", "run_2")]);
		const types = [...replayEvents(writer.session)].map((r) => r.event.type);
		expect(types.filter((t) => t === "agent_start")).toHaveLength(2);
		expect(types.filter((t) => t === "agent_end")).toHaveLength(2);

		const { dir, cleanup } = tempDir();
		cleanups.push(cleanup);
		const w = SessionWriter.create({ dir, cwd: "/w", now: fakeClock() });
		const u = w.appendUser("go");
		w.appendAssistant(firstReply, 0.001);
		w.appendToolResult({ callId: "call_1", name: "bash", content: "ok", details: null, isError: false, durationMs: 5 });
		w.appendUser("also check b.txt");
		w.appendAssistant(secondReply, null);
		w.moveTo(u.id);
		w.appendAssistant({ ...secondReply, stopReason: "aborted", error: "aborted" });
		w.close();

		const main = [...replayEvents(w.session)].map((r) => r.event);
		expect(main.map((e) => e.type)).toEqual([
			"agent_start",
			"user_message",
			"turn_start",
			"message_start",
			"text_delta",
			"message_end",
			"turn_end",
			"agent_end",
		]);
		expect(main.at(-1)).toMatchObject({ type: "agent_end", stopReason: "aborted", error: "aborted", turns: 1 });

		const branch = [...replayEvents(w.session, w.session.entries[4]?.id ?? null)].map((r) => r.event);
		expect(branch.filter((e) => e.type === "agent_start")).toHaveLength(1);
		expect(branch.filter((e) => e.type === "user_message")).toHaveLength(2);
		expect(branch.at(-1)).toMatchObject({ type: "agent_end", stopReason: "done", turns: 2, costUsd: null });
	});

	it("replays nothing for an empty session", () => {
		const writer = recorded([]);
		expect([...replayEvents(writer.session)]).toEqual([]);
	});
});

const timing = { startedAt: Date.parse("2026-01-02T03:04:05.000Z"), firstTokenMs: 300, durationMs: 900 };

describe("a run gar never finished (killed while a tool ran)", () => {
	it("replays the started call as started, and the view shows it and the next one as stopped by gar's exit", () => {
		const reply: AssistantMessage = {
			...firstReply,
			content: [
				{ type: "tool_call", id: "call_1", name: "bash", arguments: { command: "sleep 30" } },
				{ type: "tool_call", id: "call_2", name: "bash", arguments: { command: "echo after" } },
			],
		};
		const live = twoTurnRun().slice(0, 5);
		const killed: AgentEvent[] = [
			...live,
			{ type: "message_end", requestId: "run_1.1", turn: 1, message: reply, costUsd: 0.001, timing, retries: 0 },
			{ type: "tool_start", callId: "call_1", name: "bash", args: { command: "sleep 30" } },
		];
		const writer = recorded([killed]);
		const events = [...replayEvents(writer.session)].map((r) => r.event);
		expect(events.filter((e) => e.type === "tool_start")).toEqual([killed.at(-1)]);
		expect(events.filter((e) => e.type === "tool_end")).toEqual([]);

		let view = initialView({ provider: PROVIDER, model: MODEL });
		for (const [i, event] of events.entries()) view = reduce(view, event, i);
		const tools = view.items.filter((item): item is ToolItem => item.kind === "tool");
		expect(tools.map((t) => [t.callId, t.status, toolSummary(t)])).toEqual([
			["call_1", "interrupted", "interrupted (gar exited)"],
			["call_2", "interrupted", "not run (gar exited)"],
		]);
		// The line mode and `gar replay --output text` say the same.
		let text = "";
		const transcript = createTranscript((t) => {
			text += t;
		});
		for (const event of events) transcript(event);
		expect(text).toContain("✗ bash sleep 30 — interrupted (gar exited)\n✗ bash echo after — not run (gar exited)\n");
	});
});
