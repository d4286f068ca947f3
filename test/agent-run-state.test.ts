import { describe, expect, it } from "vitest";
import { agentEnd, CompactionBudget, RunTotals } from "../src/agent/run-state.js";

describe("RunTotals", () => {
	it("adds the calls' usage and cost; one unknown price makes the cost unknown", () => {
		const totals = new RunTotals("r1", 1000);
		totals.spend({ input: 10, output: 2, cacheRead: 0, cacheWrite: 0 }, 0.5);
		totals.spend({ input: 5, output: 1, cacheRead: 3, cacheWrite: 0 }, 0.25);
		expect(totals.result(1500)).toMatchObject({ usage: { input: 15, output: 3, cacheRead: 3 }, costUsd: 0.75 });
		totals.spend({ input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }, null);
		totals.spend({ input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }, 1);
		expect(totals.result(1500).costUsd).toBeNull();
	});

	it("builds the result and agent_end from the same fields, in the same order", () => {
		const totals = new RunTotals("r1", 1000);
		totals.turns = 2;
		totals.structured = { a: 1 };
		totals.end({ stop: "error", error: "bad", errorKind: "server" });
		const result = totals.result(1250);
		expect(Object.keys(result)).toEqual([
			"runId",
			"stopReason",
			"turns",
			"usage",
			"costUsd",
			"durationMs",
			"text",
			"structured",
			"error",
			"errorKind",
		]);
		expect(result).toMatchObject({ runId: "r1", stopReason: "error", turns: 2, durationMs: 250, text: "" });
		const event = agentEnd(result);
		expect(Object.keys(event)).toEqual([
			"type",
			"runId",
			"stopReason",
			"turns",
			"usage",
			"costUsd",
			"durationMs",
			"error",
			"errorKind",
		]);
	});

	it("an aborted run always names it, unless the step said more", () => {
		const totals = new RunTotals("r1", 0);
		totals.end({ stop: "aborted" });
		expect(totals.result(1)).toMatchObject({ error: "aborted", errorKind: "aborted" });
		totals.end({ stop: "aborted", error: "the summary was cut" });
		expect(totals.result(1)).toMatchObject({ error: "the summary was cut", errorKind: "aborted" });
		totals.end({ stop: "done" });
		expect(totals.result(1)).not.toHaveProperty("error");
	});
});

describe("CompactionBudget", () => {
	it("never compacts twice in a row: after one, neither kind until a reply arrives", () => {
		const budget = new CompactionBudget();
		expect([budget.autoAllowed, budget.overflowAllowed]).toEqual([true, true]);
		budget.compactedNow(true);
		expect([budget.autoAllowed, budget.overflowAllowed]).toEqual([false, false]);
		budget.replied();
		expect([budget.autoAllowed, budget.overflowAllowed]).toEqual([true, true]);
	});

	it("retries an overflow once until a reply arrives", () => {
		const budget = new CompactionBudget();
		budget.compactedNow(true);
		budget.retryOverflow();
		budget.replied();
		expect(budget.overflowAllowed).toBe(true);
		budget.retryOverflow();
		expect(budget.overflowAllowed).toBe(false);
	});

	it("after a failed compaction, no automatic one for the rest of the run (a reply does not undo it)", () => {
		const budget = new CompactionBudget();
		budget.compactedNow(false);
		budget.replied();
		expect(budget.autoAllowed).toBe(false);
		expect(budget.overflowAllowed).toBe(true);
	});
});
