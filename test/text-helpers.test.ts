import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { maskExcerpt } from "../src/config/mask.js";
import { redact } from "../src/llm/errors.js";
import { redactSecrets } from "../src/session/redact.js";
import { maskSecrets } from "../src/session/writer.js";
import { editDistance } from "../src/text/distance.js";
import { FuzzyRows } from "../src/text/fuzzy.js";
import { danglingLink, danglingTarget, expandHome, gitRoot, tildePath } from "../src/text/paths.js";
import { maskKeys, maskValues } from "../src/text/secrets.js";

describe("editDistance", () => {
	it("counts insertions, deletions and substitutions", () => {
		expect(editDistance("", "")).toBe(0);
		expect(editDistance("abc", "")).toBe(3);
		expect(editDistance("", "abc")).toBe(3);
		expect(editDistance("kitten", "sitting")).toBe(3);
		expect(editDistance("max_turns", "max_turns")).toBe(0);
	});

	it("counts a swap of neighbours as one edit, or as two with swaps: false", () => {
		expect(editDistance("sessoins", "sessions")).toBe(1);
		expect(editDistance("sessoins", "sessions", { swaps: false })).toBe(2);
		expect(editDistance("ab", "ba")).toBe(1);
		expect(editDistance("ab", "ba", { swaps: false })).toBe(2);
		expect(editDistance("kitten", "sitting", { swaps: false })).toBe(3);
	});
});

describe("paths", () => {
	let root: string;
	beforeEach(() => {
		root = mkdtempSync(join(tmpdir(), "gar-text-"));
	});
	afterEach(() => rmSync(root, { recursive: true, force: true }));

	it("expandHome expands ~ and ~/ only", () => {
		expect(expandHome("~", "/home/me")).toBe("/home/me");
		expect(expandHome("~/x/y", "/home/me")).toBe("/home/me/x/y");
		expect(expandHome("~other/x", "/home/me")).toBe("~other/x");
		expect(expandHome("a/~/b", "/home/me")).toBe("a/~/b");
		expect(expandHome("/abs", "/home/me")).toBe("/abs");
	});

	it("tildePath shows the home folder as ~, never a mere prefix of it", () => {
		expect(tildePath("/home/me", "/home/me")).toBe("~");
		expect(tildePath("/home/me/src/app", "/home/me")).toBe("~/src/app");
		expect(tildePath("/home/meow/x", "/home/me")).toBe("/home/meow/x");
		expect(tildePath("/etc/x", "/home/me")).toBe("/etc/x");
		expect(tildePath("/x", "/")).toBe("/x");
		expect(tildePath("/x", "")).toBe("/x");
	});

	it("gitRoot finds the nearest folder holding .git, a folder or a worktree's file", () => {
		const repo = join(root, "repo");
		mkdirSync(join(repo, ".git"), { recursive: true });
		mkdirSync(join(repo, "a", "b"), { recursive: true });
		expect(gitRoot(join(repo, "a", "b"))).toBe(repo);
		expect(gitRoot(repo)).toBe(repo);
		const worktree = join(repo, "a", "wt");
		mkdirSync(worktree);
		writeFileSync(join(worktree, ".git"), "gitdir: /somewhere\n");
		expect(gitRoot(join(worktree, "."))).toBe(worktree);
		const outside = mkdtempSync(join(tmpdir(), "gar-norepo-"));
		try {
			expect(gitRoot(outside)).toBeUndefined();
		} finally {
			rmSync(outside, { recursive: true, force: true });
		}
	});

	it("danglingLink names where a link to nothing points, and nothing else", () => {
		symlinkSync(join(root, "gone"), join(root, "link"));
		writeFileSync(join(root, "file"), "x");
		symlinkSync(join(root, "file"), join(root, "good"));
		expect(danglingTarget(join(root, "link"))).toBe(join(root, "gone"));
		expect(danglingLink(join(root, "link"))).toBe(`a symbolic link to ${join(root, "gone")}, which does not exist`);
		expect(danglingLink(join(root, "link"), () => "gone")).toBe("a symbolic link to gone, which does not exist");
		expect(danglingLink(join(root, "good"))).toBeUndefined();
		expect(danglingLink(join(root, "file"))).toBeUndefined();
		expect(danglingLink(join(root, "missing"))).toBeUndefined();
	});
});

describe("secrets", () => {
	const KEY = "sk-abcd1234";

	it("one idea of a key: every place that hides keys hides the same ones, each in its own words", () => {
		const text = `key ${KEY}. Authorization: Bearer abcdefgh12345 and api_key=abcdefgh12345`;
		expect(maskKeys(text, () => "KEY")).toBe("key KEY. Authorization: Bearer [redacted] and api_key=[redacted]");
		expect(redact(text, [])).toBe("key sk-ab…[redacted]. Authorization: Bearer [redacted] and api_key=[redacted]");
		expect(redactSecrets(text)).toBe("key sk-[redacted]. Authorization: Bearer [redacted] and api_key=[redacted]");
		expect(maskExcerpt(`1:  x = "${KEY}"`)).toBe('1:  x = "sk-…"');
	});

	it("leaves what is not a key: too short, inside a word, a sentence's full stop", () => {
		const text = "sk-short, task-abcdefghijkl, skip-this";
		expect(maskKeys(text, () => "KEY")).toBe(text);
		expect(maskKeys("sk-proj-abc.def12345.", () => "KEY")).toBe("KEY.");
		expect(maskKeys("a half-masked sk-proj-********abcd", () => "KEY")).toBe("a half-masked KEY");
	});

	it("replaces known values, never short ones, as they are written in JSON with json", () => {
		expect(maskValues("a hunter2 b", ["hunter2"])).toBe("a [redacted] b");
		expect(maskValues("a abc b", ["abc", "", undefined])).toBe("a abc b");
		expect(maskValues("a hunter2 b", ["hunter2"], { minLength: 8 })).toBe("a hunter2 b");
		const line = JSON.stringify({ content: 'my "pass\\word" here' });
		expect(maskValues(line, ['"pass\\word"'], { json: true })).toBe('{"content":"my [redacted] here"}');
		expect(maskSecrets('{"isError":true,"x":"truetrue"}', ["true", "truetrue"])).toBe(
			'{"isError":true,"x":"[redacted]"}',
		);
	});
});

describe("FuzzyRows (the picker's filter)", () => {
	const rows = [
		{ id: 1, texts: ["修复解析器的测试"] },
		{ id: 2, texts: ["исправить парсер"] },
		{ id: 3, texts: ["Ärger mit Umlauten", "fix the parser"] },
		{ id: 4, texts: ["the quick brown fox jumps over the lazy dog parsing"] },
	];
	const find = (fuzzy: FuzzyRows<(typeof rows)[number]>, query: string) => fuzzy.find(query).map((hit) => hit.row.id);

	it("matches any script, without accents and case, with letters left out", () => {
		const fuzzy = new FuzzyRows(rows, (row) => row.texts);
		expect(find(fuzzy, "解析器")).toEqual([1]);
		expect(find(fuzzy, "парср")).toEqual([2]);
		expect(find(fuzzy, "arger")).toEqual([3]);
		expect(find(fuzzy, "ÄRGER umlaut")).toEqual([3]);
		// "parsr": the letters of "parser" with one left out; "parsing" has no r after the s close by.
		expect(find(fuzzy, "parsr")).toEqual([3]);
		expect(find(fuzzy, "pars")).toEqual([3, 4]);
		expect(fuzzy.find("umlaut")[0]?.text).toBe("Ärger mit Umlauten");
		expect(find(fuzzy, "qzx")).toEqual([]);
	});
});
