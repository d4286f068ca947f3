import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SessionWriter } from "../src/session/writer.js";
import { tempHome } from "./support/cli.js";
import { garInTerminal, HAS_TMUX, IN_TMUX, TmuxSession } from "./support/tmux.js";
import { makeUnwritable } from "./support/unwritable.js";
import { startWireServer, type WireServer } from "./support/wire-server.js";

let server: WireServer | undefined;
let tmux: TmuxSession | undefined;
let undo: (() => void) | undefined;
afterEach(async () => {
	tmux?.kill();
	tmux = undefined;
	undo?.();
	undo = undefined;
	await server?.close();
	server = undefined;
});

/** The built app in tmux with `args`, then its exit code printed as `rc=N` on the normal screen. */
function launch(project: string, env: NodeJS.ProcessEnv, args: string): TmuxSession {
	const garCmd = garInTerminal({ ...env, OPENAI_API_KEY: "test-key" });
	const gar = `${garCmd} ${args}`;
	return TmuxSession.start(`cd '${project}' && ${gar}; echo "rc=$?"; sleep 5`, { columns: 120, rows: 30 });
}

describe.skipIf(!HAS_TMUX)("the full-screen app's faults", IN_TMUX, () => {
	it("a session that cannot be written ends the app with one line naming it and exit 2, no stack trace", async (ctx) => {
		server = await startWireServer([{ text: "never" }]);
		const { root, project, env } = tempHome();
		const sessions = join(root, "sessions");
		const writer = SessionWriter.create({ dir: sessions, cwd: project });
		writer.appendUser("hi");
		writer.close();
		undo = makeUnwritable(writer.file);
		if (!undo) return ctx.skip();
		tmux = launch(project, env, `-c --session-dir '${sessions}' --base-url ${server.url}`);
		const screen = await tmux.waitFor(/rc=\d/);
		const lines = screen.split("\n").filter((l) => l.trim() !== "");
		expect(lines.join("")).toMatch(/^gar: cannot write to the session file .*\.jsonl: .*; make it writable, or add/);
		expect(lines.at(-1)).toBe("rc=2");
		expect(screen).not.toContain("unexpected failure");
		expect(server.requests).toHaveLength(0);
	}, 30_000);

	it("refuses a pasted prompt larger than the window with the numbers, sends nothing, and goes on", async () => {
		server = await startWireServer([{ text: "hello there" }]);
		const { root, project, env } = tempHome();
		mkdirSync(join(root, "config", "gar"), { recursive: true });
		writeFileSync(join(root, "config", "gar", "config.toml"), "[context]\nwindow = 4000\n");
		tmux = launch(project, env, `--base-url ${server.url}`);
		await tmux.waitFor(/Enter send/);
		tmux.paste("word ".repeat(4000));
		tmux.send(["Enter"]);
		await tmux.waitFor(/does not fit the 4,000-token/);
		expect(tmux.screen()).toMatch(/the prompt is about 5,000 tokens/);
		expect(server.requests).toHaveLength(0);
		tmux.type("hi");
		tmux.send(["Enter"]);
		await tmux.waitFor(/hello there/);
		expect(server.requests).toHaveLength(1);
		expect(JSON.stringify(server.requests[0]?.body)).not.toContain("word word");
	}, 30_000);
});
