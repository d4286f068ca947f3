// gar export (src/commands/export.ts) as a person runs it: to standard output or to a file, the format from the flag or
// the file's extension, an existing file kept unless --force, and exit 2 with a message for whatever is wrong.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runGar, tempHome } from "./support/cli.js";
import { writePlainSession } from "./support/export-sessions.js";

let home: ReturnType<typeof tempHome>;
let file: string;
let firstReply: string;
const opts = () => ({ env: home.env, cwd: home.project });

beforeAll(() => {
	home = tempHome();
	const dir = join(home.root, "sessions");
	mkdirSync(dir);
	const writer = writePlainSession(dir);
	file = writer.file;
	firstReply = writer.session.entries.find((e) => e.type === "assistant")?.id ?? "";
});

describe("gar export", () => {
	it("prints the current path as Markdown by default", async () => {
		const run = await runGar(["export", file], opts());
		expect(run.code).toBe(0);
		expect(run.stdout.startsWith("# fix the parser\n")).toBe(true);
		expect(run.stdout).toContain("<summary>edit src/parse.js — +1 −1 · from line 2</summary>");
		expect(run.stderr).toBe("");
	});

	it("takes -o - as standard output", async () => {
		const run = await runGar(["export", file, "-o", "-", "--format", "html"], opts());
		expect(run.code).toBe(0);
		expect(run.stdout.startsWith("<!doctype html>")).toBe(true);
		expect(existsSync(join(home.project, "-"))).toBe(false);
	});

	it("stops at --at, and writes HTML for -o FILE.html", async () => {
		const run = await runGar(["export", file, "--at", firstReply, "-o", "out.html"], opts());
		expect(run.code).toBe(0);
		expect(run.stdout).toBe("");
		expect(run.stderr).toContain(`up to ${firstReply} to ${join(home.project, "out.html")} (html)`);
		const page = readFileSync(join(home.project, "out.html"), "utf8");
		expect(page.startsWith("<!doctype html>")).toBe(true);
		expect(page).toContain("Let me run the tests.");
		expect(page).not.toContain("The parser drops the last token.");
	});

	it("never overwrites a file without --force (exit 2, the file unchanged)", async () => {
		const target = join(home.project, "kept.md");
		writeFileSync(target, "mine\n");
		const refused = await runGar(["export", file, "-o", "kept.md"], opts());
		expect(refused.code).toBe(2);
		expect(refused.stderr).toBe(`gar: ${target} exists: add --force to overwrite it, or choose another name\n`);
		expect(readFileSync(target, "utf8")).toBe("mine\n");
		const forced = await runGar(["export", file, "-o", "kept.md", "--force", "--format", "html"], opts());
		expect(forced.code).toBe(0);
		expect(readFileSync(target, "utf8").startsWith("<!doctype html>")).toBe(true);
	});

	it.each([
		["an unknown session", ["export", "zzzzzz"], /^gar: no session matches "zzzzzz"/],
		["an unknown entry", () => ["export", file, "--at", "nope"], /^gar: no entry matches "nope"/],
		["an unknown format", () => ["export", file, "--format", "pdf"], /--format.*pdf.*Allowed choices are md, html/],
		[
			"a folder that does not exist",
			() => ["export", file, "-o", "no/such/out.md"],
			/the folder .*no\/such does not exist/,
		],
		["a folder as the file", () => ["export", file, "-o", ".", "--force"], /cannot write .*: it is a folder/],
	])("exits 2 for %s, with what is wrong", async (_name, args, message) => {
		const run = await runGar(typeof args === "function" ? args() : args, opts());
		expect(run.code).toBe(2);
		expect(run.stderr).toMatch(message);
		expect(run.stdout).toBe("");
		expect(existsSync(join(home.project, "no"))).toBe(false);
	});
});
