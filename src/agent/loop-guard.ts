/** Identical calls in a row after which the model is told it is repeating itself. */
export const GUARD_WARN_AT = 3;
/** Identical calls in a row after which the run is stopped. */
export const GUARD_STOP_AT = 5;

/** A stable key for a call: the name and the arguments with object keys sorted (so key order does not matter). */
function callKey(name: string, args: unknown): string {
	const sorted = (value: unknown): unknown => {
		if (Array.isArray(value)) return value.map(sorted);
		if (value === null || typeof value !== "object") return value;
		const out: Record<string, unknown> = {};
		for (const key of Object.keys(value).sort()) out[key] = sorted((value as Record<string, unknown>)[key]);
		return out;
	};
	return `${name}\u0000${JSON.stringify(sorted(args))}`;
}

export type GuardVerdict = { action: "run" } | { action: "warn"; note: string } | { action: "stop"; reason: string };

/**
 * Notices a model stuck repeating one tool call with the same arguments: the third identical call in a row runs
 * but its result says so; the fifth is not run and ends the run. Any different call resets the count.
 */
export class LoopGuard {
	private lastKey: string | undefined;
	private count = 0;

	constructor(private readonly enabled = true) {}

	/** Records a call about to run and says what to do with it. */
	check(name: string, args: unknown): GuardVerdict {
		if (!this.enabled) return { action: "run" };
		const key = callKey(name, args);
		this.count = key === this.lastKey ? this.count + 1 : 1;
		this.lastKey = key;
		if (this.count >= GUARD_STOP_AT) {
			return {
				action: "stop",
				reason: `the model made the same ${name} call with the same arguments ${this.count} times in a row (loop guard); rephrase the task or turn the guard off with agent.loop_guard = false`,
			};
		}
		if (this.count >= GUARD_WARN_AT) {
			return {
				action: "warn",
				note: `[You have made this exact ${name} call ${this.count} times in a row with the same result. Repeating it will not change anything: try a different approach. A ${GUARD_STOP_AT}th identical call stops the run.]`,
			};
		}
		return { action: "run" };
	}
}
