// Hooks in gar -p, end to end: real shell scripts, the real SDK against the wire-level test server.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { hookEvents, hookToml, hookWorld, resultOf, running, sent } from "./support/hook-world.js";
import { startWireServer, type WireServer } from "./support/wire-server.js";

let server: WireServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

const write = (path: string, content: string) => ({
	toolCalls: [{ id: "w1", name: "write", args: { path, content } }],
});
const bash = (command: string, id = "b1") => ({ toolCalls: [{ id, name: "bash", args: { command } }] });

describe("each event", () => {
	it("fires with the documented input: common fields, tool_name/tool_input/tool_use_id, tool_response, prompt, stop", async () => {
		const events = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"];
		const w = hookWorld(events.map((event) => hookToml(event, "$HOOKS/log.sh")).join(""));
		server = await startWireServer([write("a.txt", "x"), { text: "done" }]);
		const run = await w.run(server, "make a.txt");
		expect(run.stderr).toBe("");
		expect(run.code).toBe(0);
		const result = resultOf(run);
		const logged = w.logged();
		expect(logged.map((p) => p.hook_event_name)).toEqual(events);
		const file = logged[0]?.transcript_path;
		expect(typeof file === "string" && existsSync(file) && file.endsWith(`${result.sessionId}.jsonl`)).toBe(true);
		for (const payload of logged) {
			expect(payload).toMatchObject({
				session_id: result.sessionId,
				transcript_path: file,
				cwd: w.project,
				permission_mode: "bypassPermissions",
			});
		}
		const [start, prompt, pre, post, stop, end] = logged;
		expect(start).toMatchObject({ source: "startup" });
		expect(prompt).toMatchObject({ prompt: "make a.txt" });
		const input = { path: "a.txt", content: "x", file_path: join(w.project, "a.txt") };
		expect(pre).toMatchObject({ tool_name: "write", tool_input: input, tool_use_id: "w1" });
		expect(post).toMatchObject({
			tool_name: "write",
			tool_input: input,
			tool_use_id: "w1",
			tool_response: { isError: false, success: true, outcome: "done", filePath: join(w.project, "a.txt") },
		});
		expect(stop).toMatchObject({ stop_hook_active: false, last_assistant_message: "done" });
		expect(end).toMatchObject({ reason: "other" });
		// Every run is an event: one per hook, at the step it touched.
		expect(hookEvents(run).map((e) => `${e.event}:${e.status}`)).toEqual(events.map((e) => `${e}:ok`));
		const types = run.events.map((e) => e.type);
		expect(types.indexOf("hook", types.indexOf("tool_start") - 1)).toBeLessThan(types.indexOf("tool_start"));
	});

	it("PreCompact fires with trigger manual for gar compact, with the focus as custom_instructions", async () => {
		const w = hookWorld(`[context]\nkeep_recent_tokens = 600\n\n${hookToml("PreCompact", "$HOOKS/log.sh")}`);
		server = await startWireServer([{ text: "one" }, { text: "two" }, { text: "SUMMARY" }]);
		const big = (tag: string) => `${tag} ${"x".repeat(2000)}`;
		const first = await w.run(server, big("task one"));
		const id = resultOf(first).sessionId;
		await w.run(server, big("task two"), ["-c"]);
		const { runGar } = await import("./support/cli.js");
		const compact = await runGar(["--base-url", server.url, "compact", id, "--focus", "tests"], {
			env: w.env,
			cwd: w.project,
		});
		expect(compact.code).toBe(0);
		expect(w.logged()).toEqual([
			expect.objectContaining({ hook_event_name: "PreCompact", trigger: "manual", custom_instructions: "tests" }),
		]);
	});
});

describe("PreToolUse", () => {
	it("exit 2 blocks the call: the file is unchanged and the model got the reason from stderr", async () => {
		const w = hookWorld(
			hookToml("PreToolUse", "echo 'writes are frozen today' >&2; exit 2", { matcher: "write|edit" }),
		);
		writeFileSync(join(w.project, "a.txt"), "before\n");
		server = await startWireServer([write("a.txt", "after\n"), { text: "ok" }]);
		const run = await w.run(server, "change a.txt");
		expect(run.code).toBe(0);
		expect(readFileSync(join(w.project, "a.txt"), "utf8")).toBe("before\n");
		expect(sent(server, 1)).toContain(
			"This write call was blocked by the PreToolUse hook echo: writes are frozen today. Do not retry it unchanged.",
		);
		expect(run.stderr).toMatch(
			/^gar: pre-tool hook echo \(write\) blocked: writes are frozen today \(exit 2 · \d+ ms\)\n$/,
		);
		const end = run.events.find((e) => e.type === "tool_end");
		expect(end).toMatchObject({ outcome: "denied", isError: true });
		expect(run.events.some((e) => e.type === "tool_start")).toBe(false);
	});

	it("a Claude Code guard script, written against Claude's documented input, blocks gar's bash call unchanged", async () => {
		const w = hookWorld();
		// As Claude Code's docs write them: read the event from stdin, look at .tool_input.command, exit 2 to block.
		const guard = join(w.hooks, "block-rm.js");
		writeFileSync(
			guard,
			[
				"const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));",
				"const command = input.tool_input && input.tool_input.command || '';",
				"if (input.hook_event_name === 'PreToolUse' && /\\brm\\s+-rf\\b/.test(command)) {",
				"  console.error('Blocked: rm -rf is not allowed');",
				"  process.exit(2);",
				"}",
			].join("\n"),
		);
		w.config(hookToml("PreToolUse", `node "${guard}"`, { matcher: "Bash" }));
		writeFileSync(join(w.project, "keep.txt"), "keep\n");
		server = await startWireServer([bash("rm -rf keep.txt"), bash("ls", "b2"), { text: "ok" }]);
		const run = await w.run(server, "clean up");
		expect(existsSync(join(w.project, "keep.txt"))).toBe(true);
		expect(sent(server, 1)).toContain("blocked by the PreToolUse hook block-rm.js: Blocked: rm -rf is not allowed.");
		// The same guard lets other commands through.
		const ends = run.events.filter((e) => e.type === "tool_end").map((e) => "outcome" in e && e.outcome);
		expect(ends).toEqual(["denied", "done"]);
	});

	it("permissionDecision deny refuses, allow skips --approve's question, ask is a denial headless", async () => {
		const decide = (decision: string) =>
			`echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"${decision}","permissionDecisionReason":"policy ${decision}"}}'`;
		const w = hookWorld();
		for (const [decision, outcome] of [
			["deny", "denied"],
			["allow", "done"],
			["ask", "denied"],
		] as const) {
			w.config(hookToml("PreToolUse", decide(decision)));
			server = await startWireServer([bash(`echo ${decision} > ${decision}.txt`), { text: "ok" }]);
			// --approve: without a hook, headless denies every bash call (there is no one to ask).
			const run = await w.run(server, "go", ["--approve"]);
			const end = run.events.find((e) => e.type === "tool_end");
			expect(end && "outcome" in end && end.outcome).toBe(outcome);
			expect(existsSync(join(w.project, `${decision}.txt`))).toBe(decision === "allow");
			if (decision === "deny") expect(sent(server, 1)).toContain("blocked by the PreToolUse hook echo: policy deny.");
			if (decision === "ask") {
				const request = run.events.find((e) => e.type === "approval_request");
				expect(request).toMatchObject({ reason: "the PreToolUse hook echo: policy ask" });
				expect(sent(server, 1)).toContain("there is no one to ask in headless mode, so the call is denied");
			}
			await server.close();
			server = undefined;
		}
	});

	it("updatedInput changes the command that runs; arguments the tool refuses are denied, never run", async () => {
		const rewrite = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"echo safe > out.txt"}}}'`;
		const w = hookWorld(hookToml("PreToolUse", rewrite, { matcher: "bash" }));
		server = await startWireServer([bash("echo unsafe > out.txt"), { text: "ok" }]);
		const run = await w.run(server, "go");
		expect(readFileSync(join(w.project, "out.txt"), "utf8")).toBe("safe\n");
		expect(run.events.find((e) => e.type === "tool_start")).toMatchObject({ args: { command: "echo safe > out.txt" } });
		expect(hookEvents(run)[0]).toMatchObject({ updatedInput: true });
		await server.close();

		w.config(hookToml("PreToolUse", `echo '{"hookSpecificOutput":{"updatedInput":{"command":42}}}'`));
		server = await startWireServer([bash("echo unsafe > bad.txt"), { text: "ok" }]);
		const bad = await w.run(server, "go");
		expect(existsSync(join(w.project, "bad.txt"))).toBe(false);
		expect(bad.events.find((e) => e.type === "tool_end")).toMatchObject({ outcome: "denied" });
		expect(sent(server, 1)).toContain("changed the arguments of this bash call to ones the tool refuses (command:");
	});

	it("continue: false stops the run: the call and the rest of the reply's calls do not run (exit 1)", async () => {
		const w = hookWorld(hookToml("PreToolUse", `echo '{"continue": false, "stopReason": "the build is red"}'`));
		server = await startWireServer([
			{
				toolCalls: [
					{ id: "b1", name: "bash", args: { command: "echo one > one.txt" } },
					{ id: "b2", name: "bash", args: { command: "echo two > two.txt" } },
				],
			},
			{ text: "never" },
		]);
		const run = await w.run(server, "go");
		expect(run.code).toBe(1);
		expect(server.requests).toHaveLength(1);
		expect(existsSync(join(w.project, "one.txt"))).toBe(false);
		expect(existsSync(join(w.project, "two.txt"))).toBe(false);
		expect(run.events.filter((e) => e.type === "tool_end").map((e) => "outcome" in e && e.outcome)).toEqual([
			"denied",
			"not_run",
		]);
		expect(resultOf(run)).toMatchObject({ ok: false, error: "stopped by the PreToolUse hook echo: the build is red" });
	});

	it("two matching hooks run in parallel; their decisions combine deny > allow, and both are reported", async () => {
		const w = hookWorld(
			hookToml("PreToolUse", `sleep 0.6; echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`) +
				hookToml(
					"PreToolUse",
					`sleep 0.6; echo '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no network"}}'`,
				),
		);
		server = await startWireServer([bash("curl example.com"), { text: "ok" }]);
		const run = await w.run(server, "go");
		const hooks = hookEvents(run);
		expect(hooks.map((h) => h.decision)).toEqual(["allow", "deny"]);
		expect(run.events.find((e) => e.type === "tool_end")).toMatchObject({ outcome: "denied" });
		expect(sent(server, 1)).toContain("blocked by the PreToolUse hook sleep: no network.");
		const started = run.events.findIndex((e) => e.type === "toolcall_start");
		expect(started).toBeGreaterThan(-1);
		// In parallel: the two 0.6 s hooks took well under 1.2 s together.
		expect(Math.max(...hooks.map((h) => h.durationMs))).toBeLessThan(1100);
	});

	it("a hook that never exits times out (its tree killed) and the call goes on; invalid JSON is shown as text", async () => {
		const w = hookWorld();
		const pidFile = join(w.root, "child.pid");
		w.config(
			hookToml("PreToolUse", `sleep 30 & echo $! > ${pidFile}; wait`, { timeout: 0.5 }) +
				hookToml("PreToolUse", "echo '{not json'") +
				hookToml("PreToolUse", "/nonexistent/guard.sh"),
		);
		server = await startWireServer([bash("echo ran > ran.txt"), { text: "ok" }]);
		const run = await w.run(server, "go");
		expect(existsSync(join(w.project, "ran.txt"))).toBe(true);
		const [slow, text, missing] = hookEvents(run);
		expect(missing).toMatchObject({ status: "error", exitCode: 127 });
		expect(missing?.message).toMatch(/^exit 127, command not found: .*\/nonexistent\/guard\.sh/);
		expect(slow).toMatchObject({ status: "timeout", exitCode: null });
		expect(slow?.message).toMatch(/^timed out after 0.5 s; its process group was killed/);
		expect(text?.message).toMatch(/^not valid JSON \(.*\), read as text: \{not json$/);
		expect(run.stderr).toContain("pre-tool hook sleep (bash) timed out");
		expect(run.stderr).toContain("pre-tool hook echo (bash) says: not valid JSON");
		expect(running(Number(readFileSync(pidFile, "utf8")))).toBe(false);
	});
});

describe("PostToolUse", () => {
	it("additionalContext reaches the model with the tool's result", async () => {
		const context = `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"lint: 2 warnings in a.txt"}}'`;
		const w = hookWorld(hookToml("PostToolUse", context, { matcher: "write" }));
		server = await startWireServer([write("a.txt", "x"), { text: "ok" }]);
		const run = await w.run(server, "go");
		expect(run.code).toBe(0);
		expect(sent(server, 1)).toContain("The PostToolUse hook echo says: lint: 2 warnings in a.txt");
	});
});

describe("UserPromptSubmit", () => {
	it("a block keeps the prompt from the model: exit 1, the person sees why, nothing is sent or saved", async () => {
		const w = hookWorld(hookToml("UserPromptSubmit", "echo 'no ticket number in the prompt' >&2; exit 2"));
		server = await startWireServer([{ text: "never" }]);
		const run = await w.run(server, "fix it");
		expect(run.code).toBe(1);
		expect(server.requests).toHaveLength(0);
		expect(run.stderr).toContain("prompt hook echo blocked the prompt: no ticket number in the prompt");
		expect(run.events.at(-1)).toMatchObject({
			type: "result",
			ok: false,
			error: "the prompt was not sent: the UserPromptSubmit hook echo: no ticket number in the prompt",
		});
		expect(run.events.some((e) => e.type === "user_message")).toBe(false);
	});

	it("plain stdout is context the model gets after the prompt", async () => {
		const w = hookWorld(hookToml("UserPromptSubmit", "echo 'ticket GAR-21: hooks'"));
		server = await startWireServer([{ text: "ok" }]);
		await w.run(server, "fix it");
		expect(sent(server, 0)).toContain("Context from the UserPromptSubmit hook echo:\\nticket GAR-21: hooks");
	});
});

describe("Stop", () => {
	it("a block continues the run with the reason as a message, at most 3 times in a row, then gar stops with a notice", async () => {
		const w = hookWorld(hookToml("Stop", `$HOOKS/log.sh; echo 'the tests still fail' >&2; exit 2`));
		server = await startWireServer([
			{ text: "one" },
			{ text: "two" },
			{ text: "three" },
			{ text: "four" },
			{ text: "x" },
		]);
		const run = await w.run(server, "fix the tests");
		expect(run.code).toBe(0);
		expect(server.requests).toHaveLength(4);
		expect(sent(server, 1)).toContain("the tests still fail");
		expect(w.logged().map((p) => p.stop_hook_active)).toEqual([false, true, true, true]);
		expect(run.stderr).toContain("a Stop hook asked to go on again; gar stops after 3 continuations in a row");
		expect(run.events.at(-1)).toMatchObject({ type: "result", ok: true, result: "four" });
	});
});
