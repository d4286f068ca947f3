// The session tree screen (/tree, t in the rewind list of Esc Esc) in ink-testing-library, over a real conversation and session file:
// moving, folding, filters, labels, search, and the current leaf saved so that it survives a restart.
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { createScriptedProvider, type ScriptedTurn } from "../src/llm/scripted.js";
import { loadSession } from "../src/session/load.js";
import { loadMarkdown } from "../src/ui/chat/markdown.js";
import { runCommand } from "../src/ui/screens/commands.js";
import { tempDirsPerTest } from "./fixtures/session/run.js";
import { KEYS, tick, treeApp, until } from "./support/tree-app.js";

beforeAll(loadMarkdown);
const tmp = tempDirsPerTest();

/** Three prompts; the second is answered after a read and an edit. */
const SCRIPT: ScriptedTurn[] = [
	{ text: "First answer." },
	{ text: "Reading.", toolCalls: [{ id: "r1", name: "read", args: { path: "a.txt" } }] },
	{ text: "Editing.", toolCalls: [{ id: "e1", name: "edit", args: { path: "a.txt", edits: [] } }] },
	{ text: "Second answer." },
	{ text: "Third answer." },
	{ text: "Another answer." },
];

async function withThreeTurns(dir = tmp()) {
	const app = treeApp({ provider: createScriptedProvider(SCRIPT), dir, cwd: tmp() });
	for (const prompt of ["first prompt", "second prompt", "third prompt"]) await app.conversation.run(prompt);
	return app;
}

/** The tree's rows on screen: between the header and the last row. */
const treeRows = (lines: string[]) => lines.slice(1, -1).filter((line) => line.trim() !== "");
const selectedRow = (lines: string[]) => lines.find((line) => line.startsWith("› "));

describe("the session tree screen", () => {
	it("opens with Esc Esc t on an empty input (t in the rewind list), at the current leaf; Esc goes back", async () => {
		const app = await withThreeTurns();
		await app.press(KEYS.esc, KEYS.esc);
		await until(() => app.store.screen === "rewind");
		await app.press("t");
		await until(() => app.frame().includes("session tree"));
		const rows = treeRows(app.lines());
		expect(rows.map((r) => r.trimEnd())).toEqual([
			"  » model: scripted/m",
			"  you › first prompt",
			"    First answer.",
			"  you › second prompt",
			"    Second answer. · read 1 · edit 1",
			"  you › third prompt",
			"›   Third answer. ← current",
		]);
		expect(app.lines()[0]).toMatch(/session tree · first prompt · 11 entries · 0 branch points · showing all entries/);
		expect(app.lines().at(-1)).toContain("↑↓ move · Enter go here · e edit & resend");
		await app.press(KEYS.esc);
		expect(app.store.screen).toBe("chat");
		expect(app.frame()).toContain("Third answer.");
		app.unmount();
	});

	it("does not open on Esc Esc with text in the input, or on a session with nothing in it; /tree opens it", async () => {
		const app = treeApp({ provider: createScriptedProvider(SCRIPT), dir: tmp(), cwd: tmp() });
		await app.press(KEYS.esc, KEYS.esc);
		expect(app.store.screen).toBe("chat");
		// Said in the hint row, which clears itself: a stray Esc Esc leaves nothing in the chat.
		expect(app.frame()).toContain("nothing to rewind: send a message first");
		await runCommand("/tree", app.ctx);
		expect(app.store.screen).toBe("chat");
		await app.conversation.run("first prompt");
		await app.press("x", KEYS.esc, KEYS.esc);
		expect(app.store.screen).toBe("chat");
		expect(app.input.text).toBe("x");
		await runCommand("/tree", app.ctx);
		expect(app.store.screen).toBe("tree");
		app.unmount();
	});

	it("moves with ↑/↓, folds with ←/→, filters with v, and jumps between branch points with Tab", async () => {
		const app = await withThreeTurns();
		const session = app.conversation.session?.session;
		const secondAnswer = session?.entries.find((e) => e.type === "assistant" && JSON.stringify(e).includes("Second"));
		app.intents.moveLeaf(secondAnswer?.id ?? null);
		await app.conversation.run("another prompt");
		app.intents.openTree();
		await until(() => app.frame().includes("session tree"));
		expect(treeRows(app.lines()).map((r) => r.trimEnd())).toEqual([
			"  » model: scripted/m",
			"  you › first prompt",
			"    First answer.",
			"  you › second prompt",
			"    Second answer. · read 1 · edit 1 ◆ 2 branches",
			"  ├─ you › third prompt",
			"  │    Third answer.",
			"  └─ you › another prompt",
			"›      Another answer. ← current",
		]);
		expect(app.lines()[0]).toContain("1 branch point");
		// Tab back up to the branch point, ↓ into the first branch, ← folds it.
		await app.press(KEYS.shiftTab);
		await until(() => selectedRow(app.lines())?.includes("2 branches") === true);
		await app.press(KEYS.down, KEYS.left);
		await until(() => app.frame().includes("▸ folded: 1 more"));
		expect(selectedRow(app.lines())).toContain("├─ you › third prompt ▸ folded: 1 more");
		expect(app.frame()).not.toContain("Third answer.");
		await app.press(KEYS.right);
		await until(() => app.frame().includes("Third answer."));
		// v: your prompts only, then labelled only (none yet), then all again.
		await app.press("v");
		await until(() => app.frame().includes("showing your prompts only"));
		expect(treeRows(app.lines()).map((r) => r.trimEnd())).toEqual([
			"  you › first prompt",
			"  you › second prompt ◆ 2 branches",
			"› ├─ you › third prompt",
			"  └─ you › another prompt",
		]);
		await app.press("v");
		await until(() => app.frame().includes("no entry has a label: l labels one"));
		await app.press("v");
		await until(() => app.frame().includes("showing all entries"));
		// Back on the entry selected before the filters.
		expect(selectedRow(app.lines())).toContain("├─ you › third prompt");
		await app.press(KEYS.up, KEYS.up);
		await until(() => selectedRow(app.lines())?.includes("you › second prompt") === true);
		app.unmount();
	});

	it("makes the selected entry the current leaf with Enter: saved, the chat shows its path, and a restart keeps it", async () => {
		const dir = tmp();
		const app = await withThreeTurns(dir);
		const file = app.conversation.session?.file as string;
		app.intents.openTree();
		await until(() => app.frame().includes("session tree"));
		// Up to the first answer.
		await app.press(KEYS.up, KEYS.up, KEYS.up, KEYS.up);
		await until(() => selectedRow(app.lines())?.includes("First answer.") === true);
		await app.press(KEYS.enter);
		await until(() => app.store.screen === "chat");
		expect(app.frame()).toContain("First answer.");
		expect(app.frame()).not.toContain("Third answer.");
		const firstAnswer = loadSession(file).entries.find((e) => e.type === "assistant");
		expect(loadSession(file).leafId).toBe(firstAnswer?.id);
		expect(readFileSync(file, "utf8")).toContain(`"type":"leaf"`);
		app.unmount();

		// A new app over the same file: the tree opens at the saved leaf; nothing was deleted.
		const again = treeApp({ provider: createScriptedProvider(SCRIPT), dir, cwd: tmp(), file });
		expect(again.frame()).toContain("First answer.");
		expect(again.frame()).not.toContain("Third answer.");
		again.intents.openTree();
		await until(() => again.frame().includes("session tree"));
		expect(selectedRow(again.lines())).toMatch(/First answer\. ← current/);
		expect(again.frame()).toContain("Third answer.");
		again.unmount();
	});

	it("labels the selected entry through a one-line field; the label shows in the tree and the status bar", async () => {
		const app = await withThreeTurns();
		app.intents.openTree();
		await until(() => app.frame().includes("session tree"));
		await app.press(KEYS.up, KEYS.up);
		await app.press("l");
		await until(() => app.frame().includes("label › "));
		// Typed keys are the field's, not the tree's (v would switch the filter, e would edit).
		for (const key of ["v", "e", "r", "y", " good"]) await app.typeInField(key);
		expect(app.frame()).toContain("label › very good");
		expect(app.frame()).toContain("showing all entries");
		await app.press(KEYS.enter);
		await until(() => app.frame().includes("labelled: very good"));
		expect(treeRows(app.lines()).find((r) => r.includes("[very good]"))).toContain("Second answer.");
		const file = app.conversation.session?.file as string;
		expect(loadSession(file).labels.size).toBe(1);
		// v once more shows only labelled entries now.
		await app.press("v", "v");
		await until(() => app.frame().includes("showing labelled only"));
		expect(treeRows(app.lines()).map((r) => r.trimEnd())).toEqual(["›   Second answer. · read 1 · edit 1 [very good]"]);
		// Back in the chat, the status bar shows the label nearest the current leaf.
		await app.press(KEYS.esc);
		await until(() => app.store.screen === "chat");
		expect(app.lines()[0]).toContain('"first prompt" [very good]');
		// Esc in the field leaves it without a label; Ctrl+C too, then Ctrl+C leaves the screen.
		app.intents.openTree();
		await until(() => app.frame().includes("session tree"));
		await app.press("l");
		await until(() => app.frame().includes("label › "));
		await app.typeInField("x");
		await app.press(KEYS.esc);
		await until(() => !app.frame().includes("label › "));
		await app.press("l");
		await until(() => app.frame().includes("label › "));
		await app.press(KEYS.ctrlC);
		await until(() => !app.frame().includes("label › "));
		expect(app.store.screen).toBe("tree");
		await app.press(KEYS.ctrlC);
		expect(app.store.screen).toBe("chat");
		expect(loadSession(file).labels.size).toBe(1);
		app.unmount();
	});

	it("searches with /, then n and N, and says when nothing matches", async () => {
		const app = await withThreeTurns();
		app.intents.openTree();
		await until(() => app.frame().includes("session tree"));
		await app.press("/");
		await until(() => app.frame().includes("search › "));
		await app.typeInField("PROMPT");
		expect(app.frame()).toContain("search › PROMPT");
		await app.press(KEYS.enter);
		await until(() => selectedRow(app.lines())?.includes("you › first prompt") === true);
		await app.press("n");
		await until(() => selectedRow(app.lines())?.includes("you › second prompt") === true);
		await app.press("N");
		await until(() => selectedRow(app.lines())?.includes("you › first prompt") === true);
		// Tool names are found too.
		// "/edit" in one read opens the search with "edit" typed.
		await app.press("/edit");
		await until(() => app.frame().includes("search › edit"));
		await app.press(KEYS.enter);
		await until(() => selectedRow(app.lines())?.includes("Second answer.") === true);
		await app.press("/");
		await until(() => app.frame().includes("search › "));
		await app.typeInField("zzz");
		await app.press(KEYS.enter);
		await until(() => app.frame().includes("nothing matches “zzz”"));
		app.unmount();
	});

	it("refuses to edit a reply, and to move while a run goes on, saying why", async () => {
		const slow = createScriptedProvider([{ text: "slow", delayMs: 400 }]);
		const app = treeApp({ provider: slow, dir: tmp(), cwd: tmp() });
		const running = app.conversation.run("a prompt");
		await until(() => app.conversation.session?.session.entries.some((e) => e.type === "user") === true);
		app.intents.openTree();
		await until(() => app.frame().includes("session tree"));
		await app.press(KEYS.home, KEYS.enter);
		await until(() => app.frame().includes("cannot move to another entry while a run is going"));
		expect(app.store.screen).toBe("tree");
		await running;
		await tick();
		await app.press(KEYS.end, "e");
		await until(() => app.frame().includes("e edits a prompt you sent"));
		// A !cmd's output in the context is not a prompt to edit.
		app.conversation.addShellContext("ls", { content: "a.txt\n", details: null, isError: false });
		await app.press(KEYS.esc);
		app.intents.openTree();
		await until(() => app.frame().includes("you › $ ls"));
		await app.press(KEYS.end, "e");
		await until(() => app.frame().includes("this is not a prompt you typed"));
		expect(app.store.screen).toBe("tree");
		app.unmount();
	});

	it("opens again at the current leaf, with the folds and the filter it was left with", async () => {
		const app = await withThreeTurns();
		app.intents.openTree();
		await until(() => app.frame().includes("session tree"));
		await app.press(KEYS.home, "v");
		await until(() => app.frame().includes("showing your prompts only"));
		await app.press(KEYS.esc);
		await app.conversation.run("a fourth prompt");
		await app.press(KEYS.esc, KEYS.esc);
		await until(() => app.store.screen === "rewind");
		await app.press("t");
		await until(() => app.frame().includes("a fourth prompt"));
		expect(app.frame()).toContain("showing your prompts only");
		expect(selectedRow(app.lines())).toContain("you › a fourth prompt");
		app.unmount();
	});

	it("draws prompts and labels from a session file inert", async () => {
		const app = await withThreeTurns();
		const session = app.conversation.session;
		const first = session?.session.entries.find((e) => e.type === "user");
		session?.label(first?.id ?? "", "\u001b]0;owned\u0007x");
		await app.conversation.run("clear \u001b[2J screen");
		app.intents.openTree();
		await until(() => app.frame().includes("session tree"));
		expect(app.frame()).toContain("[␛]0;owned^Gx]");
		expect(app.frame()).toContain("clear ␛[2J screen");
		expect(app.frame()).not.toContain("\u001b]0;");
		app.unmount();
	});
});
