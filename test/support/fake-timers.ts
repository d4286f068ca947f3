// A clock for the replay's player (src/session/replay-pace.ts ReplayTimers) that moves only when a test says so.
import type { ReplayTimers } from "../../src/session/replay-pace.js";

/** A clock that moves only when told, with the timers scheduled on it. */
export function fakeTimers() {
	let now = 0;
	let next = 1;
	const due = new Map<number, { at: number; run: () => void }>();
	const timers: ReplayTimers = {
		now: () => now,
		setTimeout: (run, ms) => {
			const id = next++;
			due.set(id, { at: now + ms, run });
			return id;
		},
		clearTimeout: (handle) => {
			due.delete(handle as number);
		},
	};
	/** Moves the clock by `ms`, running each timer that falls due on the way, in order. */
	const advance = (ms: number) => {
		const end = now + ms;
		for (;;) {
			const first = [...due.entries()].sort((a, b) => a[1].at - b[1].at)[0];
			if (!first || first[1].at > end) break;
			due.delete(first[0]);
			now = first[1].at;
			first[1].run();
		}
		now = end;
	};
	return { timers, advance, pending: () => due.size };
}
