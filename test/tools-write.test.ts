import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sha256Hex as sha256 } from "../src/text/digest.js";
import { MAX_PREVIOUS_CONTENT, previousBytes, replacementPatch, reverseApply } from "../src/tools/file-change.js";
import { createWriteTool } from "../src/tools/write.js";

let dir: string;
const ctx = () => ({ signal: new AbortController().signal });

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "gar-write-"));
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

const write = (path: string, content: string) => createWriteTool({ cwd: dir }).execute({ path, content }, ctx());

/** Overwrites `name` holding `old` with `next`, then undoes it from the details alone. */
async function roundTrip(name: string, old: Buffer, next: string) {
	const file = join(dir, name);
	writeFileSync(file, old);
	const r = await write(name, next);
	expect(readFileSync(file, "utf8")).toBe(next);
	expect(r.details.oldHash).toBe(sha256(old));
	expect(r.details.newHash).toBe(sha256(Buffer.from(next)));
	const restored = previousBytes(r.details, readFileSync(file));
	expect(restored?.equals(old)).toBe(true);
	return r;
}

describe("write", () => {
	it("creates a file and its parent folders; undo is delete", async () => {
		const r = await write("a/b/c.txt", "hello\nworld\n");
		expect(readFileSync(join(dir, "a/b/c.txt"), "utf8")).toBe("hello\nworld\n");
		expect(r.content).toBe("Created a/b/c.txt (2 lines, 12 bytes).");
		expect(r.details).toMatchObject({
			kind: "write",
			action: "created",
			oldHash: null,
			undo: "delete",
			bytes: 12,
			lines: 2,
			added: 2,
			removed: 0,
		});
		expect(r.details.path).toBe(join(dir, "a/b/c.txt"));
		expect(r.details.diff).toContain("+hello\n+world\n");
		expect(previousBytes(r.details, readFileSync(join(dir, "a/b/c.txt")))).toBeNull();
	});

	it("overwrites with a unified diff and counts", async () => {
		writeFileSync(join(dir, "x.txt"), "one\ntwo\nthree\n");
		const r = await write("x.txt", "one\n2\nthree\nfour\n");
		expect(r.content).toBe("Overwrote x.txt (4 lines, 17 bytes; +2 -1 lines).");
		expect(r.details).toMatchObject({ action: "overwritten", lines: 4, added: 2, removed: 1 });
		expect(r.details.diff).toBe("--- x.txt\n+++ x.txt\n@@ -1,3 +1,4 @@\n one\n-two\n+2\n three\n+four\n");
	});

	it("says when nothing changed", async () => {
		writeFileSync(join(dir, "same.txt"), "same\n");
		expect((await write("same.txt", "same\n")).content).toBe("same.txt already had this content; nothing changed.");
	});

	it("undoes exactly: plain, CRLF, no trailing newline, empty old file, BOM", async () => {
		expect((await roundTrip("plain.txt", Buffer.from("a\nb\nc\n"), "a\nB\nc\nd\n")).details.undo).toBe("patch");
		expect((await roundTrip("crlf.txt", Buffer.from("a\r\nb\r\nc\r\n"), "a\r\nB\r\nc\r\n")).details.undo).toBe("patch");
		expect((await roundTrip("to-lf.txt", Buffer.from("a\r\nb\r\n"), "a\nb\n")).details.undo).toBe("patch");
		expect((await roundTrip("mixed.txt", Buffer.from("a\nb\r\nc"), "a\r\nb\nc\n")).details.undo).toBe("patch");
		expect((await roundTrip("noeol.txt", Buffer.from("a\nb"), "a\nb\n")).details.undo).toBe("patch");
		expect((await roundTrip("noeol2.txt", Buffer.from("x\ny\n"), "x\ny")).details.undo).toBe("patch");
		expect((await roundTrip("empty.txt", Buffer.alloc(0), "now\nfull\n")).details.undo).toBe("patch");
		expect((await roundTrip("emptied.txt", Buffer.from("gone\n"), "")).details.undo).toBe("patch");
		expect((await roundTrip("bom.txt", Buffer.from("\uFEFFa\r\nb\r\n"), "\uFEFFa\r\nc\r\n")).details.undo).toBe(
			"patch",
		);
		expect((await roundTrip("cr.txt", Buffer.from("a\rb\rc"), "a\rB\rc")).details.undo).toBe("patch");
	});

	it("keeps the old bytes of a binary or non-UTF-8 file", async () => {
		const binary = Buffer.from([0, 1, 2, 255, 254, 10, 0]);
		const r = await roundTrip("blob.bin", binary, "text now\n");
		expect(r.details.undo).toBe("previous_content");
		expect(r.details.diff).toBe("Binary files blob.bin and blob.bin differ\n");
		expect(Buffer.from(r.details.previousContent ?? "", "base64").equals(binary)).toBe(true);
		const latin1 = Buffer.from("caf\xe9\n", "latin1");
		expect((await roundTrip("latin1.txt", latin1, "café\n")).details.undo).toBe("previous_content");
	});

	it("gives up keeping a huge binary old file and says so", async () => {
		const file = join(dir, "big.bin");
		writeFileSync(file, Buffer.alloc(MAX_PREVIOUS_CONTENT + 1, 0));
		const r = await write("big.bin", "small\n");
		expect(r.details.undo).toBe("none");
		expect(r.details.previousContent).toBeUndefined();
		expect(() => previousBytes(r.details, readFileSync(file))).toThrow(/not recorded/);
	});

	it("refuses to undo over a file changed since", async () => {
		writeFileSync(join(dir, "x.txt"), "a\n");
		const r = await write("x.txt", "b\n");
		expect(() => previousBytes(r.details, Buffer.from("c\n"))).toThrow(/changed after this edit/);
	});

	it("undoes a large rewrite", async () => {
		const old = Buffer.from(Array.from({ length: 1000 }, (_, i) => `old ${i}`).join("\n"));
		const next = Array.from({ length: 1000 }, (_, i) => (i % 3 ? `old ${i}` : `new ${i}`)).join("\n");
		expect((await roundTrip("large.txt", old, next)).details.undo).toBe("patch");
	});

	it("has an exact whole-file patch for diffs jsdiff gives up on", () => {
		const cases = [
			["a\nb\n", "c\n"],
			["a\r\nb", "x\r\ny\r\n"],
			["", "new\n"],
			["old", ""],
			["", ""],
			["\n\n", "\n"],
		];
		for (const [old = "", next = ""] of cases) {
			const patch = replacementPatch("f", old, next);
			expect(reverseApply(next, patch)).toBe(old);
		}
	});

	it("explains a directory target and a parent that is a file", async () => {
		mkdirSync(join(dir, "d"));
		await expect(write("d", "x")).rejects.toThrow("d is a directory; give the path of a file inside it.");
		writeFileSync(join(dir, "f"), "x");
		await expect(write("f/inner.txt", "x")).rejects.toThrow(/a component of the path is a file, not a directory/);
		expect(existsSync(join(dir, "f/inner.txt"))).toBe(false);
	});
});
