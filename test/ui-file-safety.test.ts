import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { historyFile, openHistory } from "../src/ui/editor/history-file.js";
import { tempDirsPerTest } from "./fixtures/session/run.js";

const tmp = tempDirsPerTest();
const src = (path: string) => new URL(`../src/${path}`, import.meta.url).pathname;
const mode = (path: string) => statSync(path).mode & 0o777;

function mkfifo(path: string): void {
	expect(spawnSync("mkfifo", [path]).status).toBe(0);
}

/**
 * Runs `code` (an ES module body with `themes` and `history` imported) in a child process, so a read that blocks
 * forever fails the test after `timeout` instead of hanging the test run; returns what it printed.
 */
function inChild(code: string, timeout = 8000): { status: number | null; stdout: string; stderr: string } {
	const script = [
		`const themes = await import(${JSON.stringify(src("ui/theme/themes.ts"))});`,
		`const history = await import(${JSON.stringify(src("ui/editor/history-file.ts"))});`,
		code,
	].join("\n");
	const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
		encoding: "utf8",
		timeout,
	});
	return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe("a FIFO or a device where a theme file or the prompt history should be", () => {
	it("is refused at once with a message, instead of being read forever", () => {
		const config = tmp();
		mkdirSync(join(config, "themes"));
		mkfifo(join(config, "themes", "pipe.json"));
		symlinkSync("/dev/zero", join(config, "themes", "zero.json"));
		mkdirSync(join(config, "themes", "folder.json"));
		const data = tmp();
		const file = historyFile(data, "/some/project");
		mkdirSync(join(data, "history"));
		mkfifo(file);
		const started = Date.now();
		const run = inChild(`
			const configDir = ${JSON.stringify(config)};
			const out = {};
			for (const name of ["pipe", "zero", "folder"]) out[name] = themes.findTheme(name, { configDir }).problem;
			const h = history.openHistory(${JSON.stringify(file)});
			h.add("a message");
			out.history = { problem: h.problem, entries: h.entries };
			console.log(JSON.stringify(out));
		`);
		expect(run.stderr).toBe("");
		expect(run.status).toBe(0);
		expect(Date.now() - started).toBeLessThan(8000);
		const out = JSON.parse(run.stdout);
		expect(out.pipe).toMatch(
			/^theme "pipe": .*pipe\.json is not a regular file \(a FIFO, socket or device\); a theme is a JSON file$/,
		);
		expect(out.zero).toMatch(/zero\.json is not a regular file \(a FIFO, socket or device\)/);
		expect(out.folder).toMatch(/folder\.json is a folder; a theme is a JSON file$/);
		expect(out.history.problem).toMatch(
			/^the prompt history .*\.jsonl is not a regular file \(a FIFO, socket or device\); what you send is not kept this session$/,
		);
		// Typing still works; the message is kept for this session.
		expect(out.history.entries).toEqual(["a message"]);
	});
});

describe("the prompt history file", () => {
	it("is 0600 in a 0700 folder, and an older, readable file and folder are tightened", () => {
		const data = tmp();
		const file = historyFile(data, "/some/project");
		openHistory(file).add("my token is sk-123");
		expect(mode(join(data, "history"))).toBe(0o700);
		expect(mode(file)).toBe(0o600);

		const older = tmp();
		const old = historyFile(older, "/some/project");
		mkdirSync(join(older, "history"), { mode: 0o755 });
		writeFileSync(old, '"typed before"\n', { mode: 0o644 });
		expect(openHistory(old).entries).toEqual(["typed before"]);
		expect(mode(join(older, "history"))).toBe(0o700);
		expect(mode(old)).toBe(0o600);
	});

	it("is rewritten atomically to its last 1,000 entries once it holds twice that, and stays 0600", () => {
		const data = tmp();
		const file = historyFile(data, "/some/project");
		mkdirSync(join(data, "history"), { mode: 0o700 });
		const lines = Array.from({ length: 2500 }, (_, i) => `${JSON.stringify(`message ${i}`)}\n`).join("");
		writeFileSync(file, lines, { mode: 0o600 });
		const before = statSync(file).ino;
		const history = openHistory(file);
		expect(history.entries).toHaveLength(1000);
		expect(history.entries[0]).toBe("message 1500");
		const kept = readFileSync(file, "utf8").split("\n").filter(Boolean);
		expect(kept).toHaveLength(1000);
		expect(kept.at(-1)).toBe('"message 2499"');
		// A new file renamed over the old one (never truncated in place), with no temp file left behind.
		expect(statSync(file).ino).not.toBe(before);
		expect(mode(file)).toBe(0o600);
		expect(readdirSync(join(data, "history"))).toEqual([file.split("/").at(-1)]);
	});
});
