import { afterEach, describe, expect, it } from "vitest";
import type { ScriptedTurn } from "../src/llm/scripted.js";
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

/**
 * The built app in tmux against the wire server; once it exits the shell prints its exit code, then starts it again
 * with `thenArgs` when given (`-c` continues the session).
 */
async function launch(turns: ScriptedTurn[] = [{ text: "Hello from the wire." }], thenArgs?: string) {
	server = await startWireServer(turns);
	const { project, env: home } = tempHome();
	const garCmd = garInTerminal({ ...home, OPENAI_API_KEY: "test-key" });
	const gar = `${garCmd} --provider openai --model gpt-5 --base-url ${server.url}`;
	// A moment on the shell's screen between the two, so a test sees the first one end.
	const again = thenArgs === undefined ? "" : `sleep 1; ${gar} ${thenArgs}; `;
	const command = `cd '${project}' && ${gar}; echo "exit code $?"; ${again}sleep 5`;
	tmux = TmuxSession.start(command, { columns: 120, rows: 30 });
	await tmux.waitFor(/Enter send/);
	return tmux;
}

describe.skipIf(!HAS_TMUX)("keys in a real terminal", IN_TMUX, () => {
	it("Ctrl+C twice within a second quits: the shell's screen comes back and gar exits 0", async () => {
		const session = await launch();
		session.send(["C-c"]);
		await session.waitFor(/press Ctrl\+C again to quit/);
		session.send(["C-c"]);
		const screen = await session.waitFor(/exit code \d+/);
		expect(screen).toContain("gar: nothing was saved");
		expect(screen).toContain("exit code 0");
	}, 30_000);

	it("keeps a bracketed paste whole while the hint row appears and goes away", async () => {
		const session = await launch();
		session.send(["C-c"]);
		// The paste starts while the hint shows and ends after it went away (the layout changed twice meanwhile).
		session.send(["\x1b[200~first half "], true);
		await session.waitFor(/press Ctrl\+C again/);
		await session.waitFor((s) => !s.includes("press Ctrl+C again"));
		session.send(["second half\x1b[201~"], true);
		await session.waitFor(/› first half second half/);
	}, 30_000);

	it("`//text` sends `/text`; a line with an unknown /word stays in the input and Enter sends it as it is", async () => {
		const session = await launch([{ text: "First reply." }, { text: "Second reply." }]);
		const userTexts = () =>
			(server?.requests ?? [])
				.filter((r) => r.method === "POST")
				.map((r) => JSON.stringify((r.body as { messages: unknown[] }).messages.at(-1)));
		session.type("//etc/hosts is odd");
		session.send(["Enter"]);
		await session.waitFor(/First reply\./);
		expect(userTexts()[0]).toContain('"/etc/hosts is odd"');
		session.type("/usr/bin/env fails");
		session.send(["Enter"]);
		let screen = await session.waitFor(/unknown command \/usr\/bin\/env: Enter sends the line as a message/);
		expect(screen).toMatch(/› \/usr\/bin\/env fails/);
		expect(userTexts()).toHaveLength(1);
		session.send(["Enter"]);
		screen = await session.waitFor(/Second reply\./);
		expect(userTexts()[1]).toContain('"/usr/bin/env fails"');
	}, 30_000);

	it("a sent paste stays one placeholder in the chat, also in the continued session; Ctrl+O expands it", async () => {
		const session = await launch([{ text: "Got it." }], "-c");
		const pasted = Array.from({ length: 5000 }, (_, i) => `pasted line ${i}`).join("\n");
		session.type("look at ");
		session.paste(pasted);
		session.type(" please");
		await session.waitFor(/› look at \[pasted 5000 lines\] please/);
		session.send(["Enter"]);
		let screen = await session.waitFor(/Got it\./);
		expect(screen).toContain("you › look at [pasted 5000 lines] please");
		expect(screen).not.toContain("pasted line 4999");
		const body = JSON.stringify(server?.requests.find((r) => r.method === "POST")?.body);
		expect(body).toContain("look at pasted line 0\\npasted line 1\\n");
		expect(body).toContain("pasted line 4999 please");
		// Ctrl+O: the transcript mode, on the newest foldable item (the message with the paste), opened; Ctrl+O again
		// folds it, Esc leaves the mode.
		session.send(["C-o"]);
		screen = await session.waitFor(/pasted line 4999 please/);
		session.send(["C-o"]);
		await session.waitFor((s) => !s.includes("pasted line 4999") && s.includes("[pasted 5000 lines]"));
		session.send(["Escape"]);
		await session.waitFor(/Enter send/);
		session.send(["C-d"]);
		await session.waitFor(/exit code 0/);
		screen = await session.waitFor(/you › look at \[pasted 5000 lines\] please/);
		expect(screen).toContain("Got it.");
		expect(screen).not.toContain("pasted line 4999");
	}, 30_000);
});
