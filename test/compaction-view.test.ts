import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../src/agent/events.js";
import { EMPTY_USAGE } from "../src/llm/types.js";
import { reduce } from "../src/view/reducer.js";
import { initialView } from "../src/view/state.js";

const usage = { input: 800, output: 40, cacheRead: 0, cacheWrite: 0 };
/** A model with a known price: its totals start at $0 (an unpriced one's are unknown). */
const MODEL = "claude-sonnet-4-5";
const start: AgentEvent = { type: "compaction_start", reason: "auto", tokensBefore: 182_000 };
const end: AgentEvent = {
	type: "compaction_end",
	ok: true,
	reason: "auto",
	tokensBefore: 182_000,
	tokensAfter: 24_000,
	usage,
	costUsd: 0.01,
};

describe("compaction in the view", () => {
	it("shows a marker, counts the summary request and goes back to waiting inside a run", () => {
		let view = initialView({ provider: "p", model: MODEL, contextWindow: 200_000 });
		view = reduce(
			view,
			{ type: "agent_start", runId: "r", provider: "p", model: MODEL, maxTurns: 5, contextWindow: 200_000 },
			1,
		);
		view = reduce(view, start, 2);
		expect(view.activity).toEqual({ kind: "compacting", since: 2 });
		view = reduce(view, end, 3);
		expect(view.items.at(-1)).toMatchObject({
			kind: "compaction",
			ok: true,
			tokensBefore: 182_000,
			tokensAfter: 24_000,
		});
		expect(view.activity).toEqual({ kind: "waiting", since: 3 });
		expect(view.context).toEqual({ tokens: 24_000, window: 200_000 });
		expect(view.run).toEqual({ usage, costUsd: 0.01 });
		expect(view.session).toEqual({ usage, costUsd: 0.01 });
	});

	it("is idle again after a compaction between runs; an aborted one changes no figure", () => {
		let view = initialView({ provider: "p", model: MODEL });
		view = reduce(view, { ...start, reason: "manual" }, 1);
		const aborted: AgentEvent = {
			type: "compaction_end",
			ok: false,
			aborted: true,
			tokensBefore: 9,
			tokensAfter: 9,
			error: "aborted",
			usage: EMPTY_USAGE,
			costUsd: 0,
		};
		view = reduce(view, aborted, 2);
		expect(view.activity).toEqual({ kind: "idle" });
		expect(view.items.at(-1)).toMatchObject({ kind: "compaction", ok: false, aborted: true });
		expect(view.context.tokens).toBe(0);
		expect(view.run).toEqual({ usage: EMPTY_USAGE, costUsd: 0 });
	});
});
