// Typing @ in the editor: the finder's paths under the input, Enter puts the chosen one in (never sends), and only
// where a mention can start: not inside an e-mail address, not from a paste.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { render } from "ink-testing-library";
import { afterAll, describe, expect, it } from "vitest";
import { FileFinder } from "../src/files/finder.js";
import { listFiles } from "../src/files/list.js";
import { App } from "../src/ui/screens/App.js";
import { commandCompleter } from "../src/ui/screens/commands.js";
import { InputModel } from "../src/ui/state/input-model.js";
import { UiStore } from "../src/ui/state/store.js";
import { initialView } from "../src/view/state.js";
import { appInfo, tick, until } from "./support/ui-app.js";

const info = appInfo();

const root = mkdtempSync(join(tmpdir(), "gar-mention-ui-"));
for (const file of ["src/ui/chat/window.ts", "src/ui/chat/window-cache.ts", "test/window.test.ts", "README.md"]) {
	mkdirSync(join(root, file, ".."), { recursive: true });
	writeFileSync(join(root, file), "x\n");
}
afterAll(() => rmSync(root, { recursive: true, force: true }));

function app({ finder = true } = {}) {
	const store = new UiStore(initialView({ provider: "p", model: "m" }));
	const input = new InputModel();
	if (finder) input.finder = new FileFinder({ cwd: root, list: listFiles });
	const sent: string[] = [];
	const actions = { submit: (text: string) => sent.push(text), abort: () => {}, exit: () => {} };
	const r = render(<App store={store} input={input} info={info} actions={actions} size={{ columns: 60, rows: 20 }} />);
	const rows = () => (r.lastFrame() ?? "").split("\n").map((row) => row.trimEnd());
	const write = async (...chunks: string[]) => {
		for (const chunk of chunks) {
			r.stdin.write(chunk);
			await tick();
		}
	};
	return { input, sent, rows, write, unmount: r.unmount };
}

describe("@ in the editor", () => {
	it("lists the files that match under the input; Enter puts the chosen one in, and only puts it in", async () => {
		const a = app();
		await a.write("look at @", "w", "i", "n");
		const popup = [
			"› look at @win                                    Enter send",
			// The same score: the shorter path first.
			"  @test/window.test.ts",
			"  @src/ui/chat/window.ts",
			"  @src/ui/chat/window-cache.ts",
		];
		await until(() => a.rows().slice(-4).join("\n") === popup.join("\n"));
		await a.write("\x1b[B", "\r");
		expect(a.input.text).toBe("look at @src/ui/chat/window.ts ");
		expect(a.sent).toEqual([]);
		// The list is gone with the mention; Enter now sends.
		expect(a.rows().at(-1)).toMatch(/^› look at @src\/ui\/chat\/window\.ts +Enter send$/);
		await a.write("please\r");
		expect(a.sent).toEqual(["look at @src/ui/chat/window.ts please"]);
		a.unmount();
	});

	it("a mention or a /command typed while gar starts gets its list once the finder and the completer exist", async () => {
		// Keys are answered before the conversation exists: the finder and the completer come with it.
		const a = app({ finder: false });
		await a.write("look at @", "w", "i", "n");
		await new Promise((r) => setTimeout(r, 50));
		expect(a.rows().at(-1)).toMatch(/^› look at @win +Enter send$/);
		a.input.finder = new FileFinder({ cwd: root, list: listFiles });
		await until(() => a.rows().at(-1) === "  @src/ui/chat/window-cache.ts");
		const b = app({ finder: false });
		await b.write("/the");
		expect(b.rows().at(-1)).toMatch(/^› \/the +Enter send$/);
		b.input.completer = commandCompleter({ models: () => [], themes: () => ["dark"], templates: () => [] });
		// The input row reads "/the": the list's row is the one naming /theme.
		await until(() => b.rows().some((row) => row.includes("/theme")));
		a.unmount();
		b.unmount();
	});

	it("does not open inside an e-mail address or a word, nor for a pasted @", async () => {
		const a = app();
		await a.write("mail me@win");
		await new Promise((r) => setTimeout(r, 50));
		expect(a.rows().at(-1)).toMatch(/^› mail me@win +Enter send$/);
		await a.write(" \x1b[200~@win\x1b[201~");
		await new Promise((r) => setTimeout(r, 50));
		expect(a.rows().at(-1)).toMatch(/^› mail me@win @win +Enter send$/);
		await a.write("\r");
		expect(a.sent).toEqual(["mail me@win @win"]);
		a.unmount();
	});

	it("says so when the file chosen was removed since the list was made, and puts nothing in", async () => {
		const a = app();
		await a.write("@", "R", "E", "A");
		await until(() => a.rows().some((row) => row.includes("@README.md")));
		rmSync(join(root, "README.md"));
		await a.write("\r");
		expect(a.input.text).toBe("@REA");
		// The note under the input, cut to the terminal's width.
		expect(a.rows().at(-1)).toMatch(/^not inserted: README\.md was removed since the file list was…$/);
		expect(a.sent).toEqual([]);
		a.unmount();
	});
});
