// Hooks and the people around them: project trust, the environment hooks get, gar hooks and gar hooks test,
// --no-hooks, a malformed table, and Ctrl+C during a hook.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runGar, spawnGar } from "./support/cli.js";
import { hookEvents, hookToml, hookWorld, resultOf, running } from "./support/hook-world.js";
import { startWireServer, type WireServer } from "./support/wire-server.js";

let server: WireServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

const bash = (command: string) => ({ toolCalls: [{ id: "b1", name: "bash", args: { command } }] });

describe("a project's hooks", () => {
	it("do not run untrusted (reported once); run once trusted; stop running when changed, until trusted again", async () => {
		const w = hookWorld();
		mkdirSync(join(w.project, ".git"));
		mkdirSync(join(w.project, ".gar"));
		writeFileSync(join(w.project, ".gar", "config.toml"), hookToml("PreToolUse", "sh .gar/mark.sh"));
		const mark = join(w.project, ".gar", "mark.sh");
		writeFileSync(mark, `echo ran >> "${w.root}/marks"\n`);
		const marks = () => (existsSync(join(w.root, "marks")) ? readFileSync(join(w.root, "marks"), "utf8") : "");
		server = await startWireServer(() => bash("true"));
		const opts = { env: w.env, cwd: w.project };

		const untrusted = await w.run(server, "go", ["--max-turns", "1"]);
		expect(marks()).toBe("");
		expect(hookEvents(untrusted)).toEqual([]);
		expect(untrusted.stderr).toContain(
			'gar: warning: not running its hook from ~/project/.gar/config.toml: the project is not trusted (run "gar trust ~/project" to run them; "gar hooks" lists them)\n',
		);
		expect((await runGar(["hooks"], opts)).stdout).toContain(
			"does not run: the project is not trusted (gar trust ~/project)",
		);

		const trusted = await runGar(["trust"], opts);
		expect(trusted.stdout).toContain(
			"its hooks may now run (gar trust again if they change):\n  PreToolUse: sh .gar/mark.sh",
		);
		const after = await w.run(server, "go", ["--max-turns", "1"]);
		expect(after.stderr).not.toContain("not running");
		expect(marks()).toBe("ran\n");
		expect((await runGar(["hooks"], opts)).stdout).toContain("runs (trusted project)");

		// A changed script is a changed hook: not run until the project is trusted again.
		writeFileSync(mark, `echo changed >> "${w.root}/marks"; curl example.com\n`);
		const changed = await w.run(server, "go", ["--max-turns", "1"]);
		expect(marks()).toBe("ran\n");
		expect(changed.stderr).toContain("they changed since the project was trusted");
		expect((await runGar(["trust"], opts)).stdout).toContain("trusted");
		await w.run(server, "go", ["--max-turns", "1"]);
		expect(marks()).toBe("ran\nchanged\n");
	});
});

describe("the hook's environment", () => {
	it("is the bash tool's: no API key; GAR_PROJECT_DIR, GAR_SESSION_ID and CLAUDE_PROJECT_DIR are set", async () => {
		const w = hookWorld();
		const dump = join(w.root, "env.txt");
		w.config(hookToml("SessionStart", `env > "${dump}"`));
		w.env.GITHUB_TOKEN = "ghp_secretsecretsecret";
		server = await startWireServer([{ text: "ok" }]);
		const run = await w.run(server, "hi");
		const env = readFileSync(dump, "utf8");
		expect(env).not.toContain("OPENAI_API_KEY");
		expect(env).not.toContain("sk-test-key-0123456789abcdef");
		expect(env).not.toContain("ghp_secretsecretsecret");
		const session = resultOf(run).sessionId;
		expect(env).toContain(`GAR_PROJECT_DIR=${w.project}\n`);
		expect(env).toContain(`CLAUDE_PROJECT_DIR=${w.project}\n`);
		expect(env).toContain(`GAR_SESSION_ID=${session}\n`);
	});
});

describe("gar hooks", () => {
	it("lists every hook with its source file and line, event, matcher, timeout and trust state", async () => {
		const w = hookWorld(
			hookToml("PreToolUse", "~/guard.sh", { matcher: "Bash", timeout: 10 }) + hookToml("Stop", "true"),
		);
		const run = await runGar(["hooks"], { env: w.env, cwd: w.project });
		expect(run.code).toBe(0);
		expect(run.stdout).toBe(
			[
				'PreToolUse · matcher "Bash" · timeout 10 s · runs (your config)',
				"  $ ~/guard.sh",
				"  ~/config/gar/config.toml:1",
				"",
				"Stop · timeout 60 s · runs (your config)",
				"  $ true",
				"  ~/config/gar/config.toml:6",
				"",
			].join("\n"),
		);
	});

	it("test runs the matching hooks on a payload built as a run would, printing exit code, output, decision and time", async () => {
		const w = hookWorld();
		w.script(
			"guard.sh",
			`input=$(cat); case "$input" in *'rm -rf'*) echo "no rm -rf" >&2; exit 2;; esac; echo "$input"`,
		);
		w.config(hookToml("PreToolUse", "$HOOKS/guard.sh", { matcher: "bash" }));
		const opts = { env: w.env, cwd: w.project };
		const blocked = await runGar(["hooks", "test", "PreToolUse", "--input", '{"command": "rm -rf /"}'], opts);
		expect(blocked.code).toBe(0);
		expect(blocked.stdout).toMatch(
			/^guard\.sh \(~\/config\/gar\/config\.toml\)\n {2}ok · exit 2 · \d+ ms · decision deny\n {2}reason: no rm -rf\n {2}stderr: no rm -rf\ngar would act on: \{"decision":"deny","reason":"the PreToolUse hook guard\.sh: no rm -rf"\}\n$/,
		);
		const passed = await runGar(["hooks", "test", "PreToolUse", "--json", "--input", "-"], {
			...opts,
			stdin: '{"command": "ls"}',
		});
		const doc = JSON.parse(passed.stdout);
		expect(doc.runs[0]).toMatchObject({ status: "ok", exitCode: 0, name: "guard.sh" });
		const payload = JSON.parse(doc.runs[0].stdout);
		expect(payload).toMatchObject({
			hook_event_name: "PreToolUse",
			tool_name: "bash",
			tool_input: { command: "ls" },
			cwd: w.project,
			permission_mode: "bypassPermissions",
		});
		const none = await runGar(["hooks", "test", "Stop"], opts);
		expect(none.code).toBe(1);
		expect(none.stdout).toContain("no hook ran: none of the hooks that may run matches Stop");
		const typo = await runGar(["hooks", "test", "PreToolUs"], opts);
		expect(typo).toMatchObject({ code: 2 });
		expect(typo.stderr).toContain("did you mean PreToolUse?");
	});
});

describe("--no-hooks", () => {
	it("runs without any hook", async () => {
		const w = hookWorld(hookToml("PreToolUse", "$HOOKS/log.sh") + hookToml("SessionStart", "$HOOKS/log.sh"));
		server = await startWireServer([bash("true"), { text: "ok" }]);
		const run = await w.run(server, "go", ["--no-hooks"]);
		expect(run.code).toBe(0);
		expect(w.logged()).toEqual([]);
		expect(hookEvents(run)).toEqual([]);
	});
});

describe("a malformed hook table", () => {
	it("is a config error: exit 2, naming the file, line and key; nothing runs", async () => {
		const w = hookWorld("[[hooks.PreToolUse]]\nmatcher = 3\ncommand = 'true'\n");
		server = await startWireServer([{ text: "never" }]);
		const run = await w.run(server, "go");
		expect(run.code).toBe(2);
		expect(run.stderr).toContain(
			"~/config/gar/config.toml:2: hooks.PreToolUse[0].matcher: expected a regular expression",
		);
		expect(server.requests).toHaveLength(0);
	});
});

describe("Ctrl+C during a hook", () => {
	it("stops the run and kills the hook's process group, as for a bash command", async () => {
		const w = hookWorld();
		const pidFile = join(w.root, "child.pid");
		w.config(hookToml("PreToolUse", `sleep 30 & echo $! > ${pidFile}; wait`));
		server = await startWireServer([bash("echo never > never.txt"), { text: "never" }]);
		const gar = spawnGar(["-p", "go", "--base-url", server.url], { env: w.env, cwd: w.project });
		let child = 0;
		for (let i = 0; i < 300 && !child; i++) {
			await new Promise((r) => setTimeout(r, 20));
			child = existsSync(pidFile) ? Number(readFileSync(pidFile, "utf8")) : 0;
		}
		expect(child).toBeGreaterThan(0);
		gar.child.kill("SIGINT");
		expect(await gar.closed).toBe(130);
		await new Promise((r) => setTimeout(r, 200));
		expect(running(child)).toBe(false);
		expect(existsSync(join(w.project, "never.txt"))).toBe(false);
	});
});
