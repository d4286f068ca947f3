import { describe, expect, it } from "vitest";
import { fileBlockLabel, mentionAt, mentionOf, mentionsIn } from "../src/text/mentions.js";

/** The mention at the end of `line` (the cursor there). */
const at = (line: string) => mentionAt(line, line.length);

describe("@ mentions", () => {
	it("start at the start of a line or after whitespace, and end at the cursor", () => {
		expect(at("@")).toEqual({ start: 0, query: "" });
		expect(at("@src/ma")).toEqual({ start: 0, query: "src/ma" });
		expect(at("look at @par")).toEqual({ start: 8, query: "par" });
		expect(at("tab\t@x")).toEqual({ start: 4, query: "x" });
		expect(mentionAt("see @src/a.ts and more", 10)).toEqual({ start: 4, query: "src/a" });
	});

	it("are not an @ inside a word: an e-mail address, a decorator glued to something", () => {
		expect(at("mail me@example.com")).toBeNull();
		expect(at("me@")).toBeNull();
		expect(at("x@Override")).toBeNull();
		expect(at("(@Override")).toBeNull();
		expect(at("@a@b")).toBeNull();
		// Past the mention: a space ends it.
		expect(at("@src/a.ts ")).toBeNull();
		expect(at("no at sign")).toBeNull();
	});

	it("may be quoted, for a path with a space; a closed quote ends it", () => {
		expect(at('@"my no')).toEqual({ start: 0, query: "my no" });
		expect(at('@"my notes.md"')).toBeNull();
		expect(mentionOf("my notes.md")).toBe('@"my notes.md"');
		expect(mentionOf("src/a.ts")).toBe("@src/a.ts");
	});

	it("are found in a sent message once each, with the path also tried without the punctuation after it", () => {
		expect(mentionsIn('fix @src/a.ts, then @b.md.\n@src/a.ts again; mail me@x.org or @"my notes.md"')).toEqual([
			["src/a.ts,", "src/a.ts"],
			["b.md.", "b.md"],
			["my notes.md"],
		]);
		expect(mentionsIn("a@b.c and @ alone and x@Override")).toEqual([]);
	});

	it("name a folded file block in the chat", () => {
		expect(fileBlockLabel('<file path="src/a.ts" lines="40 lines">\nx\n</file>')).toBe("[file src/a.ts · 40 lines]");
		expect(fileBlockLabel("pasted text")).toBeNull();
	});
});
