import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { type BashToolOptions, createBashTool } from "../src/tools/bash.js";
import { cleanOutput, MAX_SAVED_BYTES } from "../src/tools/bash-output.js";
import type { ToolContext, ToolProgress } from "../src/tools/types.js";

let dir: string;
const leftovers: number[] = [];

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "gar-bash-"));
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});
afterAll(() => {
	for (const pid of leftovers) {
		try {
			process.kill(pid, "SIGKILL");
		} catch {}
	}
});

const ctx = (over: Partial<ToolContext> = {}): ToolContext => ({ signal: new AbortController().signal, ...over });
const run = (command: string, opts: Partial<BashToolOptions> = {}, c = ctx(), timeout?: number) =>
	createBashTool({ cwd: dir, outputDir: dir, ...opts }).execute({ command, timeout }, c);

/** True while `pid` exists and is not a zombie (PID 1 in a container may never reap). */
function alive(pid: number): boolean {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		return !/^\d+ \(.*\) [ZX]/.test(stat);
	} catch {
		try {
			process.kill(pid, 0);
			return true;
		} catch {
			return false;
		}
	}
}

async function waitFor<T>(get: () => T | undefined, ms = 3000): Promise<T> {
	const end = Date.now() + ms;
	for (;;) {
		const value = get();
		if (value !== undefined) return value;
		if (Date.now() > end) throw new Error("timed out waiting");
		await new Promise((r) => setTimeout(r, 10));
	}
}

describe("bash", () => {
	it("runs a command in cwd and reports success", async () => {
		const r = await run("echo hello; pwd");
		expect(r.content).toBe(`hello\n${dir}`);
		expect(r.isError).toBe(false);
		expect(r.details).toMatchObject({
			kind: "bash",
			command: "echo hello; pwd",
			cwd: dir,
			exitCode: 0,
			signal: null,
			timedOut: false,
			aborted: false,
			truncated: false,
		});
		expect(r.details.totalLines).toBe(2);
		expect(r.details.fullOutputPath).toBeUndefined();
	});

	it("merges stdout and stderr in arrival order", async () => {
		const r = await run("echo a; sleep 0.05; echo b >&2; sleep 0.05; echo c");
		expect(r.content).toBe("a\nb\nc");
	});

	it("reports a non-zero exit code as an error", async () => {
		const r = await run("echo oops >&2; exit 3");
		expect(r.content).toBe("oops\n\n[Exit code 3]");
		expect(r.isError).toBe(true);
		expect(r.details.exitCode).toBe(3);
		expect((await run("true")).content).toBe("(no output)");
	});

	it("uses the injected environment", async () => {
		const r = await run("echo $GAR_TEST", { env: { PATH: process.env.PATH, GAR_TEST: "injected" } });
		expect(r.content).toBe("injected");
	});

	it("strips ANSI sequences, CRLF and carriage-return redraws", async () => {
		const r = await run("printf '\\033[31mred\\033[0m\\r\\nprogress 10%%\\rprogress 100%%\\n\\007done'");
		expect(r.content).toBe("red\nprogress 100%\ndone");
		expect(cleanOutput("a\r\n\u001b[1mb\u001b[22m\r")).toBe("a\nb");
	});

	it("gives stdin EOF at once", async () => {
		const started = Date.now();
		const r = await run("cat; echo after");
		expect(r.content).toBe("after");
		expect(Date.now() - started).toBeLessThan(1000);
	});

	it("does not wait for a background child that holds the pipe", async () => {
		const started = Date.now();
		const r = await run('sleep 100 & echo "hi $!"');
		expect(Date.now() - started).toBeLessThan(2000);
		const [, pid] = /^hi (\d+)$/.exec(r.content) ?? [];
		leftovers.push(Number(pid));
		expect(r.isError).toBe(false);
	});

	it("times out, killing the group", async () => {
		const started = Date.now();
		const r = await run("echo started; sleep 5", {}, ctx(), 0.5);
		expect(Date.now() - started).toBeLessThan(1500);
		expect(r.isError).toBe(true);
		expect(r.details).toMatchObject({ timedOut: true, exitCode: null, signal: "SIGTERM" });
		expect(r.content).toMatch(/^started\n\n\[Timed out after 0\.5 s; the command's process group was killed\./);
	});

	it("escalates to SIGKILL when SIGTERM is ignored", async () => {
		const started = Date.now();
		const r = await run("trap '' TERM; sleep 5", { killGraceMs: 300 }, ctx(), 0.3);
		expect(Date.now() - started).toBeLessThan(1500);
		expect(r.details).toMatchObject({ timedOut: true, signal: "SIGKILL" });
	});

	it("stops the whole process group within a second of an abort", async () => {
		const controller = new AbortController();
		const pidFile = join(dir, "child.pid");
		const pending = run(
			`sleep 30 & echo $! > ${pidFile}; sleep 30; echo never`,
			{},
			ctx({ signal: controller.signal }),
		);
		const child = await waitFor(() =>
			existsSync(pidFile) ? Number(readFileSync(pidFile, "utf8")) || undefined : undefined,
		);
		expect(alive(child)).toBe(true);
		const abortedAt = Date.now();
		controller.abort();
		const r = await pending;
		expect(Date.now() - abortedAt).toBeLessThan(1000);
		expect(r.details.aborted).toBe(true);
		expect(r.isError).toBe(true);
		expect(r.content).toContain("[Aborted by the user; the command's process group was killed.]");
		await waitFor(() => (alive(child) ? undefined : true), 1000);
	});

	it("does not start when already aborted", async () => {
		const controller = new AbortController();
		controller.abort();
		const r = await run(`touch ${join(dir, "ran")}`, {}, ctx({ signal: controller.signal }));
		expect(r.details.aborted).toBe(true);
		expect(r.content).toBe("[Aborted by the user before the command started.]");
		expect(existsSync(join(dir, "ran"))).toBe(false);
	});

	it("keeps head and tail within the limits and saves the full output", async () => {
		const r = await run("seq 1 100", { maxLines: 10, maxBytes: 1000 });
		const path = r.details.fullOutputPath ?? "";
		expect(r.content).toBe(
			`1\n2\n[… 90 lines (263 bytes) omitted; full output: ${path} …]\n93\n94\n95\n96\n97\n98\n99\n100`,
		);
		expect(r.details).toMatchObject({ truncated: true, totalLines: 100, totalBytes: 292 });
		expect(readFileSync(path, "utf8")).toBe(`${Array.from({ length: 100 }, (_, i) => i + 1).join("\n")}\n`);
	});

	it("handles 100 MB of output in bounded memory, saving only the first 50 MB", async () => {
		const before = process.memoryUsage().rss;
		let peak = before;
		const sampler = setInterval(() => {
			peak = Math.max(peak, process.memoryUsage().rss);
		}, 10);
		const r = await run("yes | head -c 100000000").finally(() => clearInterval(sampler));
		expect(Buffer.byteLength(r.content)).toBeLessThan(50 * 1024 + 500);
		expect(r.details).toMatchObject({ truncated: true, totalBytes: 100_000_000, totalLines: 50_000_000, exitCode: 0 });
		expect(statSync(r.details.fullOutputPath ?? "").size).toBe(MAX_SAVED_BYTES);
		expect(r.content).toContain(
			`\n[… 49998000 lines (99996000 bytes) omitted; only the first 50 MB was saved (the cap per call): ${r.details.fullOutputPath} …]\ny\n`,
		);
		expect(peak - before).toBeLessThan(64 * 1024 * 1024);
	});

	it("cuts a single enormous line", async () => {
		const r = await run("head -c 300000 /dev/zero | tr '\\0' 'x'", { maxBytes: 4000 });
		expect(r.details).toMatchObject({ truncated: true, totalLines: 1 });
		expect(Buffer.byteLength(r.content)).toBeLessThan(4000 + 300);
		expect(statSync(r.details.fullOutputPath ?? "").size).toBe(300_000);
	});

	it("throttles progress updates to one per 100 ms", async () => {
		const updates: { at: number; details: ToolProgress }[] = [];
		const onUpdate = (details: ToolProgress) => updates.push({ at: Date.now(), details });
		const r = await run("for i in $(seq 1 60); do echo $i; sleep 0.01; done", {}, ctx({ onUpdate }));
		expect(updates.length).toBeGreaterThanOrEqual(3);
		expect(updates.length).toBeLessThanOrEqual(r.details.durationMs / 100 + 1);
		for (let i = 1; i < updates.length; i++) {
			expect((updates[i]?.at ?? 0) - (updates[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(95);
		}
		const last = updates.at(-1)?.details;
		expect(last?.output.split("\n").at(-1)).toMatch(/^\d+$/);
		expect(last?.command).toContain("seq 1 60");
		expect(last?.kind).toBe("bash");
	});

	it("reports a shell that cannot start", async () => {
		await expect(run("true", { shell: join(dir, "no-such-shell") })).rejects.toThrow(
			/Could not run the command: .*ENOENT/,
		);
	});

	it("explains a missing working directory", async () => {
		await expect(createBashTool({ cwd: join(dir, "gone") }).execute({ command: "true" }, ctx())).rejects.toThrow(
			/working directory .*gone does not exist/,
		);
	});
});
