// A hook run in the views: one compact line at the step it touched, the inspector's counts, the transcript's line.
import { describe, expect, it } from "vitest";
import type { AgentEvent, HookRun } from "../src/agent/events.js";
import { createTranscript } from "../src/output/transcript.js";
import { hookLine, hookNotable } from "../src/view/hook-line.js";
import { reduce } from "../src/view/reducer.js";
import { initialView } from "../src/view/state.js";

const run = (extra: Partial<HookRun> = {}): HookRun => ({
	event: "PreToolUse",
	name: "guard.sh",
	command: "~/.config/gar/hooks/guard.sh",
	source: "/home/me/.config/gar/config.toml",
	callId: "c1",
	tool: "bash",
	status: "ok",
	exitCode: 0,
	durationMs: 12,
	...extra,
});
const hook = (extra: Partial<HookRun> = {}): AgentEvent => ({ type: "hook", ...run(extra) });

describe("hookLine", () => {
	it("says which hook, at which step, what it did and why, in one line", () => {
		expect(hookLine(run({ exitCode: 2, decision: "deny", reason: "rm -rf is not allowed\nsecond line" }))).toBe(
			"pre-tool hook guard.sh (bash) blocked: rm -rf is not allowed (exit 2 · 12 ms)",
		);
		expect(
			hookLine(run({ event: "Stop", tool: undefined, decision: "block", reason: "tests fail", exitCode: 2 })),
		).toBe("stop hook guard.sh keeps the run going: tests fail (exit 2 · 12 ms)");
		expect(hookLine(run({ status: "timeout", exitCode: null, message: "timed out after 10 s" }))).toBe(
			"pre-tool hook guard.sh (bash) timed out: timed out after 10 s (12 ms)",
		);
		expect(hookLine(run({ event: "SessionStart", tool: undefined, context: "on main" }))).toBe(
			"session-start hook guard.sh added context: on main (exit 0 · 12 ms)",
		);
		expect(hookLine(run())).toBe("pre-tool hook guard.sh (bash) ran (exit 0 · 12 ms)");
	});

	it("a hook that ran and said nothing is not notable (headless stderr leaves it out); any decision or failure is", () => {
		expect(hookNotable(run())).toBe(false);
		expect(hookNotable(run({ decision: "allow" }))).toBe(true);
		expect(hookNotable(run({ status: "error", exitCode: 1 }))).toBe(true);
		expect(hookNotable(run({ message: "formatted" }))).toBe(true);
	});
});

describe("the view", () => {
	it("puts a tool call's hook runs with the call, others in items of their own, and counts them all", () => {
		let view = initialView({ provider: "p", model: "m" });
		const events: AgentEvent[] = [
			hook({ event: "SessionStart", callId: undefined, tool: undefined, context: "on main" }),
			{ type: "toolcall_start", callId: "c1", name: "bash", contentIndex: 0 },
			{ type: "toolcall_start", callId: "c2", name: "bash", contentIndex: 1 },
			hook({ decision: "deny", exitCode: 2, reason: "no" }),
			hook({ status: "error", exitCode: 127, message: "exit 127, command not found" }),
			hook({ callId: "c2" }),
		];
		for (const event of events) view = reduce(view, event, 0);
		expect(view.items.map((item) => item.kind)).toEqual(["hook", "tool", "tool"]);
		const [, first, second] = view.items;
		expect(first?.kind === "tool" && first.hooks?.map((h) => h.status)).toEqual(["ok", "error"]);
		expect(first?.kind === "tool" && first.hooks?.[0]).toMatchObject({ decision: "deny", reason: "no" });
		expect(second?.kind === "tool" && second.hooks?.length).toBe(1);
		expect(view.hooks).toEqual({ runs: 4, blocked: 1, failed: 1 });
	});
});

describe("the transcript (line mode, replay)", () => {
	it("writes each hook run as a bracketed line", () => {
		let out = "";
		const write = createTranscript((text) => {
			out += text;
		});
		write(hook({ decision: "deny", exitCode: 2, reason: "no" }));
		expect(out).toBe("[pre-tool hook guard.sh (bash) blocked: no (exit 2 · 12 ms)]\n");
	});
});
