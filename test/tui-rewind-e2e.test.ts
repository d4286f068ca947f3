// Rewind in a real terminal: a file edited through gar, Esc Esc, "conversation and files", the disk and the editor
// checked; /redo, checked again (issue 19's end-to-end flow in the app).
import { readFileSync, writeFileSync } from "node:fs";
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

describe.skipIf(!HAS_TMUX)("rewind in a real terminal", IN_TMUX, () => {
	it("Esc Esc, conversation and files: the file's old bytes and the prompt in the editor; /redo brings both back", async () => {
		server = await startWireServer([
			{
				text: "Editing.",
				toolCalls: [
					{ id: "e1", name: "edit", args: { path: "notes.txt", edits: [{ oldText: "one", newText: "two" }] } },
				],
			},
			{ text: "Edited the notes." },
		]);
		const { project, env } = tempHome();
		const notes = join(project, "notes.txt");
		writeFileSync(notes, "one\n");
		const garCmd = garInTerminal({ ...env, OPENAI_API_KEY: "test-key" });
		const args = `--provider openai --model gpt-5 --base-url ${server.url}`;
		tmux = TmuxSession.start(`cd '${project}' && ${garCmd} ${args}; sleep 5`, { columns: 100, rows: 30 });
		const session = tmux;
		await session.waitFor(/Enter send/);
		session.type("change the notes");
		session.send(["Enter"]);
		await session.waitFor(/Edited the notes\./);
		await session.waitFor(/state\s+● idle/);
		expect(readFileSync(notes, "utf8")).toBe("two\n");

		// Two presses, as a person makes them.
		session.send(["Escape"]);
		await new Promise((r) => setTimeout(r, 100));
		session.send(["Escape"]);
		let screen = await session.waitFor(/rewind · your prompts on this path/);
		expect(screen).toMatch(/› you › change the notes +1 file edited/);
		session.send(["Enter"]);
		screen = await session.waitFor(/rewind to before “change the notes”/);
		expect(screen).toMatch(/› conversation and files/);
		expect(screen).toMatch(/restore +notes\.txt +\+1 −1/);
		session.send(["Enter"]);
		screen = await session.waitFor(/rewound the conversation and the files/);
		expect(readFileSync(notes, "utf8")).toBe("one\n");
		// The prompt is in the editor, to edit and send; the chat no longer shows the reply.
		expect(screen).toMatch(/^› change the notes +Enter send/m);
		expect(screen).not.toContain("Edited the notes.");

		session.send(["C-u"]);
		session.type("/redo");
		session.send(["Enter"]);
		screen = await session.waitFor(/redone: back to where the last rewind started/);
		expect(readFileSync(notes, "utf8")).toBe("two\n");
		expect(screen).toContain("Edited the notes.");
	}, 60_000);
});
