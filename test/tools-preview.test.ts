import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as z from "../src/text/zod.js";
import { createBashTool } from "../src/tools/bash.js";
import { createEditTool } from "../src/tools/edit.js";
import { MAX_DIFF_CHARS } from "../src/tools/file-change.js";
import { createTools, previewTool } from "../src/tools/index.js";
import type { AnyTool } from "../src/tools/types.js";

let dir: string;
const signal = () => new AbortController().signal;
const ctx = () => ({ signal: signal() });

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "gar-preview-"));
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

const tool = (name: string): AnyTool => {
	const found = createTools({ cwd: dir, bashTimeoutMs: 30_000 }).find((t) => t.name === name);
	if (!found) throw new Error(`no tool ${name}`);
	return found;
};
const put = (name: string, content: string) => writeFileSync(join(dir, name), content);

/** Every path under `dir` with its content (files) and modification time: what a preview must not change. */
function snapshot(root = dir): Record<string, string> {
	const out: Record<string, string> = {};
	for (const entry of readdirSync(root, { withFileTypes: true, recursive: true })) {
		const path = join(entry.parentPath, entry.name);
		const info = statSync(path);
		const body = entry.isFile() ? readFileSync(path, "utf8") : "(dir)";
		out[relative(root, path)] = `${info.mtimeMs} ${info.mode} ${body}`;
	}
	return out;
}

describe("write preview", () => {
	it("a new file: create, N lines, the whole content as added lines; nothing is created", async () => {
		const before = snapshot();
		const p = await previewTool(tool("write"), { path: "a/b/new.txt", content: "one\ntwo\n" }, signal());
		expect(p).toEqual({
			kind: "write",
			path: join(dir, "a/b/new.txt"),
			action: "create",
			lines: 2,
			bytes: 8,
			added: 2,
			removed: 0,
			diff: "--- a/b/new.txt\n+++ a/b/new.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n",
			diffTruncated: false,
		});
		expect(snapshot()).toEqual(before);
	});

	it("an existing file: overwrite with the full diff and counts; the file is unchanged", async () => {
		put("x.txt", "one\ntwo\nthree\n");
		const before = snapshot();
		const p = await previewTool(tool("write"), { path: "x.txt", content: "one\n2\nthree\nfour\n" }, signal());
		expect(p).toMatchObject({ kind: "write", action: "overwrite", lines: 4, bytes: 17, added: 2, removed: 1 });
		expect(p).toMatchObject({
			diff: "--- x.txt\n+++ x.txt\n@@ -1,3 +1,4 @@\n one\n-two\n+2\n three\n+four\n",
			diffTruncated: false,
		});
		expect(snapshot()).toEqual(before);
		const r = await tool("write").execute({ path: "x.txt", content: "one\n2\nthree\nfour\n" }, ctx());
		expect(r.details).toMatchObject({ diff: (p as { diff: string }).diff, added: 2, removed: 1, lines: 4 });
	});

	it("bounds a huge diff and says it was cut, with the real counts", async () => {
		const content = "line of text\n".repeat(100_000);
		const p = await previewTool(tool("write"), { path: "huge.txt", content }, signal());
		expect(p).toMatchObject({ kind: "write", action: "create", lines: 100_000, added: 100_000, diffTruncated: true });
		const diff = (p as { diff: string }).diff;
		expect(diff.length).toBeLessThanOrEqual(MAX_DIFF_CHARS);
		expect(diff.startsWith("--- huge.txt\n+++ huge.txt\n@@ -0,0 +1,100000 @@\n+line of text\n")).toBe(true);
		expect(diff.endsWith("+line of text\n")).toBe(true);
	});

	it("says what execute would say for a directory and a parent that is a file", async () => {
		mkdirSync(join(dir, "d"));
		put("f", "x");
		const before = snapshot();
		const write = tool("write");
		expect(await previewTool(write, { path: "d", content: "x" }, signal())).toEqual({
			kind: "invalid",
			message: "d is a directory; give the path of a file inside it.",
		});
		const nested = await previewTool(write, { path: "f/inner/x.txt", content: "x" }, signal());
		expect(nested).toEqual({
			kind: "invalid",
			message: "Cannot write f/inner/x.txt: a component of the path is a file, not a directory.",
		});
		expect(snapshot()).toEqual(before);
	});
});

describe("edit preview", () => {
	it("shows the diff execute will make, and the first changed line; the file is unchanged", async () => {
		const content = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n";
		put("m.txt", content);
		const edits = [
			{ oldText: "i", newText: "I" },
			{ oldText: "b\nc", newText: "B" },
		];
		const before = snapshot();
		const p = await previewTool(tool("edit"), { path: "m.txt", edits }, signal());
		expect(snapshot()).toEqual(before);
		expect(p).toMatchObject({ kind: "edit", path: join(dir, "m.txt"), firstChangedLine: 2, added: 2, removed: 3 });
		const r = await createEditTool({ cwd: dir }).execute({ path: "m.txt", edits }, ctx());
		expect(p).toMatchObject({ diff: r.details.diff, diffTruncated: false });
		expect(r.details).toMatchObject({ firstChangedLine: 2, added: 2, removed: 3 });
	});

	it("uses the same matching rules as execute (CRLF, trailing whitespace, quotes)", async () => {
		put("w.txt", "one\r\ntwo  \r\nsay(\u201chi\u201d)\r\n");
		const edits = [
			{ oldText: "one\ntwo", newText: "1\n2" },
			{ oldText: 'say("hi")', newText: 'say("bye")' },
		];
		const p = await previewTool(tool("edit"), { path: "w.txt", edits }, signal());
		expect(p).toMatchObject({ kind: "edit", firstChangedLine: 1 });
		const r = await createEditTool({ cwd: dir }).execute({ path: "w.txt", edits }, ctx());
		expect((p as { diff: string }).diff).toBe(r.details.diff);
	});

	it("an edit that would fail is invalid, with execute's message", async () => {
		put("dup.txt", "x = 1\ny\nx = 1\n");
		put("o.txt", "abcdef\n");
		const cases: [string, { oldText: string; newText: string }[]][] = [
			["dup.txt", [{ oldText: "x = 1", newText: "x = 2" }]],
			["dup.txt", [{ oldText: "absent zzz", newText: "y" }]],
			[
				"o.txt",
				[
					{ oldText: "abcd", newText: "1" },
					{ oldText: "cdef", newText: "2" },
				],
			],
			["missing.txt", [{ oldText: "a", newText: "b" }]],
		];
		for (const [path, edits] of cases) {
			const message = await tool("edit")
				.execute({ path, edits }, ctx())
				.then(
					() => "no error",
					(e: Error) => e.message,
				);
			expect(await previewTool(tool("edit"), { path, edits }, signal())).toEqual({ kind: "invalid", message });
		}
		expect(readFileSync(join(dir, "dup.txt"), "utf8")).toBe("x = 1\ny\nx = 1\n");
	});
});

describe("bash preview and previewTool", () => {
	it("bash: the whole command, the cwd and the effective timeout; nothing runs", async () => {
		const command = `touch ${join(dir, "ran")}; ${"echo long; ".repeat(500)}`;
		expect(await previewTool(tool("bash"), { command }, signal())).toEqual({
			kind: "bash",
			command,
			cwd: dir,
			timeoutMs: 30_000,
		});
		expect(await previewTool(tool("bash"), { command: "true", timeout: "7" }, signal())).toMatchObject({
			timeoutMs: 7000,
		});
		const custom = createBashTool({ cwd: dir, timeoutMs: 5000 });
		expect(await previewTool(custom, { command: "x" }, signal())).toMatchObject({ timeoutMs: 5000 });
		expect(readdirSync(dir)).toEqual([]);
	});

	it("invalid arguments give runTool's message; a tool without a preview gives null; a throw becomes invalid", async () => {
		const bad = await previewTool(tool("write"), { path: "" }, signal());
		expect(bad?.kind).toBe("invalid");
		expect(bad && "message" in bad ? bad.message : "").toMatch(
			/^Invalid arguments for write: .*\nExpected \(path: string, content: string\); fix the arguments/s,
		);
		const bare: AnyTool = { ...tool("read"), preview: undefined };
		expect(await previewTool(bare, { path: "x" }, signal())).toBeNull();
		// read's preview is only for a PreToolUse hook's "ask" (reads never ask otherwise).
		expect(await previewTool(tool("read"), { path: "x", offset: 3 }, signal())).toEqual({
			kind: "read",
			path: "x",
			offset: 3,
		});
		const odd: AnyTool = {
			name: "odd",
			description: "throws in preview",
			parameters: z.object({}),
			mutating: true,
			execute: () => Promise.reject(new Error("never")),
			preview: () => Promise.reject(new Error("cannot tell")),
		};
		expect(await previewTool(odd, {}, signal())).toEqual({ kind: "invalid", message: "cannot tell" });
	});
});
