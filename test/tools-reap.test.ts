import { spawnSync } from "node:child_process";
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	utimesSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBashTool } from "../src/tools/bash.js";
import { reapOutputs } from "../src/tools/output-reap.js";

let dir: string;
const ctx = () => ({ signal: new AbortController().signal });

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "gar-reap-"));
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

const NOW = Date.parse("2026-11-23T12:00:00Z");
const HOUR = 3600_000;

/** A saved output of `size` bytes last written `ageMs` before NOW. */
function log(path: string, size: number, ageMs: number): string {
	const full = join(dir, path);
	mkdirSync(join(full, ".."), { recursive: true });
	writeFileSync(full, Buffer.alloc(size, "y"));
	const at = (NOW - ageMs) / 1000;
	utimesSync(full, at, at);
	return full;
}

describe("the per-call save cap", () => {
	it("saves the full output of a long command up to the cap, creating the folder, and says it stopped", async () => {
		const outputDir = join(dir, "bash-output", "session-1");
		const bash = createBashTool({ cwd: dir, outputDir, maxLines: 10, maxBytes: 1000, maxSavedBytes: 5000 });
		const r = await bash.execute({ command: "seq 1 10000" }, ctx());
		const path = r.details.fullOutputPath ?? "";
		expect(path.startsWith(join(outputDir, "gar-bash-"))).toBe(true);
		expect(statSync(outputDir).mode & 0o777).toBe(0o700);
		expect(statSync(path).size).toBe(5000);
		expect(readFileSync(path, "utf8").startsWith("1\n2\n3\n")).toBe(true);
		expect(r.details).toMatchObject({ truncated: true, totalBytes: 48894 });
		expect(r.content).toContain(`omitted; only the first 5000 bytes was saved (the cap per call): ${path} …]`);
		const small = await bash.execute({ command: "seq 1 500" }, ctx());
		expect(statSync(small.details.fullOutputPath ?? "").size).toBe(1892);
		expect(small.content).toContain(`omitted; full output: ${small.details.fullOutputPath} …]`);
	});

	it("reports a folder it cannot create instead of failing the command", async () => {
		writeFileSync(join(dir, "file"), "x");
		const bash = createBashTool({ cwd: dir, outputDir: join(dir, "file", "out"), maxLines: 5 });
		const r = await bash.execute({ command: "seq 1 100" }, ctx());
		expect(r.isError).toBe(false);
		expect(r.details.fullOutputPath).toBeUndefined();
		expect(r.content).toMatch(/the full output could not be saved: .*is a file, not a folder/);
	});

	it("says when a full disk stopped the saving part way", async (t) => {
		const disk = join(dir, "disk");
		mkdirSync(disk);
		if (spawnSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", disk], { stdio: "ignore" }).status !== 0) {
			t.skip();
			return;
		}
		try {
			const bash = createBashTool({ cwd: dir, outputDir: disk, maxLines: 10, maxBytes: 1000 });
			const r = await bash.execute({ command: "head -c 300000 /dev/zero | tr '\\0' 'y'" }, ctx());
			expect(r.details.fullOutputPath?.startsWith(disk)).toBe(true);
			expect(r.content).toMatch(/saving the output failed part way \(ENOSPC: no space left on device.*\): /);
		} finally {
			spawnSync("umount", [disk], { stdio: "ignore" });
		}
	});
});

describe("reapOutputs", () => {
	it("deletes logs older than the age cap, then the oldest beyond the size cap, then empty session folders", () => {
		const stale = log("s1/gar-bash-000001.log", 100, 30 * 24 * HOUR);
		const oldest = log("s2/gar-bash-000002.log", 400, 5 * HOUR);
		const middle = log("gar-bash-000003.log", 400, 3 * HOUR);
		const newest = log("s3/gar-bash-000004.log", 400, 1 * HOUR);
		const r = reapOutputs(dir, { maxBytes: 900, maxAgeMs: 7 * 24 * HOUR, now: NOW });
		expect(r).toEqual({ removedFiles: 2, removedBytes: 500, keptFiles: 2, keptBytes: 800 });
		expect([stale, oldest].map(existsSync)).toEqual([false, false]);
		expect([middle, newest].map(existsSync)).toEqual([true, true]);
		expect(readdirSync(dir).sort()).toEqual(["gar-bash-000003.log", "s3"]);
	});

	it("touches nothing but gar's logs, and never throws", () => {
		const other = log("s1/notes.txt", 10_000, 90 * 24 * HOUR);
		const odd = log("gar-bash-x.log.bak", 10_000, 90 * 24 * HOUR);
		expect(reapOutputs(dir, { maxBytes: 0, maxAgeMs: 0, now: NOW })).toEqual({
			removedFiles: 0,
			removedBytes: 0,
			keptFiles: 0,
			keptBytes: 0,
		});
		expect([other, odd].map(existsSync)).toEqual([true, true]);
		expect(reapOutputs(join(dir, "missing"), { maxBytes: 0, maxAgeMs: 0 }).removedFiles).toBe(0);
	});
});
