import { formatDuration } from "../../view/format.js";
import { MIN_SPEED_MS } from "../../view/reducer.js";
import type { Activity, ViewState } from "../../view/state.js";

/** A reply that sent nothing for this long shows as stalled ("no data for 12 s") instead of its speed. */
export const STALL_MS = 5000;

/** Whether the agent is doing something (the clock ticks only then). */
export function isBusy(activity: Activity): boolean {
	return activity.kind !== "idle" && activity.kind !== "error";
}

/** How long the reply streaming now has sent nothing, in ms, once that is STALL_MS or more; else null. */
export function stalledFor(view: ViewState, now: number): number | null {
	const { lastDataAt } = view.index;
	if (view.activity.kind !== "streaming" || lastDataAt === null) return null;
	const quiet = now - lastDataAt;
	return quiet >= STALL_MS ? quiet : null;
}

/**
 * Output speed of the reply streaming now (estimated from characters, up to its last data, so a stall does not
 * drag it down), else the last call's; null under MIN_SPEED_MS of streaming.
 */
export function liveSpeed(view: ViewState, now: number): number | null {
	const { firstTokenAt, lastDataAt, streamChars } = view.index;
	if (view.activity.kind !== "streaming" || firstTokenAt === null) return view.speed.tokensPerSec;
	const ms = Math.min(now, lastDataAt ?? now) - firstTokenAt;
	return ms >= MIN_SPEED_MS ? streamChars / 4 / (ms / 1000) : null;
}

/** Whole seconds, as timeouts are configured: "300 s". */
const seconds = (ms: number) => `${Math.floor(ms / 1000)} s`;

/** "(idle timeout 300 s)": how long a stalled reply may stay silent before gar abandons it. */
export function idleNote(idleTimeoutMs: number): string {
	return `(idle timeout ${seconds(idleTimeoutMs)})`;
}

/**
 * The live state in words, with elapsed time: "running bash 3.2 s", "streaming · 64 tok/s", "no data for 12 s
 * (idle timeout 300 s)" for a stalled reply (`idleTimeoutMs`: the run's limit; the note is left out when null, for
 * a view that shows it on a row of its own), "retry 1/3 in 4 s" counting down.
 */
export function describeActivity(view: ViewState, now: number, idleTimeoutMs: number | null = null): string {
	const { activity } = view;
	const since = "since" in activity ? formatDuration(Math.max(0, now - activity.since)) : "";
	switch (activity.kind) {
		case "idle":
			return "idle";
		case "waiting":
			return `waiting for the model ${since}`;
		case "streaming": {
			const stalled = stalledFor(view, now);
			if (stalled !== null) {
				return `no data for ${seconds(stalled)}${idleTimeoutMs ? ` ${idleNote(idleTimeoutMs)}` : ""}`;
			}
			const speed = liveSpeed(view, now);
			return speed ? `streaming · ${Math.round(speed)} tok/s` : `streaming ${since}`;
		}
		case "retrying": {
			const left = activity.delayMs - (now - activity.since);
			const attempt = `retry ${activity.attempt}/${activity.maxAttempts}`;
			return left > 0
				? `${attempt} in ${Math.ceil(left / 1000)} s`
				: `${attempt} · waiting for the model ${formatDuration(-left)}`;
		}
		case "approval":
			return `awaiting approval · ${activity.name} ${since}`;
		case "tool":
			return `running ${activity.name} ${since}`;
		case "compacting":
			return `compacting ${since}`;
		case "error":
			return "error";
	}
}
