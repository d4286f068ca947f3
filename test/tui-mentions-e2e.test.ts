// @ in the real terminal: a few letters and Enter put the path in the input; the message sent carries the file's
// first lines (the chat shows them folded).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempHome } from "./support/cli.js";
import { garInTerminal, HAS_TMUX, IN_TMUX, TmuxSession } from "./support/tmux.js";
import { startWireServer, type WireServer } from "./support/wire-server.js";

const HAS_GIT = spawnSync("git", ["--version"]).status === 0;

let server: WireServer | undefined;
let tmux: TmuxSession | undefined;
afterEach(async () => {
	tmux?.kill();
	tmux = undefined;
	await server?.close();
	server = undefined;
});

describe.skipIf(!HAS_TMUX || !HAS_GIT)("@ mentions in a real terminal", IN_TMUX, () => {
	it("`@` + a few letters + Enter puts the path in the input; the message carries the file's first lines", async () => {
		server = await startWireServer([{ text: "Read it." }]);
		const { project, env: home } = tempHome();
		for (const [file, text] of [
			["src/parser/grammar.ts", "export const rules = [];\n"],
			["src/parser/lexer.ts", "export function lex() {}\n"],
			["build/grammar.js", "ignored\n"],
		] as const) {
			mkdirSync(join(project, file, ".."), { recursive: true });
			writeFileSync(join(project, file), text);
		}
		writeFileSync(join(project, ".gitignore"), "build/\n");
		execFileSync("git", ["init", "-q"], { cwd: project });
		const garCmd = garInTerminal({ ...home, OPENAI_API_KEY: "test-key" });
		const gar = `${garCmd} --provider openai --model gpt-5 --base-url ${server.url}`;
		tmux = TmuxSession.start(`cd '${project}' && ${gar}; sleep 5`, { columns: 100, rows: 24 });
		await tmux.waitFor(/Enter send/);
		tmux.type("explain @gram");
		// The untracked file matches; the ignored one in build/ is not listed.
		let screen = await tmux.waitFor(/@src\/parser\/grammar\.ts/);
		expect(screen).not.toContain("build/grammar.js");
		tmux.send(["Enter"]);
		screen = await tmux.waitFor((s) => /› explain @src\/parser\/grammar\.ts\s/.test(s) && !s.includes("  @src/"));
		expect(server.requests.filter((r) => r.method === "POST")).toEqual([]);
		tmux.type("please");
		tmux.send(["Enter"]);
		screen = await tmux.waitFor(/Read it\./);
		// The file's lines are folded under the message, as a paste is.
		expect(screen).toMatch(
			/you › explain @src\/parser\/grammar\.ts please\s.*\n.*\n\s+\[file src\/parser\/grammar\.ts · 1 line\]/,
		);
		expect(screen).not.toContain("export const rules");
		const body = JSON.stringify(server.requests.find((r) => r.method === "POST")?.body);
		expect(body).toContain(
			'explain @src/parser/grammar.ts please\\n\\n<file path=\\"src/parser/grammar.ts\\" lines=\\"1 line\\">\\nexport const rules = [];\\n</file>',
		);
	}, 30_000);
});
