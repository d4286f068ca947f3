import { describe, expect, it } from "vitest";
import type { ToolPreview } from "../src/tools/types.js";
import { approvalFlagged, markBlankRuns, previewBody, previewHeadline, resumeHint } from "../src/view/format.js";

const bash = (command: string, cwd = "/w"): ToolPreview => ({ kind: "bash", command, cwd, timeoutMs: 1000 });
const edit = (diff: string, path = "/w/a.ts"): ToolPreview => ({
	kind: "edit",
	path,
	firstChangedLine: 1,
	added: 1,
	removed: 1,
	diff,
	diffTruncated: false,
});

describe("approval previews", () => {
	it("mark a long run of spaces or tabs with its length, so blanks cannot push a command's end away", () => {
		expect(markBlankRuns(`ls -la${" ".repeat(300)}; rm -rf important`)).toBe("ls -la␣×300; rm -rf important");
		expect(markBlankRuns(`a${"\t".repeat(10)}b`)).toBe("a⇥×10b");
		// Short runs (alignment, a few tabs) stay as they are.
		expect(markBlankRuns(`x = 1${" ".repeat(15)}# note`)).toBe(`x = 1${" ".repeat(15)}# note`);
		expect(markBlankRuns("a\t\t\tb")).toBe("a\t\t\tb");
		// A diff keeps its indentation; a command does not.
		expect(markBlankRuns(`${" ".repeat(20)}return x;${" ".repeat(20)}`, true)).toBe(`${" ".repeat(20)}return x;␣×20`);
		expect(markBlankRuns(`${" ".repeat(20)}rm -rf x`)).toBe("␣×20rm -rf x");
	});

	it("show the whole command, with hidden characters and long blank runs made visible", () => {
		expect(previewBody(bash(`echo a\u200b${" ".repeat(40)}\nrm -rf \u001b[2Kx`))).toEqual([
			"$ echo a⟨U+200B⟩␣×40",
			"> rm -rf ␛[2Kx",
		]);
	});

	it("show a diff without its file headers, each line's marker kept before the marks", () => {
		const diff = `--- a.ts\n+++ a.ts\n@@ -1 +1 @@\n-${" ".repeat(20)}old\n+${" ".repeat(20)}new${" ".repeat(30)}// \ufeffx\n`;
		expect(previewBody(edit(diff))).toEqual([
			"@@ -1 +1 @@",
			`-${" ".repeat(20)}old`,
			`+${" ".repeat(20)}new␣×30// ⟨U+FEFF⟩x`,
		]);
	});

	it("show a hidden character in the path or cwd of the headline", () => {
		expect(previewHeadline("bash", bash("ls", "/w/\u200bx"))).toBe("bash in /w/⟨U+200B⟩x (timeout 1.0 s)");
		expect(previewHeadline("edit", edit("", "/w/\u202ea.ts"))).toContain("/w/⟨U+202E⟩a.ts");
	});

	it("flag controls, bidi overrides and zero-width characters wherever they are, and nothing else", () => {
		expect(approvalFlagged(bash("rm -rf /tmp/x\u200b"))).toBe(true);
		expect(approvalFlagged(bash("ls", "/w/\u2060"))).toBe(true);
		expect(approvalFlagged(bash("echo \u001b[2J"))).toBe(true);
		expect(approvalFlagged(edit("+a\u202eb\n"))).toBe(true);
		expect(approvalFlagged(edit("+x\n", "/w/\ufeffa"))).toBe(true);
		expect(approvalFlagged(bash("echo 👩‍👩‍👧 日本語"))).toBe(false);
		expect(approvalFlagged(bash(`ls${" ".repeat(300)}x`))).toBe(false);
	});

	it("say how to continue a session, with the mode it was run in", () => {
		expect(resumeHint("abc123")).toBe("gar: session abc123 · continue it with: gar -c   (or gar --session abc123)");
		expect(resumeHint("abc123", "--plain ")).toBe(
			"gar: session abc123 · continue it with: gar --plain -c   (or gar --plain --session abc123)",
		);
		expect(resumeHint(undefined)).toBe("gar: nothing was saved");
	});
});
