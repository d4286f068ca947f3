import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ReadDetails } from "../src/tools/details.js";
import { createReadTool } from "../src/tools/read.js";
import type { ToolResult } from "../src/tools/types.js";

let dir: string;
const ctx = () => ({ signal: new AbortController().signal });

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "gar-read-"));
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

async function read(
	params: { path: string; offset?: number; limit?: number },
	opts = {},
): Promise<ToolResult<ReadDetails>> {
	return createReadTool({ cwd: dir, ...opts }).execute(params, ctx());
}

const lines = (n: number, f = (i: number) => `line ${i}`) => Array.from({ length: n }, (_, i) => f(i + 1)).join("\n");

describe("read", () => {
	it("shows numbered lines and details", async () => {
		writeFileSync(join(dir, "a.txt"), "alpha\nbeta\ngamma\n");
		const r = await read({ path: "a.txt" });
		expect(r.content).toBe("1\talpha\n2\tbeta\n3\tgamma");
		expect(r.details).toEqual({
			kind: "read",
			path: join(dir, "a.txt"),
			startLine: 1,
			endLine: 3,
			totalLines: 3,
			truncated: false,
		});
	});

	it("right-aligns numbers, strips CR and a BOM, accepts @ and absolute paths", async () => {
		writeFileSync(join(dir, "crlf.txt"), `\uFEFF${lines(10).replace(/\n/g, "\r\n")}`);
		const r = await read({ path: "@crlf.txt", offset: 8 });
		expect(r.content).toBe(" 8\tline 8\n 9\tline 9\n10\tline 10");
		const first = await read({ path: join(dir, "crlf.txt"), limit: 1 });
		expect(first.content.split("\n")[0]).toBe("1\tline 1");
	});

	it("pages with offset and limit and says how to continue", async () => {
		writeFileSync(join(dir, "a.txt"), lines(10));
		const r = await read({ path: "a.txt", offset: 3, limit: 2 });
		expect(r.content).toBe("3\tline 3\n4\tline 4\n\n[Showing lines 3-4 of 10. Use offset=5 to continue.]");
		expect(r.details).toMatchObject({ startLine: 3, endLine: 4, totalLines: 10, truncated: false });
		const end = await read({ path: "a.txt", offset: 9, limit: 5 });
		expect(end.content).toBe(" 9\tline 9\n10\tline 10");
	});

	it("stops at the line limit with a continue hint", async () => {
		writeFileSync(join(dir, "big.txt"), `${lines(5000)}\n`);
		const r = await read({ path: "big.txt" }, { maxLines: 2000 });
		const rows = r.content.split("\n");
		expect(rows[1999]).toBe("2000\tline 2000");
		expect(r.content.endsWith("[Showing lines 1-2000 of 5000. Use offset=2001 to continue.]")).toBe(true);
		expect(r.details).toMatchObject({ startLine: 1, endLine: 2000, totalLines: 5000, truncated: true });
	});

	it("stops at the byte limit without cutting a line", async () => {
		const long = (i: number) => `${i}:${"x".repeat(1000)}`;
		writeFileSync(join(dir, "wide.txt"), lines(200, long));
		const r = await read({ path: "wide.txt" });
		expect(Buffer.byteLength(r.content)).toBeLessThanOrEqual(50 * 1024 + 200);
		const { endLine } = r.details;
		expect(endLine).toBeGreaterThan(40);
		expect(endLine).toBeLessThan(51);
		expect(r.content).toContain(
			`${endLine}\t${long(endLine)}\n\n[Showing lines 1-${endLine} of 200 (50 KB limit reached). Use offset=${endLine + 1} to continue.]`,
		);
		expect(r.details.truncated).toBe(true);
	});

	it("cuts a single enormous line with a clear hint", async () => {
		writeFileSync(join(dir, "min.js"), `${"é".repeat(100_000)}\nnext\n`);
		const r = await read({ path: "min.js" });
		expect(Buffer.byteLength(r.content)).toBeLessThan(52 * 1024);
		expect(r.content).not.toContain("\uFFFD");
		expect(r.content).toContain("[Line 1 is 200000 bytes, over the 50 KB limit; only its first 50 KB is shown.");
		expect(r.content).toContain("Use offset=2 to continue.");
		expect(r.details).toMatchObject({ startLine: 1, endLine: 1, totalLines: 2, truncated: true });
	});

	it("streams a large file instead of loading it", async () => {
		const chunk = `${"y".repeat(99)}\n`.repeat(10_000);
		const big = join(dir, "huge.log");
		writeFileSync(big, "");
		for (let i = 0; i < 60; i++) writeFileSync(big, chunk, { flag: "a" }); // 60 MB, 600k lines
		const before = process.memoryUsage().rss;
		const r = await read({ path: "huge.log", offset: 100_000, limit: 3 });
		expect(r.content.split("\n")[0]).toBe(`100000\t${"y".repeat(99)}`);
		expect(r.details.totalLines).toBeNull(); // the 50 MB after the window are over the counting budget
		expect(r.content).toContain(
			"[Showing lines 100000-100002 (the file is too large to count its lines). Use offset=100003 to continue.]",
		);
		const near = await read({ path: "huge.log", offset: 599_999 });
		expect(near.details).toMatchObject({ startLine: 599_999, endLine: 600_000, totalLines: 600_000 });
		expect(process.memoryUsage().rss - before).toBeLessThan(40 * 1024 * 1024);
	});

	it("counts an empty file and refuses an offset past the end", async () => {
		writeFileSync(join(dir, "empty.txt"), "");
		expect((await read({ path: "empty.txt" })).content).toBe("empty.txt is empty.");
		writeFileSync(join(dir, "three.txt"), "a\nb\nc");
		await expect(read({ path: "three.txt", offset: 9 })).rejects.toThrow(
			"offset=9 is past the end of three.txt, which has 3 lines. Use an offset from 1 to 3.",
		);
	});

	it("refuses binary files", async () => {
		writeFileSync(join(dir, "blob.bin"), Buffer.from([1, 2, 0, 3, 4]));
		await expect(read({ path: "blob.bin" })).rejects.toThrow(/blob\.bin is not a text file \(binary data, 5 bytes\)/);
		writeFileSync(join(dir, "pic.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]));
		await expect(read({ path: "pic.png" })).rejects.toThrow(/PNG image/);
	});

	it("explains a missing file with similar names", async () => {
		writeFileSync(join(dir, "config.json"), "{}");
		await expect(read({ path: "confg.json" })).rejects.toThrow(
			"File not found: confg.json. Similar names in that directory: config.json.",
		);
		await expect(read({ path: "nope/deeper/x.ts" })).rejects.toThrow(
			/The directory nope\/deeper does not exist either/,
		);
	});

	it("calls a dangling symlink what it is, never a similar name of itself", async () => {
		symlinkSync(join(dir, "gone.md"), join(dir, "notes.md"));
		writeFileSync(join(dir, "notes.txt"), "");
		await expect(read({ path: "notes.md" })).rejects.toThrow(
			"File not found: notes.md. It is a symbolic link to gone.md, which does not exist.",
		);
	});

	it("explains a directory and lists some entries", async () => {
		mkdirSync(join(dir, "src"));
		mkdirSync(join(dir, "src", "lib"));
		writeFileSync(join(dir, "src", "main.ts"), "");
		await expect(read({ path: "src" })).rejects.toThrow(
			"src is a directory, not a file. It contains: lib/, main.ts. Read a file inside it, or list it with bash (`ls -la src`).",
		);
	});

	it("explains a path through a file and a permission error", async () => {
		writeFileSync(join(dir, "file.txt"), "x");
		await expect(read({ path: "file.txt/inner" })).rejects.toThrow(
			/a component of the path is a file, not a directory/,
		);
		const secret = join(dir, "secret.txt");
		writeFileSync(secret, "s");
		chmodSync(secret, 0o000);
		// root reads through chmod 000; the assertion only holds for an ordinary user.
		if (process.getuid?.() !== 0) await expect(read({ path: "secret.txt" })).rejects.toThrow(/Permission denied/);
	});

	it("refuses a FIFO without blocking and reads files that report size 0", async () => {
		execFileSync("mkfifo", [join(dir, "pipe")]);
		await expect(read({ path: "pipe" })).rejects.toThrow("pipe is not a regular file");
		if (existsSync("/proc/self/status")) {
			const r = await read({ path: "/proc/self/status", limit: 1 });
			expect(r.content).toMatch(/^1\tName:/);
		}
	});

	it("stops when aborted", async () => {
		writeFileSync(join(dir, "a.txt"), "a");
		const controller = new AbortController();
		controller.abort();
		await expect(
			createReadTool({ cwd: dir }).execute({ path: "a.txt" }, { signal: controller.signal }),
		).rejects.toThrow(/Aborted/);
	});
});
