// The session tree in a real terminal: /tree, back to the first prompt, edit and resend it; the session file keeps
// both branches and the new one is the leaf (the tree part of issue 18's end-to-end flow).
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadSession } from "../src/session/load.js";
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

describe.skipIf(!HAS_TMUX)("the session tree in a real terminal", IN_TMUX, () => {
	it("goes back to the first prompt, edits and resends it: both branches saved, the new one the leaf", async () => {
		server = await startWireServer([
			{ text: "First answer." },
			{ text: "Second answer." },
			{ text: "A better first answer." },
		]);
		const { project, env, root } = tempHome();
		const garCmd = garInTerminal({ ...env, OPENAI_API_KEY: "test-key" });
		const args = `--provider openai --model gpt-5 --base-url ${server.url}`;
		tmux = TmuxSession.start(`cd '${project}' && ${garCmd} ${args}; sleep 5`, { columns: 100, rows: 30 });
		const session = tmux;
		await session.waitFor(/Enter send/);
		session.type("first task");
		session.send(["Enter"]);
		await session.waitFor(/First answer\./);
		session.type("second task");
		session.send(["Enter"]);
		await session.waitFor(/Second answer\./);
		await session.waitFor(/state\s+● idle/);

		// /tree: the first prompt is the row under the session's model.
		session.type("/tree");
		session.send(["Enter"]);
		let screen = await session.waitFor(/session tree · first task/);
		expect(screen).toMatch(/› {3}Second answer\. ← current/);
		session.send(["Home", "Down"]);
		await session.waitFor(/^› you › first task/m);
		session.type("e");
		screen = await session.waitFor(/› first task +Enter send/);
		expect(screen).not.toContain("Second answer.");
		session.send(["C-u"]);
		session.type("first task, done better");
		session.send(["Enter"]);
		await session.waitFor(/A better first answer\./);
		await session.waitFor(/state\s+● idle/);
		session.send(["C-d"]);
		await session.waitFor(/continue it with: gar -c/);

		const dir = join(root, "data", "gar", "sessions");
		const [project0] = readdirSync(dir);
		const [file] = readdirSync(join(dir, project0 as string));
		const saved = loadSession(join(dir, project0 as string, file as string));
		const prompts = saved.entries.filter((e) => e.type === "user");
		expect(prompts.map((p) => p.type === "user" && p.content)).toEqual([
			"first task",
			"second task",
			"first task, done better",
		]);
		// Both branches hang from the same place; nothing was deleted; the new one is the leaf.
		expect(prompts[2]?.parentId).toBe(prompts[0]?.parentId);
		expect(saved.leaves()).toHaveLength(2);
		const leaf = saved.node(saved.leafId ?? "");
		expect(leaf?.parentId).toBe(prompts[2]?.id);
		expect(JSON.stringify(leaf)).toContain("A better first answer.");
	}, 60_000);
});
