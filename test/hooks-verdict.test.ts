// What a finished hook process means under Claude Code's contract (exit codes, stdout as JSON or text), per event.
import { describe, expect, it } from "vitest";
import type { HookProcessResult } from "../src/hooks/process.js";
import { clipText, hookName, interpret } from "../src/hooks/verdict.js";

const exit = (exitCode: number, stdout = "", stderr = ""): HookProcessResult => ({
	exitCode,
	signal: null,
	stdout,
	stderr,
	truncated: false,
	durationMs: 5,
	timedOut: false,
	aborted: false,
});

describe("exit codes", () => {
	it("2 blocks with stderr as the reason: a denial for PreToolUse, a block for the events that can block", () => {
		expect(interpret("PreToolUse", exit(2, "", "rm -rf is not allowed\n"), 60_000)).toEqual({
			status: "ok",
			decision: "deny",
			reason: "rm -rf is not allowed",
		});
		for (const event of ["PostToolUse", "UserPromptSubmit", "Stop"] as const) {
			expect(interpret(event, exit(2, "", "no"), 60_000)).toEqual({ status: "ok", decision: "block", reason: "no" });
		}
		expect(interpret("PreToolUse", exit(2), 60_000).reason).toBe("(the hook gave no reason on stderr)");
	});

	it("2 from an event that cannot block is an error the person sees, never a block", () => {
		expect(interpret("SessionStart", exit(2, "", "nope"), 60_000)).toEqual({
			status: "error",
			message: "exit 2, but a SessionStart hook cannot block: nope",
		});
	});

	it("any other code is a non-blocking error with what the hook said; 127 says the command was not found", () => {
		expect(interpret("PreToolUse", exit(1, "", "boom"), 60_000)).toEqual({ status: "error", message: "exit 1: boom" });
		expect(interpret("PreToolUse", exit(127, "", "sh: 1: nope: not found"), 60_000)).toEqual({
			status: "error",
			message: "exit 127, command not found: sh: 1: nope: not found",
		});
	});

	it("a timeout, an abort, a signal and a shell that could not start each say so, with stderr", () => {
		const base = exit(0);
		expect(
			interpret("Stop", { ...base, exitCode: null, signal: "SIGTERM", timedOut: true, stderr: "x" }, 2000),
		).toEqual({
			status: "timeout",
			message: "timed out after 2 s; its process group was killed (raise its timeout): x",
		});
		expect(interpret("Stop", { ...base, exitCode: null, signal: "SIGTERM", aborted: true }, 2000).status).toBe(
			"aborted",
		);
		expect(interpret("Stop", { ...base, exitCode: null, signal: "SIGKILL" }, 2000)).toEqual({
			status: "error",
			message: "killed by SIGKILL",
		});
		expect(interpret("Stop", { ...base, exitCode: null, startError: "spawn sh ENOENT" }, 2000)).toEqual({
			status: "not_started",
			message: "could not start: spawn sh ENOENT",
		});
	});
});

describe("stdout on exit 0", () => {
	it("is context for UserPromptSubmit and SessionStart, and shown for the others", () => {
		expect(interpret("SessionStart", exit(0, "branch main, 3 open tickets\n"), 60_000)).toEqual({
			status: "ok",
			context: "branch main, 3 open tickets",
		});
		expect(interpret("UserPromptSubmit", exit(0, "ctx"), 60_000).context).toBe("ctx");
		expect(interpret("PostToolUse", exit(0, "formatted a.ts"), 60_000)).toEqual({
			status: "ok",
			message: "formatted a.ts",
		});
	});

	it("invalid JSON is shown as text, saying it is not JSON; output cut at its cap is never parsed", () => {
		const bad = interpret("PreToolUse", exit(0, '{"permissionDecision": deny}'), 60_000);
		expect(bad.status).toBe("ok");
		expect(bad.decision).toBeUndefined();
		expect(bad.message).toMatch(/^not valid JSON \(.+\), read as text: \{"permissionDecision": deny\}$/);
		const cut = interpret("PreToolUse", { ...exit(0, '{"continue": false'), truncated: true }, 60_000);
		expect(cut).toEqual({ status: "ok", message: "its output was cut at 18 bytes (not read as JSON)" });
	});
});

describe("JSON output", () => {
	const json = (value: unknown) => exit(0, JSON.stringify(value));

	it("PreToolUse: permissionDecision, its reason, updatedInput and additionalContext", () => {
		const out = {
			hookSpecificOutput: {
				hookEventName: "PreToolUse",
				permissionDecision: "ask",
				permissionDecisionReason: "pushes to a remote",
				updatedInput: { command: "git push --dry-run" },
				additionalContext: "the remote is production",
			},
		};
		expect(interpret("PreToolUse", json(out), 60_000)).toEqual({
			status: "ok",
			decision: "ask",
			reason: "pushes to a remote",
			updatedInput: { command: "git push --dry-run" },
			context: "the remote is production",
		});
	});

	it("the older decision block/approve still reads as deny/allow for PreToolUse", () => {
		expect(interpret("PreToolUse", json({ decision: "block", reason: "no" }), 60_000)).toMatchObject({
			decision: "deny",
			reason: "no",
		});
		expect(interpret("PreToolUse", json({ decision: "approve" }), 60_000).decision).toBe("allow");
	});

	it("continue false stops the run with stopReason, whatever else it says; systemMessage is shown", () => {
		const out = {
			continue: false,
			stopReason: "build is red",
			systemMessage: "stopping",
			decision: "block",
			reason: "x",
		};
		expect(interpret("PostToolUse", json(out), 60_000)).toEqual({
			status: "ok",
			decision: "stop",
			reason: "build is red",
			message: "stopping",
		});
	});

	it("a Stop block needs a reason (the model is told to go on with it); without one it is ignored, visibly", () => {
		expect(interpret("Stop", json({ decision: "block", reason: "tests fail" }), 60_000)).toEqual({
			status: "ok",
			decision: "block",
			reason: "tests fail",
		});
		const none = interpret("Stop", json({ decision: "block" }), 60_000);
		expect(none.decision).toBeUndefined();
		expect(none.message).toMatch(/without a reason/);
	});

	it("fields of the wrong kind are named in the message, never silently dropped", () => {
		const out = { hookSpecificOutput: { permissionDecision: "maybe", updatedInput: "rm", additionalContext: 3 } };
		const verdict = interpret("PreToolUse", json(out), 60_000);
		expect(verdict.decision).toBeUndefined();
		expect(verdict.updatedInput).toBeUndefined();
		expect(verdict.message).toBe(
			'permissionDecision "maybe" is not allow, deny or ask; ignored; updatedInput is not an object; ignored; additionalContext is not a string; ignored',
		);
	});

	it("additionalContext reaches the model only from the events that take it", () => {
		const out = { hookSpecificOutput: { additionalContext: "ctx" } };
		expect(interpret("PostToolUse", json(out), 60_000).context).toBe("ctx");
		expect(interpret("SessionEnd", json(out), 60_000).context).toBeUndefined();
	});
});

describe("names and texts", () => {
	it("a hook is named by its script's file name, else its first word", () => {
		expect(hookName("~/.config/gar/hooks/guard.sh")).toBe("guard.sh");
		expect(hookName("python3 .gar/hooks/check.py --strict")).toBe("check.py");
		expect(hookName('"$GAR_PROJECT_DIR/hooks/fmt.sh"')).toBe("fmt.sh");
		expect(hookName("true")).toBe("true");
		expect(hookName("echo hi >> log")).toBe("echo");
		expect(hookName("sleep 30 & echo $! > /tmp/child.pid; wait")).toBe("sleep");
		expect(hookName("sleep 0.6; echo {}")).toBe("sleep");
		expect(hookName("echo 'read NOTES.md again'")).toBe("echo");
		expect(hookName('node "/x/y/block-rm.js"')).toBe("block-rm.js");
		expect(hookName('$HOOKS/log.sh; echo "no" >&2; exit 2')).toBe("log.sh");
	});

	it("long texts are cut, saying how much was left out", () => {
		expect(clipText("x".repeat(2005))).toBe(`${"x".repeat(2000)}… (5 more characters)`);
		expect(clipText("short")).toBe("short");
	});
});
