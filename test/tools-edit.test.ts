import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sha256Hex as sha256 } from "../src/text/digest.js";
import { createEditTool } from "../src/tools/edit.js";
import { previousBytes } from "../src/tools/file-change.js";
import { view } from "../src/tools/text-view.js";

let dir: string;
const ctx = () => ({ signal: new AbortController().signal });

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "gar-edit-"));
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

type Edits = { oldText: string; newText: string }[];
const edit = (path: string, edits: Edits) => createEditTool({ cwd: dir }).execute({ path, edits }, ctx());
const put = (name: string, content: string | Buffer) => writeFileSync(join(dir, name), content);
const get = (name: string) => readFileSync(join(dir, name), "utf8");

/** Edits, checks the result, then undoes from the details alone and expects the original bytes. */
async function editAndUndo(name: string, content: string, edits: Edits, expected: string) {
	put(name, content);
	const r = await edit(name, edits);
	expect(get(name)).toBe(expected);
	expect(r.details.oldHash).toBe(sha256(Buffer.from(content)));
	expect(previousBytes(r.details, readFileSync(join(dir, name)))?.toString("utf8")).toBe(content);
	return r;
}

describe("edit", () => {
	it("replaces a unique text and reports the line", async () => {
		const r = await editAndUndo("a.ts", "one\ntwo\nthree\n", [{ oldText: "two", newText: "2" }], "one\n2\nthree\n");
		expect(r.content).toBe("Edited a.ts: 1 edit, now at line 2.");
		expect(r.details).toMatchObject({
			kind: "edit",
			path: join(dir, "a.ts"),
			added: 1,
			removed: 1,
			firstChangedLine: 2,
			matchLevels: ["exact"],
			undo: "patch",
		});
		expect(r.details.diff).toBe("--- a.ts\n+++ a.ts\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n");
	});

	it("applies several edits against the original text", async () => {
		const r = await editAndUndo(
			"m.txt",
			"a\nb\nc\nd\n",
			[
				{ oldText: "d", newText: "D" },
				{ oldText: "a\nb", newText: "x" },
			],
			"x\nc\nD\n",
		);
		expect(r.content).toBe("Edited m.txt: 2 edits, now at lines 1, 3.");
		expect(r.details.firstChangedLine).toBe(1);
	});

	it("applies nothing when one edit fails, and says which", async () => {
		put("all.txt", "keep\nme\n");
		const error = await edit("all.txt", [
			{ oldText: "keep", newText: "changed" },
			{ oldText: "absent entirely zzz", newText: "y" },
		]).catch((e: Error) => e.message);
		expect(error).toMatch(
			/^No changes were made to all\.txt \(1 of 2 edits failed\)\.\nEdit 2: oldText was not found\./,
		);
		expect(get("all.txt")).toBe("keep\nme\n");
	});

	it("rejects an ambiguous oldText with the count and line numbers", async () => {
		put("dup.txt", "x = 1\ny\nx = 1\nz\nx = 1\n");
		await expect(edit("dup.txt", [{ oldText: "x = 1", newText: "x = 2" }])).rejects.toThrow(
			"oldText matches 3 times (lines 1, 3, 5). Include more surrounding lines so it matches exactly once.",
		);
	});

	it("shows the closest lines for a missing oldText", async () => {
		put("f.ts", "function add(a, b) {\n\treturn a + b;\n}\n\nfunction sub(a, b) {\n\treturn a - b;\n}\n");
		const message = await edit("f.ts", [{ oldText: "function sub(x, y) {\n\treturn x - y;", newText: "" }]).catch(
			(e: Error) => e.message,
		);
		expect(message).toContain("oldText was not found. The most similar lines");
		expect(message).toContain("are 5-6:\n4\t\n5\tfunction sub(a, b) {\n6\t\treturn a - b;\n7\t}\n");
	});

	it("locates text whose indentation differs but only reports it", async () => {
		const content = "if (x) {\n\tcall(a,  b);\n\tdone();\n}\n";
		put("ws.ts", content);
		const message = await edit("ws.ts", [{ oldText: "    call(a, b);\n    done();", newText: "    go();" }]).catch(
			(e: Error) => e.message,
		);
		expect(message).toContain(
			"Ignoring whitespace, it matches at lines 2-3 (indentation or spacing differs). The file has:\n2\t\tcall(a,  b);\n3\t\tdone();\nCopy oldText exactly",
		);
		expect(get("ws.ts")).toBe(content);
	});

	it("notices line-number prefixes copied from read", async () => {
		put("n.txt", "alpha\nbeta\n");
		await expect(edit("n.txt", [{ oldText: "1\talpha\n2\tbeta", newText: "x" }])).rejects.toThrow(
			/line-number prefixes/,
		);
	});

	it("applies a match found after ignoring trailing whitespace and quote style, touching only that span", async () => {
		const content = "say(\u201chi\u201d);   \nkeep \u2018this\u2019  \nend\u2014here\t\n";
		const r = await editAndUndo(
			"q.js",
			content,
			[{ oldText: 'say("hi");\nkeep', newText: 'say("bye");\nkeep' }],
			'say("bye");\nkeep \u2018this\u2019  \nend\u2014here\t\n',
		);
		expect(r.details.matchLevels).toEqual(["normalized"]);
		expect(r.content).toContain("Edit 1 matched only after ignoring trailing whitespace and quote/dash style");
	});

	it("keeps CRLF: LF oldText matches and the new text gets CRLF", async () => {
		const content = "one\r\ntwo\r\nthree\r\nfour\r\n";
		const r = await editAndUndo(
			"w.txt",
			content,
			[{ oldText: "two\nthree", newText: "2\n3\n3.5" }],
			"one\r\n2\r\n3\r\n3.5\r\nfour\r\n",
		);
		expect(r.details.matchLevels).toEqual(["line_endings"]);
		await editAndUndo("w2.txt", content, [{ oldText: "\nfour", newText: "\nFOUR" }], "one\r\ntwo\r\nthree\r\nFOUR\r\n");
	});

	it("keeps a BOM and the bytes around the edit", async () => {
		const content = "\uFEFFfirst\r\nsecond \r\nthird";
		const r = await editAndUndo(
			"bom.txt",
			content,
			[{ oldText: "third", newText: "3rd" }],
			"\uFEFFfirst\r\nsecond \r\n3rd",
		);
		expect(r.details.firstChangedLine).toBe(3);
		expect(readFileSync(join(dir, "bom.txt")).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
	});

	it("undoes an edit of a file without a trailing newline", async () => {
		await editAndUndo("t.txt", "a\nb", [{ oldText: "b", newText: "b\nc\n" }], "a\nb\nc\n");
	});

	it("rejects overlapping edits", async () => {
		put("o.txt", "abcdef\n");
		await expect(
			edit("o.txt", [
				{ oldText: "abcd", newText: "1" },
				{ oldText: "cdef", newText: "2" },
			]),
		).rejects.toThrow("Edits 1 and 2 overlap (lines 1-1); merge them into one edit.");
	});

	it("rejects an empty oldText and an unchanged newText", async () => {
		put("e.txt", "x\n");
		await expect(edit("e.txt", [{ oldText: "", newText: "y" }])).rejects.toThrow(/oldText is empty.*use write/);
		await expect(edit("e.txt", [{ oldText: "x", newText: "x" }])).rejects.toThrow(/identical/);
	});

	it("keeps large files to exact matching", async () => {
		const big = `${"filler line of text\n".repeat(210_000)}target\n`;
		put("big.txt", big);
		await expect(edit("big.txt", [{ oldText: "targ et", newText: "x" }])).rejects.toThrow(
			/too large for a tolerant search/,
		);
		const r = await edit("big.txt", [{ oldText: "target", newText: "done" }]);
		expect(r.details.firstChangedLine).toBe(210_001);
	});

	it("explains a missing file, a directory and a binary file", async () => {
		put("exists.txt", "");
		await expect(edit("exist.txt", [{ oldText: "a", newText: "b" }])).rejects.toThrow(
			"File not found: exist.txt. Similar names in that directory: exists.txt. To create a new file, use write.",
		);
		mkdirSync(join(dir, "d"));
		await expect(edit("d", [{ oldText: "a", newText: "b" }])).rejects.toThrow("d is a directory, not a file.");
		put("b.bin", Buffer.from([0x61, 0, 0x62]));
		await expect(edit("b.bin", [{ oldText: "a", newText: "b" }])).rejects.toThrow(/not UTF-8 text/);
	});
});

describe("text views", () => {
	it("map every character back to the original, in order", () => {
		const text = "a \u201cq\u201d\t \r\n\u00a0b\u2014c  \n\n  d\r\ne  ";
		for (const mode of ["eol", "loose", "squeeze"] as const) {
			const { norm, map } = view(text, mode);
			expect(map.length).toBe(norm.length);
			for (let i = 0; i < norm.length; i++) {
				const original = text[map[i] ?? -1] ?? "";
				const folded = { "\u201c": '"', "\u201d": '"', "\u00a0": " ", "\u2014": "-" }[original] ?? original;
				expect(norm[i]).toBe(mode === "eol" ? original : folded);
				if (i > 0) expect(map[i]).toBeGreaterThan(map[i - 1] ?? 0);
			}
		}
		expect(view(text, "eol").norm).toBe("a \u201cq\u201d\t \n\u00a0b\u2014c  \n\n  d\ne  ");
		expect(view(text, "loose").norm).toBe('a "q"\n b-c\n\n  d\ne');
		expect(view(text, "squeeze").norm).toBe('a"q"b-cde');
	});
});
