// How the built app draws in a real terminal when the screen was taken away from it (Ctrl+Z, Ctrl+G).
import { afterEach, describe, expect, it } from "vitest";
import { GAR_BIN, tempHome } from "./support/cli.js";
import { HAS_TMUX, IN_TMUX, TmuxSession } from "./support/tmux.js";
import { startWireServer, type WireServer } from "./support/wire-server.js";

let server: WireServer | undefined;
let tmux: TmuxSession | undefined;
afterEach(async () => {
	tmux?.kill();
	tmux = undefined;
	await server?.close();
	server = undefined;
});

/** An interactive shell in tmux (job control, so Ctrl+Z and `fg` work as for a person) with a temp home. */
function shell(extra: Record<string, string> = {}) {
	const { project, env } = tempHome();
	const vars = Object.entries({ ...env, OPENAI_API_KEY: "test-key", PS1: "$ ", ...extra })
		.map(([k, v]) => `${k}='${v}'`)
		.join(" ");
	tmux = TmuxSession.start(`cd '${project}' && env -i ${vars} TERM=xterm-256color bash --norc --noprofile -i`, {
		columns: 100,
		rows: 30,
	});
	return tmux;
}

describe.skipIf(!HAS_TMUX)("redrawing the whole screen in a real terminal", IN_TMUX, () => {
	it("draws every row again after Ctrl+Z and fg, and after Ctrl+G's editor", async () => {
		server = await startWireServer([
			{ text: Array.from({ length: 12 }, (_, i) => `Line ${i} of the answer.\n\n`).join(""), delayMs: 0 },
		]);
		// `true` as the editor: it exits at once, leaving the message as it was.
		const session = shell({ EDITOR: "true" });
		session.type(`'${process.execPath}' '${GAR_BIN}' --provider openai --model gpt-5 --base-url ${server.url}`);
		session.send(["Enter"]);
		await session.waitFor(/Enter send/);
		session.type("answer in lines");
		session.send(["Enter"]);
		await session.waitFor(/done · 1 turn/);
		session.type("a draft");
		const before = await session.waitFor(/› a draft/);
		expect(before).toContain("Line 11 of the answer.");
		expect(before).toMatch(/state\s+● idle/);

		session.send(["C-z"]);
		await session.waitFor(/Stopped/);
		session.type("fg");
		session.send(["Enter"]);
		// Nothing changed while it was stopped: the screen is exactly the one before, not only its changed rows.
		expect(await session.waitFor((s) => s === before, 5000)).toBe(before);

		session.send(["C-g"]);
		expect(await session.waitFor((s) => s === before, 5000)).toBe(before);
	}, 30_000);
});
