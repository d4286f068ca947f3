import { spawnSync } from "node:child_process";
import {
	existsSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	symlinkSync,
	truncateSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sha256Hex as sha256 } from "../src/text/digest.js";
import { createEditTool } from "../src/tools/edit.js";
import { MAX_DIFF_CHARS, MAX_PREVIOUS_CONTENT, previousBytes } from "../src/tools/file-change.js";
import { makeDirs } from "../src/tools/make-dirs.js";
import { MAX_UNDO_BYTES } from "../src/tools/old-file.js";
import { createWriteTool } from "../src/tools/write.js";

let dir: string;
const ctx = () => ({ signal: new AbortController().signal });

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "gar-special-"));
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

const write = (path: string, content: string) => createWriteTool({ cwd: dir }).execute({ path, content }, ctx());
const edit = (path: string, oldText = "a", newText = "b") =>
	createEditTool({ cwd: dir }).execute({ path, edits: [{ oldText, newText }] }, ctx());

/** Runs `fn`, expects it to reject with `pattern` within `ms`. */
async function rejectsPromptly(fn: () => Promise<unknown>, pattern: RegExp, ms = 1000): Promise<void> {
	const started = Date.now();
	await expect(fn()).rejects.toThrow(pattern);
	expect(Date.now() - started).toBeLessThan(ms);
}

function fifo(name: string): string {
	const path = join(dir, name);
	expect(spawnSync("mkfifo", [path]).status).toBe(0);
	return path;
}

describe("non-regular files", () => {
	it("edit refuses a FIFO, a device and a link to a FIFO promptly", async () => {
		fifo("pipe");
		symlinkSync("pipe", join(dir, "to-pipe"));
		const notRegular = /is not a regular file \(a device, FIFO or socket\); edit only changes regular files\. Use bash/;
		await rejectsPromptly(() => edit("pipe"), notRegular);
		await rejectsPromptly(() => edit("to-pipe"), notRegular);
		await rejectsPromptly(() => edit("/dev/zero"), notRegular);
	});

	it("write refuses a FIFO and a device promptly and leaves them as they were", async () => {
		const pipe = fifo("pipe");
		symlinkSync("pipe", join(dir, "to-pipe"));
		const notRegular =
			/is not a regular file \(a device, FIFO or socket\); write only changes regular files\. Use bash/;
		await rejectsPromptly(() => write("pipe", "x"), notRegular);
		await rejectsPromptly(() => write("to-pipe", "x"), notRegular);
		await rejectsPromptly(() => write("/dev/null", "x"), notRegular);
		expect(statSync(pipe).isFIFO()).toBe(true);
		expect(readdirSync(dir).sort()).toEqual(["pipe", "to-pipe"]);
		const preview = await createWriteTool({ cwd: dir }).preview?.({ path: "pipe", content: "x" }, ctx());
		expect(preview).toMatchObject({ kind: "invalid", message: expect.stringMatching(notRegular) });
	});

	it("write to /dev/stdout while stdout is a pipe returns at once with a refusal", () => {
		const fixture = join(import.meta.dirname, "fixtures/tools/write-stdout.ts");
		// A shell pipe: node's own stdio "pipe" would be a socket, not a FIFO.
		const r = spawnSync("sh", ["-c", `"${process.execPath}" --import tsx "${fixture}" | cat`], {
			cwd: join(import.meta.dirname, ".."),
			encoding: "utf8",
			timeout: 10_000,
		});
		expect(r.stderr).toContain("/dev/stdout is not a regular file (a device, FIFO or socket)");
		expect(r.stdout).toBe("");
	});
});

describe("large files", () => {
	it("a 20 MB write keeps its details small and still undoes", async () => {
		const content = "twenty megabytes of text, line after line\n".repeat(500_000);
		const created = await write("big.txt", content);
		expect(created.details).toMatchObject({ action: "created", undo: "delete", diffTruncated: true, lines: 500_000 });
		expect(JSON.stringify(created.details).length).toBeLessThan(MAX_DIFF_CHARS * 1.2);
		writeFileSync(join(dir, "small.txt"), "was small\n");
		const over = await write("small.txt", content);
		expect(over.details).toMatchObject({ undo: "previous_content", diffTruncated: true, added: 500_000, removed: 1 });
		expect(JSON.stringify(over.details).length).toBeLessThan(MAX_DIFF_CHARS * 1.2);
		const back = previousBytes(over.details, readFileSync(join(dir, "small.txt")));
		expect(back?.toString("utf8")).toBe("was small\n");
	});

	it("overwriting a file over the undo limit keeps hashes only: undo unavailable", async () => {
		const old = Buffer.alloc(MAX_UNDO_BYTES + 1, "a");
		writeFileSync(join(dir, "huge.txt"), old);
		const r = await write("huge.txt", "small now\n");
		expect(r.details).toMatchObject({ action: "overwritten", undo: "none", oldHash: sha256(old), removed: 1 });
		expect(r.details.diff).toBe("Files huge.txt and huge.txt differ (the old file is too large to diff)\n");
		expect(JSON.stringify(r.details).length).toBeLessThan(1000);
		expect(() => previousBytes(r.details, readFileSync(join(dir, "huge.txt")))).toThrow(/undo unavailable/);
	});

	it("keeps a cut diff from being used as the undo patch", async () => {
		const line = (c: string) => `${c.repeat(999)}\n`;
		writeFileSync(join(dir, "cut.txt"), line("o").repeat(MAX_PREVIOUS_CONTENT / 1000 + 1));
		const r = await write("cut.txt", line("n").repeat(300));
		expect(r.details).toMatchObject({ diffTruncated: true, undo: "none" });
	});

	it("edit refuses a file over the limit without reading it", async () => {
		writeFileSync(join(dir, "huge.txt"), Buffer.alloc(MAX_UNDO_BYTES + 1, "a"));
		const tooLarge = /huge\.txt is 10 MB, over edit's 10 MB limit; change it with bash/;
		await rejectsPromptly(() => edit("huge.txt"), tooLarge, 200);
		// Sparse: 4 GB that would take seconds and gigabytes to read.
		writeFileSync(join(dir, "sparse.bin"), "");
		truncateSync(join(dir, "sparse.bin"), 4 * 1024 ** 3);
		await rejectsPromptly(() => edit("sparse.bin"), /sparse\.bin is 4096 MB, over edit's 10 MB limit/, 200);
	});

	it("overwriting a large file streams it for its hash in bounded memory", async () => {
		writeFileSync(join(dir, "zeros.bin"), "");
		truncateSync(join(dir, "zeros.bin"), 256 * 1024 * 1024);
		const before = process.memoryUsage().arrayBuffers;
		const r = await write("zeros.bin", "replaced\n");
		expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(32 * 1024 * 1024);
		expect(r.details).toMatchObject({ undo: "none", removed: 1, added: 1 });
		expect(r.details.oldHash).toMatch(/^[0-9a-f]{64}$/);
	});
});

describe("makeDirs", () => {
	it("creates missing folders one by one and returns the first one made", () => {
		expect(makeDirs(join(dir, "a/b/c"), 0o700)).toBe(join(dir, "a"));
		expect(statSync(join(dir, "a/b/c")).isDirectory()).toBe(true);
		expect(statSync(join(dir, "a/b")).mode & 0o777).toBe(0o700);
		expect(makeDirs(join(dir, "a/b"))).toBeUndefined();
	});

	it("explains a component that is a file", () => {
		writeFileSync(join(dir, "f"), "x");
		expect(() => makeDirs(join(dir, "f/g/h"))).toThrow(expect.objectContaining({ code: "ENOTDIR" }));
		expect(existsSync(join(dir, "f/g"))).toBe(false);
	});

	it("fails fast under /proc/sys, where Node 20's recursive mkdir spins forever", async () => {
		const started = Date.now();
		expect(() => makeDirs("/proc/sys/gar-test/y/z")).toThrow(/^cannot create folder \/proc\/sys\/gar-test \(/);
		await rejectsPromptly(
			() => write("/proc/sys/gar-test/y/z.txt", "x"),
			/^Cannot write \/proc\/sys\/gar-test\/y\/z\.txt/,
		);
		expect(Date.now() - started).toBeLessThan(1000);
	});
});
