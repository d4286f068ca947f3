import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import type { PastedRange } from "../src/agent/events.js";
import { editExternally } from "../src/ui/editor/external-editor.js";
import { editorWork } from "../src/ui/editor/graphemes.js";
import { PromptHistory } from "../src/ui/editor/history.js";
import { historyFile, openHistory } from "../src/ui/editor/history-file.js";
import { App, type AppInfo } from "../src/ui/screens/App.js";
import { createKeyHandler, type SendMode } from "../src/ui/screens/chat-keys.js";
import { commandCompleter } from "../src/ui/screens/commands.js";
import { InputModel } from "../src/ui/state/input-model.js";
import { UiStore } from "../src/ui/state/store.js";
import { initialView } from "../src/view/state.js";

const tick = () => new Promise((resolve) => setImmediate(resolve));

function info(running: { value: boolean }): AppInfo {
	return {
		version: "0.1.0",
		cwd: "~/project",
		branch: null,
		sessionId: () => null,
		sessionName: () => undefined,
		sessionBranch: () => "–",
		running: () => running.value,
	};
}

/** The app in ink-testing-library: keys go through Ink's own input parser, as in a terminal. */
function app(size = { columns: 100, rows: 30 }) {
	const store = new UiStore(initialView({ provider: "p", model: "m" }));
	const input = new InputModel();
	const sent: { text: string; mode: SendMode | undefined; pastes?: PastedRange[] | undefined }[] = [];
	const queued: string[] = [];
	const running = { value: false };
	const counts = { aborted: 0, exits: 0 };
	const actions = {
		submit: (text: string, mode?: SendMode, pastes?: PastedRange[]) => sent.push({ text, mode, pastes }),
		abort: () => {
			counts.aborted++;
		},
		exit: () => {
			counts.exits++;
		},
		pullQueued: () => queued.pop(),
	};
	const r = render(<App store={store} input={input} info={info(running)} actions={actions} size={size} />);
	const write = async (...chunks: string[]) => {
		for (const chunk of chunks) {
			r.stdin.write(chunk);
			await tick();
		}
	};
	return {
		...r,
		store,
		input,
		sent,
		queued,
		running,
		write,
		get aborted() {
			return counts.aborted;
		},
		get exits() {
			return counts.exits;
		},
	};
}

describe("the editor in the app", () => {
	it("Shift+Enter (CSI u and modifyOtherKeys), Alt+Enter and Ctrl+J insert a newline; Enter sends", async () => {
		const a = app();
		await a.write("one", "\x1b[13;2u", "two", "\x1b[27;2;13~", "three", "\x1b\r", "four", "\n", "five");
		expect(a.input.text).toBe("one\ntwo\nthree\nfour\nfive");
		const frame = a.lastFrame() ?? "";
		expect(frame).toContain("› one");
		expect(frame).toMatch(/\n {2}five/);
		await a.write("\r");
		expect(a.sent).toEqual([{ text: "one\ntwo\nthree\nfour\nfive", mode: "send" }]);
		a.unmount();
	});

	it("Ctrl+J under the kitty keyboard protocol (Ctrl and j, not the byte) inserts a newline too", async () => {
		const a = app();
		await a.write("one", "\x1b[106;5u", "two");
		expect(a.input.text).toBe("one\ntwo");
		expect(a.sent).toEqual([]);
		a.unmount();
	});

	it("understands the kitty keyboard protocol's keys (Shift+Enter, Alt+Enter, Ctrl+C, Ctrl+U, Esc)", async () => {
		const a = app();
		await a.write("one", "\x1b[13;2u", "two", "\x1b[13;3u", "three");
		expect(a.input.text).toBe("one\ntwo\nthree");
		await a.write("\x1b[99;5u");
		expect(a.input.text).toBe("");
		await a.write("abc", "\x1b[117;5u");
		expect(a.input.text).toBe("");
		a.running.value = true;
		await a.write("\x1b[27u");
		expect(a.aborted).toBe(1);
		a.unmount();
	});

	it("drops a terminal's late answer to the start-up background query instead of typing it", async () => {
		const a = app();
		await a.write("a", "\x1b]11;rgb:ffff/ffff/ffff\x1b\\", "\x1b[?62;22c", "\x1b]11;rgb:1e/1e/1e\x07\x1b[?1;2c", "b");
		expect(a.input.text).toBe("ab");
		// The same characters typed one by one, and a "]" on its own, are text.
		await a.write("[", "?", "1", "c", "]", "]", "x");
		expect(a.input.text).toBe("ab[?1c]]x");
		a.unmount();
	});

	it("inserts a bracketed paste split across several reads as text, never sending it", async () => {
		const a = app();
		// The end marker split between reads: Ink passes "[20", then "1~".
		await a.write("\x1b[200~first line\r", "second\rthi", "rd\r", "\x1b[20", "1~");
		expect(a.input.text).toBe("first line\nsecond\nthird\n");
		await a.write("\x1b[200~[2", "x\x1b", "[201~");
		expect(a.sent).toEqual([]);
		expect(a.input.text).toBe("first line\nsecond\nthird\n[2x");
		a.unmount();
	});

	it("Ctrl+C twice quits though the hint it shows changes the layout", async () => {
		const a = app();
		await a.write("\x03");
		expect(a.lastFrame()).toContain("press Ctrl+C again to quit");
		await a.write("\x03");
		expect(a.exits).toBe(1);
		a.unmount();
	});

	it("keeps a bracketed paste whole when the layout changes while it arrives", async () => {
		const a = app();
		await a.write("\x1b[200~first half ");
		a.store.setHint("a hint row appears");
		await tick();
		await a.write("second half\x1b[201~");
		expect(a.input.text).toBe("first half second half");
		a.unmount();
	});

	it("Tab after `/model ` or `/theme ` lists the choices; `/mo` and Tab in one read completes", async () => {
		const a = app({ columns: 120, rows: 30 });
		a.input.completer = commandCompleter({ models: () => ["gpt-5", "gpt-5-mini"], themes: () => ["dark", "light"] });
		await a.write("/mo\t");
		expect(a.input.text).toBe("/model ");
		await a.write("\t");
		expect(a.lastFrame()).toMatch(/› \/model \s+Enter send\n {2}gpt-5\s*\n/);
		await a.write("\t");
		expect(a.input.text).toBe("/model gpt-5");
		a.input.clear();
		await a.write("/theme ", "\t");
		expect(a.lastFrame()).toMatch(/light/);
		await a.write("\x1b[B", "\t");
		expect(a.input.text).toBe("/theme light");
		expect(a.store.inspector).toBe(true);
		a.unmount();
	});

	it("Tab below 100 columns says the inspector needs a wider terminal", async () => {
		const a = app({ columns: 90, rows: 20 });
		await a.write("\t");
		expect(a.lastFrame()).toContain("the inspector needs 100 columns, this terminal has 90");
		expect(a.store.inspector).toBe(true);
		a.unmount();
	});

	it("shows a 2,000-line paste as a placeholder and sends it expanded", async () => {
		const a = app();
		const lines = Array.from({ length: 2000 }, (_, i) => `row ${i}`);
		const body = lines.join("\r");
		await a.write("look: ", "\x1b[200~", body.slice(0, 5000), body.slice(5000), "\x1b[201~", " thanks");
		expect(a.lastFrame()).toContain("› look: [pasted 2000 lines] thanks");
		expect(a.sent).toEqual([]);
		await a.write("\r");
		expect(a.sent[0]?.text).toBe(`look: ${lines.join("\n")} thanks`);
		// Where the paste sits goes with it, so the chat can show it folded.
		expect(a.sent[0]?.pastes).toEqual([{ start: 6, end: 6 + lines.join("\n").length }]);
		a.unmount();
	});

	it("while a run goes on, Enter steers, Alt+Enter follows up, and ↑ on an empty input pulls a queued message back", async () => {
		const a = app();
		a.running.value = true;
		await a.write("steer this", "\r", "then this", "\x1b\r");
		expect(a.sent).toEqual([
			{ text: "steer this", mode: "send" },
			{ text: "then this", mode: "follow_up" },
		]);
		a.queued.push("then this");
		await a.write("\x1b[A");
		expect(a.input.text).toBe("then this");
		a.unmount();
	});

	it("↑ and ↓ move between lines, then walk the history from the first and last line", async () => {
		const a = app();
		a.input.history = PromptHistory.memory(["older", "newer"]);
		await a.write("draft", "\n", "two");
		await a.write("\x1b[A");
		expect(a.input.buffer.row).toBe(0);
		await a.write("\x1b[A");
		expect(a.input.text).toBe("newer");
		await a.write("\x1b[A");
		expect(a.input.text).toBe("older");
		await a.write("\x1b[A");
		expect(a.input.text).toBe("older");
		await a.write("\x1b[B", "\x1b[B");
		expect(a.input.text).toBe("draft\ntwo");
		a.unmount();
	});

	it("Ctrl+R searches the history; Enter takes the match, Esc leaves the draft", async () => {
		const a = app();
		a.input.history = PromptHistory.memory(["fix the parser", "run the tests", "fix the lexer"]);
		await a.write("\x12", "fix");
		expect(a.lastFrame()).toContain("history search: fix");
		expect(a.lastFrame()).toContain("fix the lexer");
		await a.write("\x12");
		expect(a.lastFrame()).toContain("fix the parser");
		await a.write("\r");
		expect(a.input.text).toBe("fix the parser");
		expect(a.sent).toEqual([]);
		a.input.clear();
		await a.write("keep", "\x12", "tests", "\x1b");
		await new Promise((r) => setTimeout(r, 50));
		expect(a.input.text).toBe("keep");
		a.unmount();
	});

	it("shows at most ten rows and scrolls with the cursor", async () => {
		const a = app({ columns: 60, rows: 30 });
		for (let i = 1; i <= 15; i++) await a.write(`line ${i}`, "\n");
		const frame = a.lastFrame() ?? "";
		expect(frame).not.toContain("line 5\n");
		expect(frame).toContain("line 15");
		expect(frame.split("\n").length).toBe(29);
		a.unmount();
	});
});

describe("typing after a huge paste", () => {
	/** Work (grapheme characters examined) per key for 50 keys, through the handler and the input's layout. */
	function workPerKey(paste: string | null): number {
		const store = new UiStore(initialView({ provider: "p", model: "m" }));
		const input = new InputModel();
		input.width = 80;
		const press = createKeyHandler({
			store,
			input,
			running: () => false,
			submit: () => {},
			abort: () => {},
			exit: () => {},
			page: () => 20,
			columns: () => 80,
		});
		const key = {} as Parameters<typeof press>[1];
		if (paste !== null) {
			press("[200~", key);
			press(paste, key);
			press("[201~", key);
		}
		press("some words before ", key);
		input.view();
		input.getHeight();
		const before = editorWork.chars;
		for (let i = 0; i < 50; i++) {
			press(i % 10 === 9 ? " " : "x", key);
			// What a frame does with the input: its height and the rows on screen.
			input.getHeight();
			input.view();
		}
		return (editorWork.chars - before) / 50;
	}

	it("costs the same per key as typing in an empty editor (O(1), not O(paste))", () => {
		const lines = (n: number) => Array.from({ length: n }, (_, i) => `pasted line number ${i}`).join("\r");
		const empty = workPerKey(null);
		const after5k = workPerKey(lines(5000));
		const after50k = workPerKey(lines(50_000));
		// Per key the editor looks at the line being typed (a placeholder is one grapheme in it), never at the paste.
		expect(after5k).toBeLessThanOrEqual(empty * 2);
		expect(Math.abs(after50k - after5k)).toBeLessThan(5);
	});
});

describe("the prompt history file", () => {
	it("keeps what was sent across runs, per project", () => {
		const dir = mkdtempSync(join(tmpdir(), "gar-history-"));
		const file = historyFile(dir, "/some/project");
		expect(historyFile(dir, "/other/project")).not.toBe(file);
		const first = openHistory(file);
		expect(first.entries).toEqual([]);
		first.add("fix the parser");
		first.add("multi\nline");
		first.add("multi\nline");
		const second = openHistory(file);
		expect(second.entries).toEqual(["fix the parser", "multi\nline"]);
		second.add("third");
		expect(openHistory(file).entries).toEqual(["fix the parser", "multi\nline", "third"]);
		writeFileSync(file, `${readFileSync(file, "utf8")}{"torn\n`);
		expect(openHistory(file).entries.length).toBe(3);
	});
});

describe("Ctrl+G", () => {
	it("round-trips the text through $EDITOR", () => {
		const dir = mkdtempSync(join(tmpdir(), "gar-editor-"));
		const script = join(dir, "fake-editor.sh");
		writeFileSync(script, '#!/bin/sh\nprintf "%s" "$(cat "$1") and more\nsecond line\n" > "$1"\n');
		chmodSync(script, 0o755);
		const calls: string[] = [];
		const result = editExternally("draft", {
			env: { EDITOR: script },
			before: () => calls.push("before"),
			after: () => calls.push("after"),
		});
		expect(result).toEqual({ text: "draft and more\nsecond line" });
		expect(calls).toEqual(["before", "after"]);
		expect(editExternally("x", { editor: "false" })).toEqual({ error: "the editor (false) exited with 1" });
	});
});
