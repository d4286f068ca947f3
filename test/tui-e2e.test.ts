import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
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

/** The built app in tmux, in a temp home and project, against the wire server. */
function launch(project: string, env: NodeJS.ProcessEnv, args: string, size = { columns: 120, rows: 40 }) {
	const garCmd = garInTerminal({ ...env, OPENAI_API_KEY: "test-key" });
	const command = `cd '${project}' && ${garCmd} ${args}; sleep 5`;
	return TmuxSession.start(command, size);
}

describe.skipIf(!HAS_TMUX)("the full-screen app in a real terminal", IN_TMUX, () => {
	it("streams a task, shows cost, asks before an edit with its diff, aborts a command, queues a steer, resizes, quits", async () => {
		server = await startWireServer([
			{
				text: ["I'll ", "change ", "the ", "greeting."],
				delayMs: 40,
				toolCalls: [
					{ id: "e1", name: "edit", args: { path: "greet.txt", edits: [{ oldText: "world", newText: "gar" }] } },
				],
				usage: { input: 1200, output: 40 },
			},
			{ toolCalls: [{ id: "b1", name: "bash", args: { command: "sleep 30" } }], usage: { input: 1500, output: 10 } },
			{
				text: Array.from({ length: 60 }, (_, i) => `word${i} `),
				delayMs: 60,
				toolCalls: [{ id: "b2", name: "bash", args: { command: "echo from-the-tool" } }],
				usage: { input: 2000, output: 70 },
			},
			{ text: "Steered: doing it differently.", usage: { input: 2200, output: 8 } },
		]);
		const { project, env } = tempHome();
		writeFileSync(join(project, "greet.txt"), "hello world\n");
		tmux = launch(project, env, `--provider openai --model gpt-5 --base-url ${server.url} --approve`);
		const session = tmux;

		// First frame: the status bar, the inspector and the input.
		let screen = await session.waitFor(/gar \d+\.\d+\.\d+.*gpt-5/);
		expect(screen).toMatch(/state\s+● idle/);
		expect(screen).toContain("Enter send");

		// Type a task; it streams, then the edit waits for approval with its diff.
		session.type("change world to gar");
		session.send(["Enter"]);
		screen = await session.waitFor(/allow once/);
		expect(screen).toContain("you › change world to gar");
		expect(screen).toContain("I'll change the greeting.");
		expect(screen).toMatch(/-hello world/);
		expect(screen).toMatch(/\+hello gar/);
		expect(screen).toMatch(/awaiting approval/);
		expect(screen).toMatch(/cost\s+\$0\.0/);
		expect(readFileSync(join(project, "greet.txt"), "utf8")).toBe("hello world\n");
		session.type("y");
		screen = await session.waitFor(/bash in .* \(timeout/);
		expect(readFileSync(join(project, "greet.txt"), "utf8")).toBe("hello gar\n");

		// Approve the long command, then abort it with Esc.
		session.type("y");
		await session.waitFor(/running bash/);
		const aborted = Date.now();
		session.send(["Escape"]);
		screen = await session.waitFor(/aborted/);
		expect(Date.now() - aborted).toBeLessThan(3000);
		await session.waitFor(/state\s+● idle/);

		// A second task; while it streams, Enter queues a steer, shown above the input.
		session.type("second task");
		session.send(["Enter"]);
		await session.waitFor(/word5 /);
		session.type("do it differently");
		session.send(["Enter"]);
		screen = await session.waitFor(/⏳ steer: do it differently/);
		screen = await session.waitFor(/allow once/, 15_000);
		session.type("a");
		screen = await session.waitFor(/Steered: doing it differently\./, 15_000);
		expect(screen).not.toContain("⏳ steer");

		// Narrow the terminal: the inspector folds into the status bar; nothing is lost.
		session.resize(90, 30);
		screen = await session.waitFor((s) => /idle │ ↑/.test(s.split("\n")[0] ?? ""));
		expect(screen).not.toMatch(/│ state/);
		expect(screen).toContain("Steered: doing it differently.");
		session.resize(120, 40);
		screen = await session.waitFor(/state\s+● idle/);
		expect(screen).toContain("Steered: doing it differently.");

		// Quit: the normal screen says how to continue.
		session.type("/quit");
		session.send(["Enter"]);
		screen = await session.waitFor(/continue it with: gar -c/);
		const requests = server.requests.filter((r) => r.method === "POST");
		expect(JSON.stringify(requests.at(-1)?.body)).toContain("do it differently");
	}, 60_000);

	it("shows a command with hidden cursor moves as it really is at the approval question", async () => {
		const hostile = "echo ok # \u001b[2K\u001b[1Gallow bash ls -la? && touch PWNED";
		server = await startWireServer([
			{ toolCalls: [{ id: "h1", name: "bash", args: { command: hostile } }] },
			{ text: "ok" },
		]);
		const { project, env } = tempHome();
		tmux = launch(project, env, `--provider openai --model gpt-5 --base-url ${server.url} --approve`);
		await tmux.waitFor(/Enter send/);
		tmux.type("list files");
		tmux.send(["Enter"]);
		const screen = await tmux.waitFor(/allow once/);
		expect(screen).toContain("␛[2K␛[1Gallow bash ls -la? && touch PWNED");
		expect(screen).toContain("⚠ contains control, bidi or zero-width characters");
		tmux.type("n");
		tmux.send(["Enter"]);
		await tmux.waitFor(/done · 2 turns/);
		expect(existsSync(join(project, "PWNED"))).toBe(false);
	}, 30_000);

	it("shows a command that hides its end behind 300 spaces whole at 80 columns: marked, scrolled, denied", async () => {
		const steps = Array.from({ length: 20 }, (_, i) => `echo step ${i}`);
		const command = [...steps, `ls -la${" ".repeat(300)}; rm -rf important`].join("\n");
		server = await startWireServer([{ toolCalls: [{ id: "d1", name: "bash", args: { command } }] }, { text: "ok" }]);
		const { project, env } = tempHome();
		mkdirSync(join(project, "important"));
		writeFileSync(join(project, "important", "keep.txt"), "keep\n");
		tmux = launch(project, env, `--provider openai --model gpt-5 --base-url ${server.url} --approve`, {
			columns: 80,
			rows: 24,
		});
		await tmux.waitFor(/Enter send/);
		tmux.type("clean up");
		tmux.send(["Enter"]);
		// The headline is the panel's first row; the preview says how much is below it.
		let screen = await tmux.waitFor(/more lines — ↓ to read/);
		const panel = screen.split("\n");
		const top = panel.findIndex((l) => l.startsWith("┌"));
		expect(panel[top + 1]).toMatch(/│ bash in .* \(timeout 2 m 00 s\)/);
		expect(screen).toContain("y allow once · a allow bash for this session");
		// p names every prefix it would save, the one hidden behind the spaces too.
		expect(screen).toContain("p allow commands starting with `echo`, `ls`, `rm` (saved)");
		expect(screen).toMatch(/· n deny\s*│\n│ Esc deny and stop/);
		expect(panel.slice(top).join("\n")).not.toContain("; rm -rf important");
		// y before the end was on screen does not run it.
		tmux.type("y");
		screen = await tmux.waitFor(/read the whole command first/);
		for (let i = 0; i < 4; i++) tmux.send(["Down"]);
		await tmux.waitFor(/read the whole command first: 13 more lines — ↓ to read · 4 above/);
		for (let i = 0; i < 5; i++) tmux.send(["PageDown"]);
		screen = await tmux.waitFor(/end of the preview/);
		expect(screen).toContain("│ > ls -la␣×300; rm -rf important");
		tmux.send(["Escape"]);
		await tmux.waitFor(/The user denied this bash call: the user stopped the run/);
		expect(existsSync(join(project, "important", "keep.txt"))).toBe(true);
		expect(server.requests.filter((r) => r.method === "POST")).toHaveLength(1);
	}, 30_000);

	it("edits multi-line text: a 2,000-line paste as a placeholder, newline keys, history, !cmd into the context", async () => {
		server = await startWireServer([{ text: "Got the paste." }, { text: "Saw the echo." }]);
		const { project, env } = tempHome();
		tmux = launch(project, env, `--provider openai --model gpt-5 --base-url ${server.url}`);
		const session = tmux;
		await session.waitFor(/Enter send/);
		const posts = () => (server?.requests ?? []).filter((r) => r.method === "POST");

		// A paste of 2,000 lines: not sent, shown as one placeholder, expanded in the request once sent.
		const pasted = Array.from({ length: 2000 }, (_, i) => `pasted line ${i}`).join("\n");
		session.type("look at ");
		session.paste(pasted);
		session.type(" please");
		let screen = await session.waitFor(/look at \[pasted 2000 lines\] please/);
		await new Promise((r) => setTimeout(r, 300));
		expect(posts()).toEqual([]);
		// Shift+Enter (the app asks for modifyOtherKeys, so tmux reports it) and Alt+Enter insert newlines.
		session.send(["S-Enter"]);
		session.type("second line");
		session.send(["M-Enter"]);
		session.type("third line");
		screen = await session.waitFor(/ {2}third line/);
		expect(screen).toMatch(/ {2}second line/);
		expect(posts()).toEqual([]);
		session.send(["Enter"]);
		await session.waitFor(/Got the paste\./);
		const first = JSON.stringify(posts()[0]?.body);
		expect(first).toContain("look at pasted line 0\\npasted line 1\\n");
		expect(first).toContain("pasted line 1999 please\\nsecond line\\nthird line");

		// ↑ brings the last message back (a message this large comes back as one placeholder); Ctrl+C clears it.
		session.send(["Up"]);
		await session.waitFor(/› \[pasted 2002 lines\]/);
		session.send(["C-c"]);
		await session.waitFor((s) => !s.includes("[pasted 2002"));

		// !cmd: the output shows in the chat and goes with the next message.
		session.type("!echo hi-from-shell");
		session.send(["Enter"]);
		await session.waitFor(/\$ echo hi-from-shell.*\n\s+hi-from-shell/);
		session.type("what did it print?");
		session.send(["Enter"]);
		await session.waitFor(/Saw the echo\./);
		expect(JSON.stringify(posts()[1]?.body)).toContain("hi-from-shell\\n");
		session.send(["Up"]);
		await session.waitFor(/› what did it print\?/);
	}, 60_000);

	it("opens without a key and says what to set", async () => {
		const { project, env } = tempHome();
		const garCmd = garInTerminal(env);
		tmux = TmuxSession.start(`cd '${project}' && ${garCmd}; sleep 5`);
		const screen = await tmux.waitFor(/ANTHROPIC_API_KEY/);
		expect(screen).toContain("OPENAI_API_KEY");
		expect(screen).toContain("--base-url");
		tmux.type("hello");
		tmux.send(["Enter"]);
		await tmux.waitFor(/error · 1 turn/);
		tmux.send(["C-d"]);
		await tmux.waitFor(/continue it with/);
	}, 30_000);
});

describe.skipIf(!HAS_TMUX)("the line mode (--plain) in a real terminal", IN_TMUX, () => {
	it("shows the typed task once, answers approvals with single keys, says denied (Esc), prints how to continue", async () => {
		server = await startWireServer([
			{ toolCalls: [{ id: "b1", name: "bash", args: { command: "echo approved-ok" } }] },
			{ toolCalls: [{ id: "b2", name: "bash", args: { command: "touch PWNED" } }] },
			{ text: "never asked" },
		]);
		const { project, env } = tempHome();
		tmux = launch(project, env, `--plain --provider openai --model gpt-5 --base-url ${server.url} --approve`);
		await tmux.waitFor(/Ctrl\+D quits/);
		tmux.type("list the files please");
		tmux.send(["Enter"]);
		let screen = await tmux.waitFor(/\$ echo approved-ok[\s\S]*n deny · Esc[\s\S]*›/);
		// The line wraps at the terminal's 120 columns, anywhere: compared without the white space.
		const flat = (text: string) => text.replace(/\s+/g, "");
		expect(flat(screen)).toContain(
			flat(
				"y allow once · a allow bash for this session · p allow commands starting with `echo` (saved) · n deny · Esc deny and stop ›",
			),
		);
		// Other keys do nothing; y alone (no Enter) allows.
		tmux.type("x");
		await new Promise((r) => setTimeout(r, 300));
		expect(tmux.screen()).not.toContain("exit 0");
		tmux.type("y");
		screen = await tmux.waitFor(/\$ touch PWNED[\s\S]*n deny · Esc[\s\S]*›/);
		expect(screen).toMatch(/· bash echo approved-ok — exit 0/);
		tmux.send(["Escape"]);
		screen = await tmux.waitFor(/✗ bash touch PWNED — denied \(Esc\)/);
		expect(existsSync(join(project, "PWNED"))).toBe(false);
		expect(screen.split("list the files please").length - 1).toBe(1);
		await tmux.waitFor(/\[aborted · 2 turns/);
		tmux.send(["C-d"]);
		screen = await tmux.waitFor(/continue it with: gar --plain -c {3}\(or gar --plain --session \w+\)/);
	}, 30_000);
});
