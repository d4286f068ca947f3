import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../src/agent/events.js";
import { branchLabel, formatCost, formatDuration, formatTokens, toolSummary } from "../src/view/format.js";
import { reduce } from "../src/view/reducer.js";
import { type ChatItem, initialView, type ToolItem, type ViewState } from "../src/view/state.js";
import { MODEL, PROVIDER, twoTurnRun } from "./fixtures/session/run.js";

/** Feeds events one second apart, starting at t = 1000 s. */
function feed(events: AgentEvent[], state = initialView({ provider: PROVIDER, model: MODEL })): ViewState {
	let at = 1_000_000;
	for (const event of events) {
		state = reduce(state, event, at);
		at += 1000;
	}
	return state;
}

const strip = (items: ChatItem[]) => items.map(({ key: _key, ...rest }) => rest);

describe("the event-to-view reducer", () => {
	it("turns a recorded 2-turn run into chat items and inspector figures", () => {
		const view = feed(twoTurnRun());
		expect(strip(view.items)).toEqual([
			{ kind: "user", text: "List the files", source: "prompt" },
			{ kind: "thinking", text: "I should list the files.", streaming: false },
			{ kind: "text", text: "Let me look.", streaming: false },
			expect.objectContaining({
				kind: "tool",
				callId: "call_1",
				name: "bash",
				argsText: '{"command":"ls"}',
				args: { command: "ls" },
				status: "done",
				content: "a.txt\nb.txt\n",
				details: expect.objectContaining({ kind: "bash", exitCode: 0 }),
				progress: expect.objectContaining({ output: "a.txt" }),
				durationMs: 12,
			}),
			{ kind: "text", text: "There are two files: a.txt and b.txt.", streaming: false },
			expect.objectContaining({ kind: "run_end", stopReason: "done", turns: 2 }),
		]);
		expect(view.activity).toEqual({ kind: "idle" });
		expect(view.turn).toBe(2);
		expect(view.maxTurns).toBe(50);
		expect(view.session.usage).toEqual({ input: 230, output: 30, cacheRead: 50, cacheWrite: 50 });
		expect(view.session.costUsd).toBeCloseTo(0.002, 10);
		expect(view.lastCall).toEqual({ usage: { input: 130, output: 10, cacheRead: 50, cacheWrite: 0 }, costUsd: 0.0008 });
		expect(view.context).toEqual({ tokens: 190, window: 200_000 });
		expect(view.speed).toEqual({ ttftMs: 200, tokensPerSec: 50 });
		expect(view.toolCounts).toEqual({ bash: 1 });
	});

	it("keeps two calls apart when a server reuses a call id in the next turn (call_1, then call_1 again)", () => {
		const run = twoTurnRun();
		const from = run.findIndex((e) => e.type === "turn_start");
		const to = run.findIndex((e) => e.type === "turn_end");
		// The same turn again, its call named "read" (some OpenAI-compatible servers number calls per reply).
		const again = run.slice(from, to + 1).map((e) => JSON.parse(JSON.stringify(e).replaceAll('"bash"', '"read"')));
		const view = feed([...run.slice(0, to + 1), ...again, ...run.slice(to + 1)]);
		const tools = view.items.filter((item): item is ToolItem => item.kind === "tool");
		expect(tools.map((t) => [t.callId, t.name, t.status])).toEqual([
			["call_1", "bash", "done"],
			["call_1", "read", "done"],
		]);
	});

	it("tracks the live state: waiting, streaming, awaiting approval, running a tool, idle", () => {
		const run = twoTurnRun();
		let state = initialView({ provider: PROVIDER, model: MODEL });
		const seen: string[] = [];
		const at = (type: string) => run.findIndex((e) => e.type === type);
		const approval: AgentEvent[] = [
			{
				type: "approval_request",
				callId: "call_1",
				name: "bash",
				args: { command: "ls" },
				preview: { kind: "bash", command: "ls", cwd: "/w", timeoutMs: 120_000 },
			},
			{ type: "approval_result", callId: "call_1", approved: true },
		];
		const events = [...run.slice(0, at("tool_start")), ...approval, ...run.slice(at("tool_start"))];
		for (const [i, event] of events.entries()) {
			state = reduce(state, event, i * 100);
			seen.push(state.activity.kind);
		}
		expect([...new Set(seen)]).toEqual(["waiting", "streaming", "approval", "tool", "idle"]);
		expect(state.items.find((i) => i.kind === "tool")).toMatchObject({ preview: { kind: "bash", command: "ls" } });
	});

	it("shows a failed run as an error item and an error state, and a retry inline", () => {
		const events: AgentEvent[] = [
			{ type: "agent_start", runId: "r", provider: "p", model: "m", maxTurns: 5, contextWindow: null },
			{ type: "user_message", message: { role: "user", content: "go" }, source: "prompt" },
			{ type: "turn_start", turn: 1, maxTurns: 5 },
			{ type: "message_start", turn: 1, requestId: "r.1" },
			{
				type: "retry",
				requestId: "r.1",
				turn: 1,
				attempt: 1,
				maxAttempts: 3,
				reason: "HTTP 529 overloaded",
				delayMs: 2000,
				errorKind: "overloaded",
			},
			{
				type: "message_end",
				requestId: "r.1",
				turn: 1,
				message: {
					role: "assistant",
					content: [],
					provider: "p",
					model: "m",
					usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
					stopReason: "error",
					error: "API error 401 — check KEY",
					errorKind: "auth",
				},
				costUsd: null,
				timing: { startedAt: 0, firstTokenMs: null, durationMs: 10 },
				retries: 1,
				errorKind: "auth",
			},
			{
				type: "agent_end",
				runId: "r",
				stopReason: "error",
				turns: 1,
				usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
				costUsd: null,
				durationMs: 10,
				error: "API error 401 — check KEY",
				errorKind: "auth",
			},
		];
		const view = feed(events);
		expect(view.items.map((i) => i.kind)).toEqual(["user", "retry", "error", "run_end"]);
		expect(view.items[2]).toMatchObject({ message: "API error 401 — check KEY", errorKind: "auth" });
		expect(view.activity).toEqual({ kind: "error", message: "API error 401 — check KEY", errorKind: "auth" });
		expect(view.session.costUsd).toBeNull();
	});

	it("does O(1) work per delta: the cost of a delta does not grow with the history", () => {
		/** Counts every read and write of the items array while one delta is applied. */
		function touchesPerDelta(historyItems: number): number {
			const state = initialView({ provider: "p", model: "m" });
			for (let i = 0; i < historyItems; i++) {
				state.items.push({ kind: "user", key: `h${i}`, text: `message ${i}`, source: "prompt" });
			}
			reduce(state, { type: "message_start", turn: 1, requestId: "r.1" }, 0);
			reduce(state, { type: "text_delta", delta: "first", contentIndex: 0 }, 1);
			let touches = 0;
			const items = state.items;
			state.items = new Proxy(items, {
				get(target, prop, receiver) {
					touches++;
					return Reflect.get(target, prop, receiver);
				},
				set(target, prop, value, receiver) {
					touches++;
					return Reflect.set(target, prop, value, receiver);
				},
			});
			reduce(state, { type: "text_delta", delta: " more", contentIndex: 0 }, 2);
			const text = state.items.at(-1);
			expect(text).toMatchObject({ kind: "text", text: "first more" });
			return touches;
		}
		const small = touchesPerDelta(10);
		expect(small).toBeGreaterThan(0);
		expect(touchesPerDelta(10_000)).toBe(small);
		expect(touchesPerDelta(100_000)).toBe(small);
	});

	it("replaces a changed item with a new object and leaves the others as they were (views memo by identity)", () => {
		const run = twoTurnRun();
		const state = feed(run.slice(0, 7));
		const before = [...state.items];
		reduce(state, { type: "text_delta", delta: " More.", contentIndex: 1 }, 0);
		expect(state.items[0]).toBe(before[0]);
		expect(state.items[1]).toBe(before[1]);
		expect(state.items[2]).not.toBe(before[2]);
		expect(state.items[2]).toMatchObject({ text: "Let me look. More." });
	});
});

describe("view formatting", () => {
	it("says which branch of the session the conversation is on", () => {
		expect(branchLabel([], null)).toBe("–");
		expect(branchLabel(["a"], "a")).toBe("1 of 1");
		expect(branchLabel(["a", "b", "c"], "b")).toBe("2 of 3");
		expect(branchLabel(["a", "b"], "x")).toBe("new (2 others)");
		expect(branchLabel(["a"], "x")).toBe("new (1 other)");
	});

	it("formats tokens, costs and durations the way the inspector shows them", () => {
		expect([950, 12_400, 128_000, 1_234_567].map(formatTokens)).toEqual(["950", "12.4k", "128k", "1.2M"]);
		expect([null, 0, 0.0042, 0.042, 3.5].map((c) => formatCost(c))).toEqual([
			"unknown",
			"$0.00",
			"$0.0042",
			"$0.042",
			"$3.50",
		]);
		expect([850, 4100, 125_000].map(formatDuration)).toEqual(["850 ms", "4.1 s", "2 m 05 s"]);
	});

	it("summarizes each tool from its typed details", () => {
		const tool = (details: ToolItem["details"], status: ToolItem["status"] = "done"): ToolItem => ({
			kind: "tool",
			key: "k",
			callId: "c",
			name: details?.kind ?? "x",
			argsText: "",
			args: {},
			status,
			details,
		});
		const change = { path: "/a", diff: "", oldHash: null, newHash: "h", undo: "delete" as const };
		expect(
			toolSummary(tool({ kind: "read", path: "a", startLine: 1, endLine: 120, totalLines: 340, truncated: false })),
		).toBe("lines 1–120 of 340");
		expect(
			toolSummary(tool({ kind: "write", ...change, action: "created", bytes: 9, lines: 3, added: 3, removed: 0 })),
		).toBe("created · 3 lines");
		expect(
			toolSummary(
				tool({ kind: "edit", ...change, firstChangedLine: 12, matchLevels: ["exact"], added: 3, removed: 1 }),
			),
		).toBe("+3 −1 · from line 12");
		const bash = {
			kind: "bash" as const,
			command: "npm test",
			cwd: "/w",
			exitCode: 1,
			signal: null,
			durationMs: 4100,
			timedOut: false,
			aborted: false,
			truncated: false,
			totalLines: 3,
			totalBytes: 30,
		};
		expect(toolSummary(tool(bash, "error"))).toBe("exit 1 · 4.1 s");
		expect(toolSummary(tool(null, "denied"))).toBe("denied");
	});
});
