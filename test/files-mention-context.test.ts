// What the model reads of a file named with @: the message as written, then the first lines of each small text file
// it mentions, as blocks the chat folds.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { withMentionedFiles } from "../src/files/mention-context.js";

function project(): string {
	const root = mkdtempSync(join(tmpdir(), "gar-mentions-"));
	mkdirSync(join(root, "src"));
	writeFileSync(join(root, "src", "a.ts"), "export const a = 1;\nexport const b = 2;\n");
	writeFileSync(join(root, "my notes.md"), "remember\n");
	writeFileSync(join(root, "long.txt"), Array.from({ length: 500 }, (_, i) => `line ${i + 1}`).join("\n"));
	writeFileSync(join(root, "big.log"), "x".repeat(300 * 1024));
	writeFileSync(join(root, "image.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
	writeFileSync(join(root, "empty.txt"), "");
	return root;
}

describe("a message that mentions files", () => {
	const root = project();

	it("carries the first lines of a small file after the text as written, as a range the chat folds", () => {
		const sent = withMentionedFiles({ text: "fix @src/a.ts, please" }, root);
		const block = '<file path="src/a.ts" lines="2 lines">\nexport const a = 1;\nexport const b = 2;\n</file>';
		expect(sent.text).toBe(`fix @src/a.ts, please\n\n${block}`);
		expect(sent.pastes).toEqual([{ start: 23, end: sent.text.length }]);
		expect(sent.text.slice(23)).toBe(block);
	});

	it("cuts a long file to its first 200 lines and says how many there are", () => {
		const sent = withMentionedFiles({ text: "@long.txt" }, root);
		expect(sent.text).toContain('<file path="long.txt" lines="lines 1-200 of 500">\nline 1\n');
		expect(sent.text).toContain("\nline 200\n</file>");
		expect(sent.text).not.toContain("line 201");
	});

	it("keeps the pastes already in the message, a quoted path, and each file once", () => {
		const sent = withMentionedFiles(
			{ text: 'see [big] and @"my notes.md" and @src/a.ts and @src/a.ts', pastes: [{ start: 4, end: 9 }] },
			root,
		);
		expect(sent.pastes?.[0]).toEqual({ start: 4, end: 9 });
		expect(sent.pastes).toHaveLength(3);
		expect(sent.text).toContain('<file path="my notes.md" lines="1 line">\nremember\n</file>');
		expect(sent.text.split("<file ").length - 1).toBe(2);
	});

	it("leaves the text alone for what is not a small text file: missing, large, binary, a folder, a decorator", () => {
		for (const text of ["@gone.ts", "@big.log", "@image.png", "@src", "@Override public void run()", "me@src/a.ts"]) {
			expect(withMentionedFiles({ text }, root)).toEqual({ text });
		}
		expect(withMentionedFiles({ text: "@empty.txt" }, root).text).toBe(
			'@empty.txt\n\n<file path="empty.txt" lines="0 lines">\n\n</file>',
		);
	});
});
