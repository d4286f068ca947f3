// The request viewer in a real terminal: Alt+R (ESC r as a terminal sends it) opens the last call over the chat, a
// section's number opens it, `/` finds text in the folded raw JSON, and Esc brings the chat back where it was.
import { afterEach, describe, expect, it } from "vitest";
import { tempHome } from "./support/cli.js";
import { garInTerminal, HAS_TMUX, IN_TMUX, TmuxSession } from "./support/tmux.js";
import { startWireServer, type WireServer } from "./support/wire-server.js";

let server: WireServer | undefined;
let tmux: TmuxSession | undefined;
afterEach(async () => {
	tmux?.kill();
	tmux = undefined;
	await server?.close();
	server = undefined;
});

describe.skipIf(!HAS_TMUX)("the request viewer in a terminal", IN_TMUX, () => {
	it("opens with Alt+R, folds, finds in the raw JSON, and Esc returns to the chat", async () => {
		server = await startWireServer([{ text: "The needle is in the haystack.", usage: { input: 1200, output: 9 } }]);
		const { project, env } = tempHome();
		const garCmd = garInTerminal({ ...env, OPENAI_API_KEY: "test-key" });
		const gar = `${garCmd} --model gpt-5.4 --base-url ${server.url}`;
		tmux = TmuxSession.start(`cd '${project}' && ${gar}; sleep 5`, { columns: 120, rows: 30 });
		await tmux.waitFor(/Enter send/);
		tmux.type("find the needle");
		tmux.send(["Enter"]);
		await tmux.waitFor(/done · 1 turn/);
		tmux.send(["M-r"]);
		let screen = await tmux.waitFor(/Request 1 of 1/);
		expect(screen).toMatch(/openai\/gpt-5\.4 · stop · ↑1\.2k ↓9/);
		expect(screen).toContain("exact: the request as sent, kept in memory");
		expect(screen).toMatch(/▾ 3 Messages/);
		tmux.type("/");
		tmux.type("find the");
		tmux.send(["Enter"]);
		// The first match is the message's row, the second its text in the folded raw JSON, which opens there.
		screen = await tmux.waitFor(/match 1 of 2/);
		expect(screen).toMatch(/1 user · prompt .* find the needle/);
		tmux.type("n");
		screen = await tmux.waitFor(/match 2 of 2/);
		expect(screen).toContain('"content": "find the needle"');
		tmux.send(["Escape"]);
		screen = await tmux.waitFor(/you › find the needle/);
		expect(screen).toContain("The needle is in the haystack.");
		expect(screen).not.toContain("Request 1 of 1");
	}, 40_000);
});
