import { describe, expect, it } from "vitest";
import { formatSessionTable, sessionsCommand } from "../src/commands/sessions.js";
import type { SessionInfo } from "../src/session/index.js";

const hostile: SessionInfo = {
	id: "abc123",
	file: "/s/abc123.jsonl",
	cwd: "/p",
	name: "\x1b]0;owned\x07nice",
	createdAt: "2026-01-01T00:00:00.000Z",
	modifiedAt: "2026-01-01T00:00:00.000Z",
	entries: 3,
	messages: 2,
	firstPrompt: "fix it\x1b[2J\rgone\u202eevil",
	branches: 1,
	labels: [],
	costUsd: 0,
	damaged: 0,
};

describe("gar sessions shows hostile names and prompts inert", () => {
	it("in the table", () => {
		const table = formatSessionTable([hostile], 200);
		for (const raw of ["\x1b", "\x07", "\r", "\u202e"]) expect(table).not.toContain(raw);
		expect(table).toContain("␛]0;owned^Gnice");
		expect(table).toContain("fix it␛[2J^Mgone⟨U+202E⟩evil");
	});

	it("in the 'no sessions' line, which quotes the directory", () => {
		let out = "";
		const cwd = "/tmp/\x1b[31mred";
		sessionsCommand(
			{
				baseDir: "/nonexistent-gar-test",
				cwd,
				write: (t) => {
					out += t;
				},
			},
			{},
		);
		expect(out).toBe("no sessions for /tmp/␛[31mred (gar sessions --all lists every project)\n");
	});
});

describe("gar sessions marks forks", () => {
	it("with the session each was forked from, before its first prompt", () => {
		const plain = { ...hostile, name: "n", firstPrompt: "fix it" };
		const fork = { ...plain, id: "def456", forkOf: { session: "abc123", entry: "u000000001" } };
		const [, source, forked] = formatSessionTable([plain, fork], 200).split("\n");
		expect(source).toMatch(/ {2}fix it$/);
		expect(forked).toMatch(/^def456 .* {2}\(fork of abc123\) fix it$/);
	});
});
