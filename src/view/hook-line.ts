import type { HookEventName, HookRun } from "../agent/events.js";
import { firstLine, formatDuration } from "./format.js";

/** Each event's hooks in words: "pre-tool hook guard.sh blocked: …". */
const LABELS: Record<HookEventName, string> = {
	PreToolUse: "pre-tool hook",
	PostToolUse: "post-tool hook",
	UserPromptSubmit: "prompt hook",
	Stop: "stop hook",
	SessionStart: "session-start hook",
	SessionEnd: "session-end hook",
	PreCompact: "pre-compact hook",
	Notification: "notification hook",
};

/** What a hook run did, in a verb (or "ran" when it decided and said nothing). */
function verb(run: HookRun): string {
	switch (run.status) {
		case "timeout":
			return "timed out";
		case "not_started":
			return "could not start";
		case "aborted":
			return "was stopped";
		case "error":
			return "failed";
		default:
			break;
	}
	switch (run.decision) {
		case "deny":
			return "blocked";
		case "ask":
			return "asks for approval";
		case "allow":
			return "allowed";
		case "stop":
			return "stopped the run";
		case "block":
			return run.event === "Stop"
				? "keeps the run going"
				: run.event === "UserPromptSubmit"
					? "blocked the prompt"
					: "told the model";
		default:
			return run.context ? "added context" : run.message ? "says" : "ran";
	}
}

/**
 * Whether a hook run is worth a person's attention where only the notable is shown (headless stderr): it failed,
 * decided something, or has something to say. A hook that ran and said nothing is only counted.
 */
export function hookNotable(run: HookRun): boolean {
	return run.status !== "ok" || run.decision !== undefined || run.message !== undefined;
}

/** Whether the run went wrong (a failure, a timeout, a hook that could not start): shown as an error. */
export function hookFailed(run: HookRun): boolean {
	return run.status === "error" || run.status === "timeout" || run.status === "not_started";
}

/**
 * The compact line of one hook run: `pre-tool hook guard.sh blocked: rm -rf is not allowed (exit 2 · 12 ms)`.
 * One line: the first line of the reason or message (the rest is in the event and the session's record).
 */
export function hookLine(run: HookRun): string {
	const said = run.reason ?? run.message ?? run.context;
	const what = said ? `: ${firstLine(said, 200)}` : "";
	const tool = run.tool && (run.event === "PreToolUse" || run.event === "PostToolUse") ? ` (${run.tool})` : "";
	const exit = run.exitCode === null ? "" : `exit ${run.exitCode} · `;
	return `${LABELS[run.event]} ${run.name}${tool} ${verb(run)}${what} (${exit}${formatDuration(run.durationMs)})`;
}
