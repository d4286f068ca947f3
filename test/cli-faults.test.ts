import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SessionWriter } from "../src/session/writer.js";
import { GAR_BIN, runGar, runProgram, spawnGar, tempHome } from "./support/cli.js";
import { makeUnwritable, onReadOnlyMount } from "./support/unwritable.js";
import { startWireServer, type WireServer } from "./support/wire-server.js";

let server: WireServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Alive and not a zombie (a killed orphan may wait for a reaper that a container lacks). */
function running(pid: number): boolean {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
	} catch {
		return false;
	}
}

async function waitFor(check: () => boolean, ms = 5000): Promise<void> {
	const until = Date.now() + ms;
	while (!check()) {
		if (Date.now() > until) throw new Error("timed out waiting");
		await sleep(20);
	}
}

function sessionLines(root: string): { type: string; outcome?: string }[] {
	const base = join(root, "data", "gar", "sessions");
	const lines: { type: string; outcome?: string }[] = [];
	for (const dir of existsSync(base) ? readdirSync(base) : []) {
		for (const file of readdirSync(join(base, dir))) {
			const text = readFileSync(join(base, dir, file), "utf8");
			for (const line of text.split("\n").filter(Boolean)) lines.push(JSON.parse(line));
		}
	}
	return lines;
}

describe("gar always exits and leaves nothing running", () => {
	it("on SIGHUP during a command, kills the command's whole group, even a child that ignores SIGTERM", async () => {
		const { project, env } = tempHome();
		const command = "sh -c 'trap \"\" TERM; echo $$ > child.pid; exec sleep 30' & wait";
		server = await startWireServer([{ toolCalls: [{ name: "bash", args: { command } }] }, { text: "done" }]);
		const { child, stdout, closed } = spawnGar(["-p", "go", "--output", "json", "--base-url", server.url], {
			env: { ...env, OPENAI_API_KEY: "k" },
			cwd: project,
		});
		const pidFile = join(project, "child.pid");
		await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "");
		const pid = Number(readFileSync(pidFile, "utf8"));
		expect(running(pid)).toBe(true);
		child.kill("SIGHUP");
		expect(await closed).toBe(130);
		expect(JSON.parse(stdout())).toMatchObject({ ok: false, stopReason: "aborted" });
		await waitFor(() => !running(pid), 2000);
	});

	it("a second signal exits at once and kills a command that ignores SIGTERM, without waiting for the grace", async () => {
		const { project, env } = tempHome();
		const command = "trap '' TERM; echo $$ > shell.pid; sleep 30";
		server = await startWireServer([{ toolCalls: [{ name: "bash", args: { command } }] }, { text: "done" }]);
		const { child, closed } = spawnGar(["-p", "go", "--output", "json", "--base-url", server.url], {
			env: { ...env, OPENAI_API_KEY: "k" },
			cwd: project,
		});
		const pidFile = join(project, "shell.pid");
		await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "");
		const pid = Number(readFileSync(pidFile, "utf8"));
		child.kill("SIGINT");
		await sleep(200);
		const started = Date.now();
		child.kill("SIGTERM");
		expect(await closed).toBe(130);
		expect(Date.now() - started).toBeLessThan(1000);
		await waitFor(() => !running(pid), 1000);
	});

	it("a signal while gar is still starting (reading stdin) ends with the result line and exit 130", async () => {
		server = await startWireServer([{ text: "never sent" }]);
		const { project, env } = tempHome();
		const child = spawn(process.execPath, [GAR_BIN, "-p", "--output", "json", "--base-url", server.url], {
			env: { ...env, OPENAI_API_KEY: "k" },
			cwd: project,
			stdio: ["pipe", "pipe", "pipe"],
		});
		let stdout = "";
		child.stdout.setEncoding("utf8").on("data", (d: string) => {
			stdout += d;
		});
		child.stderr.resume();
		const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
		child.stdin.write("the task");
		await sleep(400);
		child.kill("SIGINT");
		await sleep(100);
		child.stdin.end();
		expect(await closed).toBe(130);
		expect(JSON.parse(stdout)).toMatchObject({ type: "result", ok: false, stopReason: "aborted" });
		expect(server.requests).toHaveLength(0);
	});
});

describe("a closed stdout is not a crash", () => {
	it("gar -p … | head -c 100: no stack trace, the tool's result is saved, the exit code is not 0", async () => {
		const { root, project, env } = tempHome();
		const command = "echo working; sleep 1; echo more; sleep 1";
		server = await startWireServer([{ toolCalls: [{ name: "bash", args: { command } }] }, { text: "done" }]);
		const gar = `node ${GAR_BIN} -p go --output stream-json --base-url ${server.url}`;
		const script = `${gar} | head -c 100 > /dev/null; echo "gar=\${PIPESTATUS[0]}" >&2`;
		const result = await new Promise<{ stderr: string }>((resolve) => {
			const child = spawn("bash", ["-c", script], { env: { ...env, OPENAI_API_KEY: "k" }, cwd: project });
			let stderr = "";
			child.stderr.setEncoding("utf8").on("data", (d: string) => {
				stderr += d;
			});
			child.on("close", () => resolve({ stderr }));
		});
		expect(result.stderr).not.toMatch(/\n\s+at /);
		expect(result.stderr).not.toContain("unexpected failure");
		expect(result.stderr).toMatch(/gar=[1-9]/);
		expect(sessionLines(root).some((l) => l.type === "tool_result")).toBe(true);
	});

	it("gar --help | true: a reader that stops early is no failure (exit 0, nothing on stderr)", async () => {
		const { project, env } = tempHome();
		const script = `node ${GAR_BIN} --help | true; echo "gar=\${PIPESTATUS[0]}" >&2`;
		for (let i = 0; i < 3; i++) {
			const stderr = await new Promise<string>((resolve) => {
				const child = spawn("bash", ["-c", script], { env, cwd: project });
				let text = "";
				child.stderr.setEncoding("utf8").on("data", (d: string) => {
					text += d;
				});
				child.on("close", () => resolve(text));
			});
			expect(stderr).toBe("gar=0\n");
		}
	});
});

describe("a special file where a file is read", () => {
	it("a FIFO where the config file should be is refused at once (exit 2, named), never read forever", async () => {
		const { root, project, env } = tempHome();
		mkdirSync(join(root, "config", "gar"), { recursive: true });
		execFileSync("mkfifo", [join(root, "config", "gar", "config.toml")]);
		const run = await runGar(["config"], { env, cwd: project, timeoutMs: 8000 });
		expect(run.signal).toBeNull();
		expect(run.code).toBe(2);
		expect(run.stderr).toMatch(/config\.toml: is not a regular file \(a FIFO, socket or device\), not a config file/);
	});
});

describe("a session that cannot be written", () => {
	/** A home with one saved session in `sessions`, to continue with -c. */
	function saved() {
		const home = tempHome();
		const sessions = join(home.root, "sessions");
		const writer = SessionWriter.create({ dir: sessions, cwd: home.project });
		writer.appendUser("hi");
		writer.close();
		return { ...home, sessions, file: writer.file, env: { ...home.env, OPENAI_API_KEY: "k" } };
	}
	const args = (sessions: string) => ["-p", "again", "-c", "--session-dir", sessions, "--base-url", server?.url ?? ""];
	const ONE_LINE =
		/^gar: cannot write to the session file \S+\.jsonl: [^\n]+ \([A-Z]+\); make it writable, or add --no-session to continue it without saving\n$/;

	it("gar -c on a read-only (or, for root, immutable) session file is exit 2 with one line, no model call", async (ctx) => {
		server = await startWireServer([{ text: "never" }]);
		const { project, env, sessions, file } = saved();
		const undo = makeUnwritable(file);
		if (!undo) return ctx.skip();
		try {
			const run = await runGar(args(sessions), { env, cwd: project });
			expect(run.stderr).toMatch(ONE_LINE);
			expect(run.stderr).toContain(file);
			expect(run.code).toBe(2);
			expect(server.requests).toHaveLength(0);
		} finally {
			undo();
		}
	});

	it("gar -c with the session on a read-only file system is exit 2 with one line, no model call", async (ctx) => {
		server = await startWireServer([{ text: "never" }]);
		const { project, env, sessions, file } = saved();
		const argv = onReadOnlyMount(sessions, [process.execPath, GAR_BIN, ...args(sessions)]);
		if (!argv) return ctx.skip();
		const [bin = "", ...rest] = argv;
		const run = await runProgram(bin, rest, { env, cwd: project });
		expect(run.stderr).toMatch(ONE_LINE);
		expect(run.stderr).toContain(`${file}: read-only file system (EROFS);`);
		expect(run.code).toBe(2);
		expect(server.requests).toHaveLength(0);
	});
});

describe("session faults are facts", () => {
	for (const [name, dir] of [
		["a path under a regular file", (root: string) => join(root, "afile", "sessions")],
		["a folder under /proc/sys", () => "/proc/sys/gar-sessions"],
	] as const) {
		it(`a session folder at ${name} is exit 2 with one line, before any model call`, async () => {
			server = await startWireServer([{ text: "never" }]);
			const { root, project, env } = tempHome();
			writeFileSync(join(root, "afile"), "not a folder");
			const run = await runGar(["-p", "hi", "--session-dir", dir(root), "--base-url", server.url], {
				env: { ...env, OPENAI_API_KEY: "k" },
				cwd: project,
				timeoutMs: 10_000,
			});
			expect(run.code).toBe(2);
			const lines = run.stderr.trim().split("\n");
			expect(lines).toHaveLength(1);
			expect(lines[0]).toMatch(/^gar: cannot save sessions in /);
			expect(server.requests).toHaveLength(0);
		});
	}
});
