// One hook process, for real: stdin, caps, the timeout and an abort killing its whole process group.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runHookProcess } from "../src/hooks/process.js";
import { running as alive } from "./support/hook-world.js";

const dir = () => mkdtempSync(join(tmpdir(), "gar-hookproc-"));
const base = (cwd: string) => ({ cwd, env: { PATH: process.env.PATH }, timeoutMs: 10_000, graceMs: 200 });
/** Waits until `file` holds a pid, and returns it. */
async function pidIn(file: string): Promise<number> {
	for (let i = 0; i < 200; i++) {
		try {
			const pid = Number(readFileSync(file, "utf8").trim());
			if (pid > 0) return pid;
		} catch {}
		await new Promise((r) => setTimeout(r, 20));
	}
	throw new Error(`no pid in ${file}`);
}

describe("runHookProcess", () => {
	it("gives the payload on stdin and closes it: a hook that reads stdin to its end finishes", async () => {
		const cwd = dir();
		const signal = new AbortController().signal;
		const result = await runHookProcess("cat; echo done >&2", '{"a":1}', { ...base(cwd), signal });
		expect(result).toMatchObject({ exitCode: 0, stdout: '{"a":1}', stderr: "done\n", timedOut: false });
	});

	it("runs in the directory given, with the environment given", async () => {
		const cwd = dir();
		const env = { PATH: process.env.PATH, GAR_PROJECT_DIR: cwd };
		const result = await runHookProcess('pwd; echo "$GAR_PROJECT_DIR"', "", {
			...base(cwd),
			env,
			signal: new AbortController().signal,
		});
		expect(result.stdout).toBe(`${cwd}\n${cwd}\n`);
	});

	it("keeps only the head of 10 MB of output, and says it was cut", async () => {
		const result = await runHookProcess("head -c 10000000 /dev/zero | tr '\\0' x", "", {
			...base(dir()),
			signal: new AbortController().signal,
			maxStdout: 1000,
		});
		expect(result.exitCode).toBe(0);
		expect(result.stdout).toBe("x".repeat(1000));
		expect(result.truncated).toBe(true);
	});

	it("a hook that never exits is killed at its timeout, with the children it left", async () => {
		const cwd = dir();
		const pidFile = join(cwd, "child.pid");
		const started = Date.now();
		const result = await runHookProcess(`sleep 30 & echo $! > ${pidFile}; wait`, "", {
			...base(cwd),
			timeoutMs: 300,
			signal: new AbortController().signal,
		});
		expect(result.timedOut).toBe(true);
		expect(Date.now() - started).toBeLessThan(3000);
		const child = await pidIn(pidFile);
		await new Promise((r) => setTimeout(r, 300));
		expect(alive(child)).toBe(false);
	});

	it("an abort (Esc) kills the hook's process group at once", async () => {
		const cwd = dir();
		const pidFile = join(cwd, "child.pid");
		const controller = new AbortController();
		const running = runHookProcess(`sleep 30 & echo $! > ${pidFile}; wait`, "", {
			...base(cwd),
			signal: controller.signal,
		});
		const child = await pidIn(pidFile);
		controller.abort();
		const result = await running;
		expect(result.aborted).toBe(true);
		await new Promise((r) => setTimeout(r, 300));
		expect(alive(child)).toBe(false);
	});

	it("a hook that exits without reading its stdin is no failure, even with a large payload", async () => {
		const result = await runHookProcess("exit 0", "x".repeat(1_000_000), {
			...base(dir()),
			signal: new AbortController().signal,
		});
		expect(result).toMatchObject({ exitCode: 0, timedOut: false, aborted: false });
	});
});
