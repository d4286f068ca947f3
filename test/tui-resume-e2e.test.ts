// Issue 18's end-to-end flow in a real terminal: run tasks, quit, `gar -r`, find a session by a word of its prompt,
// open it and go on in it, then /tree, back to its first prompt, edit and resend it: the file keeps both branches and
// the new one is the leaf.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadSession } from "../src/session/load.js";
import { tempHome } from "./support/cli.js";
import { garInTerminal, HAS_TMUX, IN_TMUX, TmuxSession } from "./support/tmux.js";
import { type RecordedRequest, startWireServer, type WireServer } from "./support/wire-server.js";

let server: WireServer | undefined;
let tmux: TmuxSession | undefined;
afterEach(async () => {
	tmux?.kill();
	tmux = undefined;
	await server?.close();
	server = undefined;
});

function launch(project: string, env: NodeJS.ProcessEnv, args: string): TmuxSession {
	const garCmd = garInTerminal({ ...env, OPENAI_API_KEY: "test-key" });
	const command = `cd '${project}' && ${garCmd} ${args}; sleep 5`;
	return TmuxSession.start(command, { columns: 120, rows: 40 });
}

type Body = { messages: { role: string; content?: unknown }[] };
const userTexts = (request: RecordedRequest | undefined) =>
	((request?.body as Body | undefined)?.messages ?? []).filter((m) => m.role === "user").map((m) => m.content);

describe.skipIf(!HAS_TMUX)("resuming a session with gar -r", IN_TMUX, () => {
	it("runs two tasks, quits, finds the first by a word of its prompt, opens it, goes on, edits and resends", async () => {
		server = await startWireServer((_req, call) => ({
			text: [`answer ${call + 1}`],
			usage: { input: 100, output: 5 },
		}));
		const { root, project, env } = tempHome();
		const args = `--provider openai --model gpt-5 --base-url ${server.url}`;

		for (const task of ["fix the flaky parser test", "write the release notes"]) {
			tmux = launch(project, env, args);
			await tmux.waitFor(/Enter send/);
			tmux.type(task);
			tmux.send(["Enter"]);
			await tmux.waitFor(/answer \d/);
			await tmux.waitFor(/state\s+● idle/);
			tmux.send(["C-d"]);
			await tmux.waitFor(/continue it with: gar -c/);
			tmux.kill();
		}

		tmux = launch(project, env, `${args} -r`);
		let screen = await tmux.waitFor(/2 sessions/);
		expect(screen).toMatch(/› write the release notes\s+write the release notes/);
		expect(screen).toMatch(/ {2}fix the flaky parser test/);
		tmux.type("flaky");
		screen = await tmux.waitFor(/1 of 2 sessions/);
		expect(screen).toMatch(/› fix the flaky parser test/);
		expect(screen).toContain("gar › answer 1");
		tmux.send(["Enter"]);
		// The picker stays ("opening…") until the session is on screen: the chat never shows empty in between.
		screen = await tmux.waitFor((s) => !s.includes("Resume a session"));
		expect(screen).toContain("you › fix the flaky parser test");
		expect(screen).toContain("Enter send");
		expect(screen).not.toContain("release notes");

		tmux.type("and the lexer too");
		tmux.send(["Enter"]);
		await tmux.waitFor(/answer 3/);
		await tmux.waitFor(/state\s+● idle/);
		expect(userTexts(server.requests.at(-1))).toEqual(["fix the flaky parser test", "and the lexer too"]);

		// The tree: back to the first prompt, edit and resend it.
		tmux.type("/tree");
		tmux.send(["Enter"]);
		await tmux.waitFor(/session tree · fix the flaky parser test/);
		tmux.send(["Home", "Down"]);
		await tmux.waitFor(/^› you › fix the flaky parser test/m);
		tmux.type("e");
		await tmux.waitFor(/› fix the flaky parser test +Enter send/);
		tmux.send(["C-u"]);
		tmux.type("fix the parser test properly");
		tmux.send(["Enter"]);
		await tmux.waitFor(/answer 4/);
		await tmux.waitFor(/state\s+● idle/);
		expect(userTexts(server.requests.at(-1))).toEqual(["fix the parser test properly"]);
		tmux.send(["C-d"]);
		await tmux.waitFor(/continue it with/);

		const base = join(root, "data", "gar", "sessions");
		const files = readdirSync(base).flatMap((dir) =>
			readdirSync(join(base, dir))
				.filter((name) => name.endsWith(".jsonl"))
				.map((name) => join(base, dir, name)),
		);
		expect(files).toHaveLength(2);
		const prompts = files.map((file) =>
			loadSession(file)
				.entries.flatMap((e) => (e.type === "user" ? [e.content] : []))
				.join(" | "),
		);
		expect(prompts.sort()).toEqual([
			"fix the flaky parser test | and the lexer too | fix the parser test properly",
			"write the release notes",
		]);
		// Both branches are in the file; the edited prompt's is the leaf.
		const resumed = loadSession(files.find((file) => loadSession(file).entries.length > 4) ?? "");
		const users = resumed.entries.filter((e) => e.type === "user");
		expect(resumed.leaves()).toHaveLength(2);
		expect(users[2]?.parentId).toBe(users[0]?.parentId);
		expect(resumed.pathTo(resumed.leafId).some((e) => e.id === users[2]?.id)).toBe(true);
	}, 60_000);
});
