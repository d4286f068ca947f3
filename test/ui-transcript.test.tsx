// The transcript mode (Ctrl+O): a cursor on the chat's blocks, Enter to open or fold one, / to search, Esc back.
import { render } from "ink-testing-library";
import { beforeAll, describe, expect, it } from "vitest";
import { EMPTY_USAGE } from "../src/llm/types.js";
import { loadMarkdown } from "../src/ui/chat/markdown.js";
import { App } from "../src/ui/screens/App.js";
import { helpText } from "../src/ui/screens/commands.js";
import { InputModel } from "../src/ui/state/input-model.js";
import { UiStore } from "../src/ui/state/store.js";
import { type ChatItem, initialView, type ToolItem } from "../src/view/state.js";
import { appInfo, tick } from "./support/ui-app.js";

beforeAll(loadMarkdown);

const CTRL_O = "\x0f";
const UP = "\x1b[A";
const DOWN = "\x1b[B";
const ESC = "\x1b";
const HOME = "\x1b[1~";
const END = "\x1b[4~";
const PAGE_DOWN = "\x1b[6~";

const info = appInfo();
const noop = { submit: () => {}, abort: () => {}, exit: () => {} };
const BASH = { kind: "bash", cwd: "/repo", signal: null, timedOut: false, aborted: false, truncated: false } as const;

function bash(key: string, command: string, output: string[]): ToolItem {
	const content = output.join("\n");
	return {
		kind: "tool",
		key,
		callId: key,
		name: "bash",
		argsText: JSON.stringify({ command }),
		args: { command },
		status: "done",
		content,
		details: { ...BASH, command, exitCode: 0, durationMs: 40, totalLines: output.length, totalBytes: content.length },
	};
}

const SESSION: ChatItem[] = [
	{ kind: "user", key: "u1", source: "prompt", text: "why does the parser fail?" },
	{ kind: "thinking", key: "th", text: "Look at the tests first.\nThen the grammar.", streaming: false },
	bash("t1", "npm test", ["ok 1 lexer", "ok 2 grammar", "not ok 3 parser", "# pass 2"]),
	{ kind: "text", key: "r1", text: "The parser drops the last token.", streaming: false },
	bash("t2", "git status", ["M src/parser.ts"]),
	{ kind: "text", key: "r2", text: "Fixed it.", streaming: false },
];

function app(items: ChatItem[] = SESSION, rows = 24) {
	const view = initialView({ provider: "p", model: "m" });
	view.items = [...items];
	const store = new UiStore(view);
	const input = new InputModel();
	const drawn = render(<App store={store} input={input} info={info} actions={noop} size={{ columns: 60, rows }} />);
	const rowsOf = () => (drawn.lastFrame() ?? "").split("\n").map((row) => row.trimEnd());
	const press = async (...keys: string[]) => {
		for (const key of keys) {
			drawn.stdin.write(key);
			await tick();
		}
	};
	return { store, input, rowsOf, press, unmount: drawn.unmount };
}

/** The chat's rows of a frame: between the status bar and the last row (the input, or the mode's bar), blank rows
 * at the end left out. */
function chatOf(rows: string[]): string[] {
	const chat = rows.slice(1, -1);
	while (chat.at(-1) === "") chat.pop();
	return chat;
}

describe("the transcript mode", () => {
	it("Ctrl+O puts the cursor on the newest folded block, opened; ↑/↓ move it, Enter folds and opens, Esc goes back", async () => {
		const a = app();
		a.input.insert("a draft");
		await a.press(CTRL_O);
		expect(chatOf(a.rowsOf())).toEqual([
			"you › why does the parser fail?",
			"",
			"∴ thinking (2 lines) Look at the tests first. Then the gram…",
			"",
			"▸ bash npm test  exit 0 · 40 ms",
			"",
			"● The parser drops the last token.",
			"",
			"▌ ▸ bash git status  exit 0 · 40 ms",
			"▌   M src/parser.ts",
			"",
			"● Fixed it.",
		]);
		// The mode's bar takes the input's place.
		expect(a.rowsOf().at(-1)).toBe("transcript · block 5 of 6 · ↑/↓ block · Enter expand/fold");
		await a.press(UP, UP);
		await a.press("\r");
		expect(chatOf(a.rowsOf())).toEqual([
			"you › why does the parser fail?",
			"",
			"∴ thinking (2 lines) Look at the tests first. Then the gram…",
			"",
			"▌ ▸ bash npm test  exit 0 · 40 ms",
			"▌   ok 1 lexer",
			"▌   ok 2 grammar",
			"▌   not ok 3 parser",
			"▌   # pass 2",
			"",
			"● The parser drops the last token.",
			"",
			"▸ bash git status  exit 0 · 40 ms",
			"  M src/parser.ts",
			"",
			"● Fixed it.",
		]);
		// Ctrl+O in the mode does what Enter does; k and j move as ↑ and ↓.
		await a.press(CTRL_O, "k");
		expect(chatOf(a.rowsOf()).slice(2, 6)).toEqual([
			"▌ ∴ thinking (2 lines) Look at the tests first. Then the gr…",
			"",
			"▸ bash npm test  exit 0 · 40 ms",
			"",
		]);
		await a.press("j", "j", DOWN, DOWN, DOWN);
		expect(a.rowsOf().at(-1)).toContain("block 6 of 6");
		// Letters typed in the mode are its keys or nothing: the draft is as it was.
		await a.press("x");
		expect(a.input.text).toBe("a draft");
		await a.press(ESC);
		expect(a.store.transcript).toBeNull();
		expect(a.rowsOf().at(-1)).toMatch(/^› a draft +Enter send$/);
		expect(chatOf(a.rowsOf())).not.toContain("▌");
		// What was opened stays open.
		expect(chatOf(a.rowsOf())).toContain("  M src/parser.ts");
		a.unmount();
	});

	it("/ searches older blocks first, opens the block it finds at the line that matches; n and N go on", async () => {
		const a = app();
		await a.press(CTRL_O, CTRL_O);
		await a.press("/", "g", "r");
		expect(a.rowsOf().at(-1)).toBe("search the transcript: gr   Enter search · Esc close");
		await a.press("a", "m", "\r");
		// From the cursor up: the test run's output says "grammar"; the block opens, the bar on it.
		expect(chatOf(a.rowsOf()).slice(0, 10)).toEqual([
			"you › why does the parser fail?",
			"",
			"∴ thinking (2 lines) Look at the tests first. Then the gram…",
			"",
			"▌ ▸ bash npm test  exit 0 · 40 ms",
			"▌   ok 1 lexer",
			"▌   ok 2 grammar",
			"▌   not ok 3 parser",
			"▌   # pass 2",
			"",
		]);
		// n: on up to the thinking, which opens; the output the search opened folds again as the cursor leaves it.
		await a.press("n");
		expect(chatOf(a.rowsOf()).slice(0, 8)).toEqual([
			"you › why does the parser fail?",
			"",
			"▌ ∴ thinking (2 lines)",
			"▌   Look at the tests first.",
			"▌   Then the grammar.",
			"",
			"▸ bash npm test  exit 0 · 40 ms",
			"",
		]);
		// Past the first block, the search goes round from the newest one.
		await a.press("n");
		expect(a.rowsOf().at(-1)).toContain("block 3 of 6");
		expect(a.store.hint).toBe("search wrapped to the newest block");
		// N: the other way, newer blocks first.
		await a.press("N");
		expect(a.rowsOf().at(-1)).toContain("block 2 of 6");
		await a.press("/", "z", "z", "q", "\r");
		expect(a.store.hint).toBe("no block mentions “zzq”");
		expect(a.rowsOf().at(-1)).toContain("block 2 of 6");
		// A capital letter makes the search match case: "Fixed" is in the last reply, "fixed" nowhere.
		await a.press("/", "F", "i", "x", "e", "d", "\r");
		expect(a.rowsOf().at(-1)).toContain("block 6 of 6");
		await a.press("/", "f", "i", "x", "e", "d", ESC);
		expect(a.rowsOf().at(-1)).toContain("block 6 of 6");
		a.unmount();
	});

	it("takes keys read together in one chunk one by one (fast typing, a batching terminal)", async () => {
		const a = app();
		await a.press(CTRL_O, "kkk");
		expect(a.rowsOf().at(-1)).toContain("block 2 of 6");
		await a.press("/gram\r");
		expect(a.rowsOf().at(-1)).toContain("block 3 of 6");
		await a.press("nN");
		expect(a.rowsOf().at(-1)).toContain("block 3 of 6");
		// A letter and the Enter typed right after it: the move, then the toggle.
		await a.press("j\r");
		expect(chatOf(a.rowsOf())).toContain("▌ ● The parser drops the last token.");
		expect([...a.store.folded]).toEqual(["r1"]);
		a.unmount();
	});

	it("folds a long reply to its first rows and opens it again", async () => {
		const long = Array.from({ length: 30 }, (_, i) => `- point ${i + 1}`).join("\n");
		const a = app([
			{ kind: "user", key: "u1", source: "prompt", text: "list them" },
			{ kind: "text", key: "r1", text: long, streaming: false },
			{ kind: "run_end", key: "e1", stopReason: "done", turns: 1, durationMs: 10, usage: EMPTY_USAGE, costUsd: 0 },
		]);
		await a.press(CTRL_O);
		// Nothing starts folded here: the cursor is on the newest block, the run's last line, which has nothing to fold.
		await a.press("\r");
		expect(a.store.hint).toBe("this block has nothing to fold");
		await a.press(UP, "\r");
		expect(chatOf(a.rowsOf()).slice(0, 10)).toEqual([
			"you › list them",
			"",
			"▌ ● • point 1",
			"▌   • point 2",
			"▌   • point 3",
			"▌   • point 4",
			"▌   … 26 more lines (folded)",
			"",
			"done · 1 turn · ↑0 ↓0 · $0.00 · 10 ms",
			"",
		]);
		// Opened again, taller than the screen: from its first line down.
		await a.press("\r");
		expect(chatOf(a.rowsOf()).slice(0, 4)).toEqual(["", "▌ ● • point 1", "▌   • point 2", "▌   • point 3"]);
		expect(chatOf(a.rowsOf())).not.toContain("▌   … 26 more lines (folded)");
		a.unmount();
	});

	it("scrolls to a block above or below the screen, as little as shows it", async () => {
		const items: ChatItem[] = Array.from({ length: 40 }, (_, i) => ({
			kind: "user",
			key: `u${i}`,
			source: "prompt",
			text: `message ${i}`,
		}));
		const a = app(items, 12);
		await a.press(CTRL_O);
		expect(chatOf(a.rowsOf())).toEqual([
			"you › message 35",
			"",
			"you › message 36",
			"",
			"you › message 37",
			"",
			"you › message 38",
			"",
			"▌ you › message 39",
		]);
		await a.press(UP, UP, UP, UP, UP);
		// message 34 came into sight at the top row, with the blank line above it.
		expect(chatOf(a.rowsOf())).toEqual([
			"",
			"▌ you › message 34",
			"",
			"you › message 35",
			"",
			"you › message 36",
			"",
			"you › message 37",
		]);
		await a.press(HOME);
		expect(chatOf(a.rowsOf())[0]).toBe("▌ you › message 0");
		// Down past the screen's last row: the view moves just enough to show the block at the bottom.
		await a.press(DOWN, DOWN, DOWN, DOWN, DOWN);
		expect(chatOf(a.rowsOf())).toEqual(
			[
				"",
				"you › message 1",
				"",
				"you › message 2",
				"",
				"you › message 3",
				"",
				"you › message 4",
				"",
				"▌ you › message 5",
			].slice(1),
		);
		// PgDn scrolls the view; the next move brings the cursor back in sight.
		await a.press(PAGE_DOWN, PAGE_DOWN);
		expect(chatOf(a.rowsOf()).join("\n")).not.toContain("▌");
		await a.press(UP);
		expect(chatOf(a.rowsOf()).slice(0, 2)).toEqual(["", "▌ you › message 4"]);
		await a.press(END);
		expect(chatOf(a.rowsOf()).at(-1)).toBe("▌ you › message 39");
		a.unmount();
	});

	it("keeps the first line of a block Enter opens in sight, however tall it grows", async () => {
		const output = Array.from({ length: 30 }, (_, i) => `out ${i + 1}`);
		const a = app([{ kind: "user", key: "u1", source: "prompt", text: "go" }, bash("t1", "seq 30", output)], 12);
		// Ctrl+O opens the newest block where the view is (at the bottom), as it did before the mode.
		await a.press(CTRL_O);
		expect(chatOf(a.rowsOf()).at(-1)).toBe("▌   out 30");
		await a.press("\r", "\r");
		expect(chatOf(a.rowsOf()).slice(0, 3)).toEqual(["", "▌ ▸ bash seq 30  exit 0 · 40 ms", "▌   out 1"]);
		a.unmount();
	});

	it("shows the line a search found in a long output, however far down it is", async () => {
		const output = Array.from({ length: 60 }, (_, i) => (i === 47 ? "needle at 48" : `hay ${i + 1}`));
		const a = app([{ kind: "user", key: "u1", source: "prompt", text: "go" }, bash("t1", "cat hay", output)], 12);
		await a.press(CTRL_O, CTRL_O, "/", "n", "e", "e", "d", "l", "e", "\r");
		// The line before the match for context, then the match.
		expect(chatOf(a.rowsOf()).slice(0, 2)).toEqual(["▌   hay 47", "▌   needle at 48"]);
		a.unmount();
	});

	it("costs what the screen shows: each key reads as many items in a 100,000-entry session as in a short one", async () => {
		async function reads(n: number) {
			const items: ChatItem[] = [];
			for (let i = 0; i < n; i++) items.push({ kind: "user", key: `u${i}`, source: "prompt", text: `message ${i}` });
			const view = initialView({ provider: "p", model: "m" });
			const counter = { reads: 0 };
			view.items = new Proxy(items, {
				get(target, prop, receiver) {
					if (typeof prop === "string" && /^\d+$/.test(prop)) counter.reads++;
					return Reflect.get(target, prop, receiver);
				},
			});
			const store = new UiStore(view);
			const drawn = render(
				<App store={store} input={new InputModel()} info={info} actions={noop} size={{ columns: 60, rows: 24 }} />,
			);
			const out: number[] = [];
			for (const key of [CTRL_O, UP, UP, "\r", HOME, DOWN, END, ESC]) {
				counter.reads = 0;
				drawn.stdin.write(key);
				await tick();
				out.push(counter.reads);
			}
			drawn.unmount();
			return out;
		}
		const short = await reads(1000);
		const long = await reads(100_000);
		expect(long).toEqual(short);
		// Ctrl+O looks back 500 items for a folded block; every other key reads about a screen's worth.
		for (const count of long.slice(1)) expect(count).toBeLessThan(200);
	});

	it("gives a paste to the search line while it is open, else to the input (the mode ends)", async () => {
		const a = app();
		await a.press(CTRL_O, "/", "\x1b[200~gram\nmar\x1b[201~");
		expect(a.rowsOf().at(-1)).toBe("search the transcript: gram mar   Enter search · Esc close");
		await a.press(ESC, "\x1b[200~pasted text\x1b[201~");
		expect(a.store.transcript).toBeNull();
		expect(a.input.text).toBe("pasted text");
		a.unmount();
	});

	it("is in /help with its keys", () => {
		const help = helpText().split("\n");
		const at = help.indexOf("In the transcript (Ctrl+O)");
		expect(at).toBeGreaterThan(0);
		expect(help.slice(at + 1, at + 4)).toEqual([
			"  ↑ / ↓, k / j          the block above / below",
			"  Enter, Ctrl+O         expand or fold the block",
			"  /                     search the transcript (older blocks first)",
		]);
	});

	it("ends with Ctrl+C and when an approval question opens", async () => {
		const a = app();
		await a.press(CTRL_O, "/", "g");
		await a.press("\x03");
		expect(a.store.transcript?.typing).toBeNull();
		await a.press("\x03");
		expect(a.store.transcript).toBeNull();
		await a.press(CTRL_O);
		const preview = { kind: "bash", command: "ls", cwd: "/", timeoutMs: 1 } as const;
		a.store.onEvent({ type: "approval_request", callId: "c", name: "bash", args: {}, preview });
		a.store.awaitAnswer("c", () => {});
		await tick();
		expect(a.store.transcript).toBeNull();
		expect(a.rowsOf().join("\n")).toContain("allow");
		a.unmount();
	});
});
