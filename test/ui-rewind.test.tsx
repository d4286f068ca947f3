// The rewind screen (Esc Esc, /rewind, /redo, the tree's "make this the leaf") in ink-testing-library, over a real
// conversation whose real tools write files in a real folder, saved to a real session file.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createScriptedProvider, type ScriptedTurn } from "../src/llm/scripted.js";
import { loadSession } from "../src/session/load.js";
import { loadMarkdown } from "../src/ui/chat/markdown.js";
import { runCommand } from "../src/ui/screens/commands.js";
import { tempDirsPerTest } from "./fixtures/session/run.js";
import { frameApart, KEYS, treeApp, until } from "./support/tree-app.js";

beforeAll(loadMarkdown);
const tmp = tempDirsPerTest();

/** Two prompts: the first writes notes.txt, the second edits it and runs a bash command that makes b.txt. */
const SCRIPT: ScriptedTurn[] = [
	{ text: "Writing.", toolCalls: [{ id: "w1", name: "write", args: { path: "notes.txt", content: "one\n" } }] },
	{ text: "Wrote notes." },
	{
		text: "Editing.",
		toolCalls: [
			{ id: "e1", name: "edit", args: { path: "notes.txt", edits: [{ oldText: "one", newText: "two" }] } },
			{ id: "b1", name: "bash", args: { command: "echo made > b.txt" } },
		],
	},
	{ text: "Edited notes." },
	{ text: "A later answer." },
];

async function twoTurns(script = SCRIPT) {
	const cwd = tmp();
	const app = treeApp({ provider: createScriptedProvider(script), dir: tmp(), cwd });
	await app.conversation.run("make notes");
	await app.conversation.run("edit notes");
	const read = (name: string) => {
		try {
			return readFileSync(join(cwd, name), "utf8");
		} catch {
			return null;
		}
	};
	return { app, cwd, read };
}

describe("the rewind screen", () => {
	it("Esc Esc lists the prompts newest first, each with the files changed after it (by write/edit, by bash)", async () => {
		const { app } = await twoTurns();
		await app.press(KEYS.esc, KEYS.esc);
		await until(() => app.store.screen === "rewind" && app.frame().includes("edit notes"));
		const lines = app.lines();
		expect(lines[0]).toContain("rewind · your prompts on this path, newest first · 2 prompts");
		const rows = lines.filter((line) => line.includes("you ›")).map((line) => line.replace(/\s+/g, " ").trim());
		expect(rows).toEqual([
			"› you › edit notes 1 file edited · 1 by bash",
			"you › make notes 1 file edited · 1 by bash",
		]);
		expect(lines.at(-1)).toContain("↑↓ choose · Enter rewind to before it · t the whole tree · Esc back");
		await app.press(KEYS.esc);
		await until(() => app.store.screen === "chat");
		app.unmount();
	});

	it("says at once that another gar is rewinding the session (no wait that would freeze the screen)", async () => {
		const { app, read } = await twoTurns();
		const file = app.conversation.session?.file ?? "";
		// A live process (this one) holds the session's rewind lock.
		writeFileSync(`${file}.lock`, `${process.pid} ${Date.now()}`);
		await app.press(KEYS.esc, KEYS.esc);
		await until(() => app.store.screen === "rewind");
		await app.press(KEYS.enter);
		await until(() => app.frame().includes("what goes back"));
		const started = Date.now();
		await app.press(KEYS.enter);
		await until(() => app.frame().includes("is rewinding this session"));
		expect(Date.now() - started).toBeLessThan(2000);
		expect(app.frame()).toContain(`another gar (process ${process.pid}) is rewinding this session`);
		expect(read("notes.txt")).toBe("two\n");
		app.unmount();
	});

	it("previews each choice, then rewinds the conversation and the files; the prompt goes back into the editor", async () => {
		const { app, read } = await twoTurns();
		expect(read("notes.txt")).toBe("two\n");
		await app.press(KEYS.esc, KEYS.esc);
		await until(() => app.store.screen === "rewind");
		await app.press(KEYS.enter);
		await until(() => app.frame().includes("what goes back"));
		let frame = app.frame();
		expect(frame).toContain("rewind to before “edit notes”");
		expect(frame).toMatch(/› conversation and files/);
		expect(frame).toContain("conversation only");
		expect(frame).toContain("files only");
		expect(frame).toContain("cancel");
		expect(frame).toContain("Files to restore (1)");
		expect(frame).toMatch(/restore {4}notes\.txt {2}\+1 −1/);
		expect(frame).toContain("Changed by bash, not restored (1)");
		expect(frame).toMatch(/b\.txt: changed by bash at \w+: not restored/);
		// "conversation only" says the files stay.
		await app.press(KEYS.down);
		await until(() => app.frame().includes("The files stay as they are now."));
		expect(app.frame()).toContain("Changed after it, left so: notes.txt, b.txt");
		expect(app.frame()).not.toContain("Files to restore");
		await app.press(KEYS.up, KEYS.enter);
		await until(() => app.store.screen === "chat");
		expect(read("notes.txt")).toBe("one\n");
		// bash's file is seen, not restored.
		expect(read("b.txt")).toBe("made\n");
		expect(app.input.text).toBe("edit notes");
		frame = app.frame();
		expect(frame).toContain("Wrote notes.");
		expect(frame).not.toContain("Edited notes.");
		const said = app.notices.at(-1) ?? "";
		expect(said).toMatch(/^rewound the conversation and the files to before “edit notes”/);
		expect(said).toContain("restored        notes.txt  +1 −1");
		expect(said).toContain("b.txt: changed by bash at");
		expect(said).toContain("done: 1 file restored, 1 bash change not restored");
		// The leaf is the prompt's parent, in the file too.
		const file = app.conversation.session?.file as string;
		const saved = loadSession(file);
		const prompt = saved.entries.find((e) => e.type === "user" && e.content === "edit notes");
		expect(saved.leafId).toBe(prompt?.parentId);
		app.unmount();
	});

	it("shows a hand-edited file as a conflict, keeps its bytes, and says it skipped it", async () => {
		const { app, cwd, read } = await twoTurns();
		writeFileSync(join(cwd, "notes.txt"), "mine\n");
		await runCommand("/rewind", app.ctx);
		await until(() => app.store.screen === "rewind");
		await app.press(KEYS.enter);
		await until(() => app.frame().includes("Conflicts, left as they are (1)"));
		expect(app.frame()).toMatch(/notes\.txt: .*changed since/);
		expect(app.frame()).toContain("No file to restore.");
		await app.press(KEYS.enter);
		await until(() => app.store.screen === "chat");
		expect(read("notes.txt")).toBe("mine\n");
		expect(app.notices.at(-1)).toMatch(/skipped +notes\.txt: .*changed since/);
		expect(app.notices.at(-1)).toContain("done in part: 0 files restored, 1 skipped");
		app.unmount();
	});

	it("files only restores the files and leaves the conversation; cancel and Esc go back without a change", async () => {
		const { app, read } = await twoTurns();
		const leaf = app.conversation.session?.leafId;
		await app.press(KEYS.esc, KEYS.esc);
		await until(() => app.store.screen === "rewind");
		// The older prompt: its files go back to before it (notes.txt did not exist).
		await app.press(KEYS.down, KEYS.enter);
		await until(() => app.frame().includes("rewind to before “make notes”"));
		expect(app.frame()).toMatch(/remove {5}notes\.txt/);
		await app.press(KEYS.down, KEYS.down, KEYS.down, KEYS.enter);
		await until(() => app.frame().includes("your prompts on this path"));
		await app.press(KEYS.enter);
		await until(() => app.frame().includes("what goes back"));
		await app.press(KEYS.esc);
		await until(() => app.frame().includes("your prompts on this path"));
		expect(read("notes.txt")).toBe("two\n");
		await app.press(KEYS.enter);
		await until(() => app.frame().includes("what goes back"));
		await app.press(KEYS.down, KEYS.down, KEYS.enter);
		await until(() => app.store.screen === "chat");
		expect(read("notes.txt")).toBeNull();
		expect(app.conversation.session?.leafId).toBe(leaf);
		expect(app.input.text).toBe("");
		expect(app.notices.at(-1)).toMatch(/^rewound the files to before “make notes” · \/redo takes it back/);
		app.unmount();
	});

	it("/redo takes the rewind back: the leaf and the files where it found them", async () => {
		const { app, read } = await twoTurns();
		const leaf = app.conversation.session?.leafId;
		await app.press(KEYS.esc, KEYS.esc);
		await until(() => app.store.screen === "rewind");
		await app.press(KEYS.enter);
		await until(() => app.frame().includes("what goes back"));
		await app.press(KEYS.enter);
		await until(() => app.store.screen === "chat");
		expect(read("notes.txt")).toBe("one\n");
		app.input.set("");
		await runCommand("/redo", app.ctx);
		expect(read("notes.txt")).toBe("two\n");
		expect(app.conversation.session?.leafId).toBe(leaf);
		expect(app.frame()).toContain("Edited notes.");
		expect(app.notices.at(-1)).toMatch(/^redone: back to where the last rewind started/);
		await runCommand("/redo", app.ctx);
		expect(app.notices.at(-1)).toBe("nothing to redo: the last rewind was a redo (/rewind goes back again)");
		app.unmount();
	});

	it("is refused while a run is going, with a message; Esc Esc then stops the run and opens nothing", async () => {
		const { app } = await twoTurns([...SCRIPT.slice(0, 4), { text: ["slow ", "answer"], delayMs: 400 }]);
		const run = app.conversation.run("a slow one");
		await until(() => app.conversation.running);
		await runCommand("/rewind", app.ctx);
		expect(app.notices.at(-1)).toBe("/rewind waits until the run ends (Esc stops it)");
		await runCommand("/redo", app.ctx);
		expect(app.notices.at(-1)).toBe("/redo waits until the run ends (Esc stops it)");
		expect(app.intents.openRewind()).toBe("rewind waits until the run ends (Esc stops it)");
		await app.press(KEYS.esc, KEYS.esc);
		await run;
		expect(app.store.screen).toBe("chat");
		app.unmount();
	});

	it("says why it cannot open on a session with nothing sent, or with text in the input", async () => {
		const app = treeApp({ provider: createScriptedProvider(SCRIPT), dir: tmp(), cwd: tmp() });
		await app.press(KEYS.esc, KEYS.esc);
		expect(app.store.screen).toBe("chat");
		expect(app.frame()).toContain("nothing to rewind: send a message first");
		await app.conversation.run("make notes");
		await app.press("x", KEYS.esc, KEYS.esc);
		expect(app.store.screen).toBe("chat");
		expect(app.input.text).toBe("x");
		app.unmount();
	});

	it("the tree's Enter offers the same choice when the move crosses file changes; Esc goes back to the tree", async () => {
		const { app, read } = await twoTurns();
		app.intents.openTree();
		await until(() => app.frame().includes("session tree"));
		await app.press(KEYS.home, KEYS.down);
		await until(() => app.lines().some((line) => line.startsWith("› you › make notes")));
		await app.press(KEYS.enter);
		await until(() => app.store.screen === "rewind" && app.frame().includes("what goes back"));
		expect(app.frame()).toContain("rewind to your prompt “make notes”");
		expect(app.frame()).toMatch(/remove {5}notes\.txt/);
		await app.press(KEYS.esc);
		await until(() => app.store.screen === "tree" && app.frame().includes("session tree"));
		// The tree is mounted again: its keys are heard from its next frame on.
		await frameApart();
		await app.press(KEYS.enter);
		await until(() => app.store.screen === "rewind");
		await app.press(KEYS.enter);
		await until(() => app.store.screen === "chat");
		expect(read("notes.txt")).toBeNull();
		const prompt = app.conversation.session?.session.entries.find((e) => e.type === "user");
		expect(app.conversation.session?.leafId).toBe(prompt?.id);
		expect(app.input.text).toBe("");
		expect(app.notices.at(-1)).toMatch(/^rewound the conversation and the files to your prompt “make notes”/);
		app.unmount();
	});

	it("cuts a long preview to the screen with a count of the rest; PgDn scrolls it; Ctrl+C goes back", async () => {
		const writes = Array.from({ length: 30 }, (_, i) => ({
			id: `w${i}`,
			name: "write",
			args: { path: `f${String(i).padStart(2, "0")}.txt`, content: "x\n" },
		}));
		const cwd = tmp();
		const script: ScriptedTurn[] = [{ text: "Writing.", toolCalls: writes }, { text: "Wrote them." }];
		const app = treeApp({ provider: createScriptedProvider(script), dir: tmp(), cwd });
		await app.conversation.run("make thirty files");
		await app.press(KEYS.esc, KEYS.esc);
		await until(() => app.frame().includes("30 files edited"));
		await app.press(KEYS.enter);
		await until(() => app.frame().includes("Files to restore (30)"));
		// 24 rows: the header, the title, the choices and their blank rows, the keys' row; the rest is the preview.
		// Newest change first, the order they are undone in.
		expect(app.frame()).toContain("remove     f29.txt");
		expect(app.frame()).toContain("… 18 more lines (PgDn)");
		expect(app.frame()).not.toContain("f00.txt");
		await app.press("\u001b[6~");
		// A page on: the line the count stood on comes first, none skipped.
		await until(() => app.frame().includes("remove     f17.txt"));
		expect(app.frame()).not.toContain("f18.txt");
		await app.press("\u001b[6~");
		await until(() => app.frame().includes("f00.txt"));
		expect(app.frame()).not.toContain("f29.txt");
		await app.press(KEYS.ctrlC);
		await until(() => app.frame().includes("your prompts on this path"));
		await app.press(KEYS.ctrlC);
		await until(() => app.store.screen === "chat");
		expect(readFileSync(join(cwd, "f00.txt"), "utf8")).toBe("x\n");
		app.unmount();
	});
});
