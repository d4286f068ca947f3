// A "commands starting with" approval in the app, in a real terminal: p saves the rule shown, and after gar is
// started again the same kind of command runs without a question, its chat line naming the rule.
import { readFileSync } from "node:fs";
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

describe.skipIf(!HAS_TMUX)("permission rules in the full-screen app", IN_TMUX, () => {
	it("remembers a 'commands starting with' approval across a restart", async () => {
		server = await startWireServer([
			{ toolCalls: [{ id: "b1", name: "bash", args: { command: "ls -la" } }] },
			{ text: "Listed once." },
			{ toolCalls: [{ id: "b2", name: "bash", args: { command: "ls -a" } }] },
			{ text: "Listed again." },
		]);
		const { project, env } = tempHome();
		const garCmd = garInTerminal({ ...env, OPENAI_API_KEY: "test-key" });
		const gar = `${garCmd} --provider openai --model gpt-5 --base-url ${server.url} --approve`;
		// gar, and once it quits, gar again: a restart in the same terminal.
		tmux = TmuxSession.start(`cd '${project}' && ${gar}; ${gar}; sleep 5`, { columns: 120, rows: 40 });

		await tmux.waitFor(/Enter send/);
		tmux.type("list the files");
		tmux.send(["Enter"]);
		let screen = await tmux.waitFor(/p allow commands starting with `ls` \(saved\)/);
		expect(screen).toContain("$ ls -la");
		tmux.type("p");
		screen = await tmux.waitFor(/Listed once\./);
		// The chat's side of the screen (the inspector is on the right).
		const chat = (text: string) => text.split("\n").map((line) => (line.split("│")[0] ?? "").trimEnd());
		expect(chat(screen).join("\n")).toMatch(
			/saved \[\[permissions\.allow\]\] \{ tool = "bash", prefix = "ls" \} to\s+~\/config\/gar\/config\.toml:1/,
		);
		const file = join(env.XDG_CONFIG_HOME as string, "gar", "config.toml");
		expect(readFileSync(file, "utf8")).toBe('[[permissions.allow]]\ntool = "bash"\nprefix = "ls"\n');

		// Once the run has ended, quit (Ctrl+C twice), and the second gar starts.
		await tmux.waitFor(/done · 2 turns/);
		tmux.send(["C-c"]);
		tmux.send(["C-c"]);
		await tmux.waitFor(/Type a task and press Enter\./);
		tmux.type("list them again");
		tmux.send(["Enter"]);
		screen = await tmux.waitFor(/Listed again\./);
		expect(screen).not.toContain("allow once");
		const lines = chat(screen);
		const header = lines.findIndex((line) => line.startsWith("▸ bash ls -a"));
		expect(lines[header + 1]).toMatch(/^ {2}↪ allowed by the rule bash "ls" \(~\/config\/gar\/config\.toml:1\)/);
	}, 30_000);

	it("in the line mode (--plain), p saves the rule and the next command it covers runs without a question", async () => {
		server = await startWireServer([
			{ toolCalls: [{ id: "b1", name: "bash", args: { command: "ls -la" } }] },
			{ toolCalls: [{ id: "b2", name: "bash", args: { command: "ls -a | ls" } }] },
			{ text: "Listed twice." },
		]);
		const { project, env } = tempHome();
		const garCmd = garInTerminal({ ...env, OPENAI_API_KEY: "test-key" });
		const gar = `${garCmd} --plain --provider openai --model gpt-5 --base-url ${server.url} --approve`;
		tmux = TmuxSession.start(`cd '${project}' && ${gar}; sleep 5`, { columns: 120, rows: 40 });
		await tmux.waitFor(/Ctrl\+D quits/);
		tmux.type("list the files");
		tmux.send(["Enter"]);
		await tmux.waitFor(/\$ ls -la[\s\S]*Esc[\s\S]*›/);
		tmux.type("p");
		const screen = await tmux.waitFor(/Listed twice\./);
		// One question only: the second command was answered by the saved rule.
		expect(screen.match(/allow once/g)).toHaveLength(1);
		expect(screen).toContain('allowed by the rule bash "ls" (~/config/gar/config.toml:1)');
		const file = join(env.XDG_CONFIG_HOME as string, "gar", "config.toml");
		expect(readFileSync(file, "utf8")).toBe('[[permissions.allow]]\ntool = "bash"\nprefix = "ls"\n');
	}, 30_000);
});
