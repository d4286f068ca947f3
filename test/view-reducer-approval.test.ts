import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../src/agent/events.js";
import type { ToolPreview } from "../src/tools/types.js";
import { HANDLERS, reduce } from "../src/view/reducer.js";
import { initialView, type ToolItem, type ViewState } from "../src/view/state.js";
import { MODEL, PROVIDER, twoTurnRun } from "./fixtures/session/run.js";

const preview: ToolPreview = { kind: "bash", command: "ls", cwd: "/w", timeoutMs: 120_000 };
const request: Extract<AgentEvent, { type: "approval_request" }> = {
	type: "approval_request",
	callId: "call_1",
	name: "bash",
	args: { command: "ls" },
	preview,
};

/** The recorded run up to its first tool_start, the question in its place, then `after` instead of the rest. */
function asking(after: AgentEvent[]): AgentEvent[] {
	const run = twoTurnRun();
	return [
		...run.slice(
			0,
			run.findIndex((e) => e.type === "tool_start"),
		),
		request,
		...after,
	];
}

/** Folds `events` at one second apart, calling `each` with the state after every event. */
function fold(events: AgentEvent[], each: (state: ViewState, event: AgentEvent) => void = () => {}): ViewState {
	let state = initialView({ provider: PROVIDER, model: MODEL });
	for (const [i, event] of events.entries()) {
		state = reduce(state, event, 1000 * (i + 1));
		each(state, event);
	}
	return state;
}

const tool = (state: ViewState) => state.items.find((i): i is ToolItem => i.kind === "tool");

describe("the approval question in the view", () => {
	it("is held from approval_request to its approval_result, the item showing the same preview object", () => {
		const run = twoTurnRun();
		const rest = run.slice(run.findIndex((e) => e.type === "tool_start"));
		const events = asking([{ type: "approval_result", callId: "call_1", approved: true }, ...rest]);
		const open: boolean[] = [];
		const state = fold(events, (view, event) => {
			open.push(view.pending !== null);
			if (event.type !== "approval_request") return;
			expect(view.pending).toEqual({
				callId: "call_1",
				name: "bash",
				args: { command: "ls" },
				preview,
				since: 1000 * open.length,
			});
			// One copy: the panel (pending) and the chat (the tool item) read the same object.
			expect(tool(view)?.preview).toBe(view.pending?.preview);
			expect(tool(view)?.status).toBe("awaiting_approval");
		});
		const at = events.findIndex((e) => e.type === "approval_request");
		expect(open.indexOf(true)).toBe(at);
		expect(open.lastIndexOf(true)).toBe(at);
		expect(state.pending).toBeNull();
		expect(tool(state)?.status).toBe("done");
	});

	it("is closed by a denial that stops the run, and the run's end after it", () => {
		const state = fold(
			asking([
				{ type: "approval_result", callId: "call_1", approved: false, reason: "the user stopped the run", stop: true },
				{
					type: "tool_end",
					callId: "call_1",
					name: "bash",
					outcome: "denied",
					content: "no",
					details: null,
					isError: true,
					durationMs: 0,
				},
				{
					type: "agent_end",
					runId: "run_1",
					stopReason: "aborted",
					turns: 1,
					usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
					costUsd: 0,
					durationMs: 5,
				},
			]),
		);
		expect(state.pending).toBeNull();
		expect(tool(state)).toMatchObject({ status: "denied", stopped: true });
		expect(state.activity).toEqual({ kind: "idle" });
	});

	it("is closed when the run ends while it is still asking", () => {
		const view = fold(asking([]));
		expect(view.pending?.callId).toBe("call_1");
		const end: AgentEvent = {
			type: "agent_end",
			runId: "run_1",
			stopReason: "aborted",
			turns: 1,
			usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			costUsd: 0,
			durationMs: 5,
		};
		const state = reduce(view, end, 99_000);
		expect(state.pending).toBeNull();
		expect(tool(state)?.status).toBe("interrupted");
		expect(state.activity).toEqual({ kind: "idle" });
	});

	it("stays open when a result for another call comes in", () => {
		const state = fold(asking([{ type: "approval_result", callId: "call_other", approved: true }]));
		expect(state.pending?.callId).toBe("call_1");
	});

	it("is set by the approval_request handler, which can be called by name", () => {
		const state = initialView({ provider: PROVIDER, model: MODEL });
		HANDLERS.approval_request(state, request, 7);
		expect(state.pending).toMatchObject({ callId: "call_1", since: 7 });
		expect(state.activity).toEqual({ kind: "approval", since: 7, callId: "call_1", name: "bash" });
	});
});
