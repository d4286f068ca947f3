import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runGar, tempHome } from "./support/cli.js";
import { garInTerminal, HAS_TMUX, TmuxSession } from "./support/tmux.js";

let tmux: TmuxSession | undefined;
afterEach(() => {
	tmux?.kill();
	tmux = undefined;
});

describe("gar demo", () => {
	it("refuses the options it would ignore, naming them (exit 2)", async () => {
		const { env, project } = tempHome();
		const own = await runGar(["demo", "--cwd", project, "--session-dir", project], { env, cwd: project });
		expect(own.code).toBe(2);
		expect(own.stderr).toBe(
			"gar: gar demo does not use --cwd, --session-dir: it runs a scripted model in a temporary project of its own (only --theme applies)\n",
		);
		const root = await runGar(["--model", "x", "--approve", "demo"], { env, cwd: project });
		expect(root.code).toBe(2);
		expect(root.stderr).toContain("gar demo does not use --model, --approve:");
	});

	it.skipIf(!HAS_TMUX)(
		"removes its temporary project when it ends",
		async () => {
			const { env, project } = tempHome();
			const temp = mkdtempSync(join(tmpdir(), "gar-demo-tmp-"));
			const garCmd = garInTerminal({ ...env, TMPDIR: temp });
			const command = `cd '${project}' && ${garCmd} demo; sleep 5`;
			tmux = TmuxSession.start(command, { columns: 100, rows: 30 });
			await tmux.waitFor(/you › The tests fail/);
			expect(readdirSync(temp).filter((name) => name.startsWith("gar-demo-"))).toHaveLength(1);
			tmux.send(["C-c"]);
			await tmux.waitFor(/aborted/);
			tmux.send(["C-d"]);
			await tmux.waitFor(/nothing was saved/);
			// gar prints that line just before it exits.
			const end = Date.now() + 5000;
			while (readdirSync(temp).length > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
			expect(readdirSync(temp)).toEqual([]);
			rmSync(temp, { recursive: true, force: true });
		},
		30_000,
	);
});
