import { addUsage, EMPTY_USAGE, type Usage } from "./types.js";

/**
 * Tokens and cost of some sub-agent runs (gar runs a bash command started, nested ones included), as the runs
 * reported them; the cost is unknown once one run's is. Kept apart from a run's own usage everywhere.
 */
export type SubagentTotals = { runs: number; usage: Usage; costUsd: number | null };

export const NO_SUBAGENTS: SubagentTotals = Object.freeze({ runs: 0, usage: EMPTY_USAGE, costUsd: 0 });

/** Adds totals: runs and tokens add up; the cost is unknown once either is. */
export function addTotals(a: SubagentTotals, b: SubagentTotals): SubagentTotals {
	const costUsd = a.costUsd === null || b.costUsd === null ? null : a.costUsd + b.costUsd;
	return { runs: a.runs + b.runs, usage: addUsage(a.usage, b.usage), costUsd };
}
