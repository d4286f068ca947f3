import { formatDuration } from "../view/format.js";
import type { Activity } from "../view/state.js";

/** Whether the agent is doing something (the clock ticks only then). */
export function isBusy(activity: Activity): boolean {
	return activity.kind !== "idle" && activity.kind !== "error";
}

/** The live state in words, with elapsed time: "● running bash 3.2 s", "waiting for the model 1.1 s". */
export function describeActivity(activity: Activity, now: number, tokensPerSec: number | null): string {
	const since = "since" in activity ? formatDuration(Math.max(0, now - activity.since)) : "";
	switch (activity.kind) {
		case "idle":
			return "idle";
		case "waiting":
			return `waiting for the model ${since}`;
		case "streaming":
			return tokensPerSec ? `streaming · ${Math.round(tokensPerSec)} tok/s` : `streaming ${since}`;
		case "retrying":
			return `retry ${activity.attempt}/${activity.maxAttempts} in ${formatDuration(activity.delayMs)}`;
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
