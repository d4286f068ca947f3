// A session nobody named is called by its first prompt (src/view/session-name.ts), wherever a name is shown.
import { describe, expect, it } from "vitest";
import { formatSessionTable } from "../src/commands/sessions.js";
import type { SessionInfo } from "../src/session/index.js";
import { autoName, sessionTitle } from "../src/view/session-name.js";

describe("a session's name made from its first prompt", () => {
	it("is the first line that says something, whitespace collapsed, cut at a word near 48 characters", () => {
		expect(autoName("fix the parser")).toBe("fix the parser");
		expect(autoName("\n  \n  fix   the\tparser  \nand more")).toBe("fix the parser");
		expect(autoName("refactor the session writer so that every entry is one appendFileSync call")).toBe(
			"refactor the session writer so that every entry…",
		);
		// One long word is cut where it must be.
		expect(autoName("x".repeat(100))).toBe(`${"x".repeat(48)}…`);
		expect(autoName("   \n\t")).toBeUndefined();
		expect(autoName(undefined)).toBeUndefined();
	});

	it("gives way to a name a person gave", () => {
		expect(sessionTitle("parser work", "fix the parser")).toBe("parser work");
		expect(sessionTitle(undefined, "fix the parser")).toBe("fix the parser");
	});

	it("is shown in gar sessions' NAME column", () => {
		const info: SessionInfo = {
			id: "abc123",
			file: "/s/abc123.jsonl",
			cwd: "/p",
			createdAt: "2026-01-01T00:00:00.000Z",
			modifiedAt: "2026-01-01T00:00:00.000Z",
			entries: 3,
			messages: 2,
			firstPrompt: "fix the parser\nin src/lexer.ts",
			branches: 1,
			labels: [],
			costUsd: 0,
			damaged: 0,
		};
		const [, row] = formatSessionTable([info], 200).split("\n");
		expect(row).toMatch(/^abc123 {2}fix the parser {2}/);
		expect(formatSessionTable([{ ...info, name: "named" }], 200).split("\n")[1]).toMatch(/^abc123 {2}named {2}/);
	});
});
