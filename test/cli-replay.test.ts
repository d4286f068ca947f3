// gar replay as a person runs it: in a terminal the app plays the session (tmux); piped or with --output it stays a
// transcript or events; a damaged file plays what can be read and says where its path starts and where it stopped.
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runGar, tempHome } from "./support/cli.js";
import { garInTerminal, HAS_TMUX, TmuxSession } from "./support/tmux.js";

const ROOT = join(import.meta.dirname, "..");
const DEMO = join(ROOT, "examples", "demo-session.jsonl");
const DAMAGED = join(ROOT, "test", "fixtures", "session", "damaged.jsonl");

let tmux: TmuxSession | undefined;
afterEach(() => {
	tmux?.kill();
	tmux = undefined;
});

/** A shell command line that runs the built gar in `home`'s environment. */
function garLine(home: ReturnType<typeof tempHome>, args: string): string {
	const garCmd = garInTerminal(home.env);
	return `cd '${home.project}' && ${garCmd} ${args}; echo "exit $?"; sleep 10`;
}

describe("gar replay", () => {
	it("prints the shipped demo session as a transcript when piped", async () => {
		const home = tempHome();
		const run = await runGar(["replay", DEMO], { env: home.env, cwd: home.project });
		expect(run.code).toBe(0);
		expect(run.stdout).toContain("> The tests fail. Find the bug and fix it.");
		expect(run.stdout).toContain("· edit stats.js — +1 −1 · from line 4");
		expect(run.stdout).toMatch(/\[done · 5 turns · ↑26\.1k ↓270 · cache r 9\.8k w 0 · \$0\.056 · /);
		expect(run.stderr).toBe("");
	});

	it("plays what a damaged file holds and says where its path starts and where it stopped", async () => {
		const home = tempHome();
		const run = await runGar(["replay", DAMAGED], { env: home.env, cwd: home.project });
		expect(run.code).toBe(0);
		expect(run.stdout).toContain("> my parent was lost");
		expect(run.stdout).toContain("> last good");
		expect(run.stderr).toContain("gar: warning: skipped 3 malformed lines (4, 5, 12)");
		expect(run.stderr).toContain(
			`gar: this path starts at entry u3: its parent gone000000 is not in the file (a damaged or missing line), so what came before it is not replayed; gar replay ${DAMAGED} --at a1 plays the path before it\n`,
		);
		expect(run.stderr).toMatch(
			/gar: the replay stopped at entry u4 \(2026-01-02T03:04:13\.000Z\), the last of this path that could be read: 3 lines \(4, 5, 12\) of .*damaged\.jsonl could not be read\n$/,
		);
		// The path before the break, as the note says.
		const before = await runGar(["replay", DAMAGED, "--at", "a1"], { env: home.env, cwd: home.project });
		expect(before.stdout).toContain("> first");
		expect(before.stdout).not.toContain("last good");
		expect(before.stderr).not.toContain("stopped");
	});

	it.skipIf(!HAS_TMUX)(
		"opens the app in a terminal, plays to the end, and quits with q",
		async () => {
			const home = tempHome();
			tmux = TmuxSession.start(garLine(home, `replay '${DEMO}' --speed 20`), { columns: 130, rows: 30 });
			const end = await tmux.waitFor(/■ replay ended/, 15_000);
			expect(end).toMatch(/cost\s+\$0\.056/);
			expect(end).toMatch(/tools\s+bash 2 · read 1 · edit 1/);
			expect(end).toContain("done · 5 turns");
			tmux.send(["Home"]);
			await tmux.waitFor(/you › The tests fail\. Find the bug and fix it\./);
			tmux.type("x");
			await tmux.waitFor(/a replay is read-only: nothing is sent/);
			tmux.type("q");
			const after = await tmux.waitFor(/exit 0/);
			expect(after).toMatch(/gar: replayed session \w+ \(50 of 50 events\)/);
		},
		30_000,
	);

	it.skipIf(!HAS_TMUX)(
		"stays a transcript in a terminal with --output text",
		async () => {
			const home = tempHome();
			tmux = TmuxSession.start(garLine(home, `replay '${DEMO}' --output text`), { columns: 130, rows: 40 });
			const screen = await tmux.waitFor(/exit 0/);
			expect(screen).toContain("> The tests fail. Find the bug and fix it.");
			expect(screen).not.toContain("replay ended");
		},
		30_000,
	);
});
