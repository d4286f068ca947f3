// The build's Ink patches (scripts/ink-patches.mjs) change how fast frames are made, not what they are: the same app
// and updates, bundled with and without them, write the same bytes to the terminal. The exceptions are fixes, each
// with its test below: the frame after a clear is drawn whole, each character is drawn as it was measured, and a row
// drawn to the last column is not erased after (xterm, urxvt, st and macOS Terminal erased its last character).
// The app draws with Ink's incremental writer (src/ui/run.tsx), whose bytes differ from the whole-frame writer's by
// design, and which stock Ink 6.8 gets wrong: there the frames go through a test terminal (test/support/
// terminal-screen.ts) and the screens it shows after each frame are compared with the ones stock Ink draws whole.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import stripAnsi from "strip-ansi";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import stringWidth from "../src/term/string-width.js";
import { bundleApp as bundleTestApp } from "./support/bundle-app.js";
import { type ScreenOptions, TerminalScreen } from "./support/terminal-screen.js";

const dir = mkdtempSync(join(tmpdir(), "gar-ink-patches-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A tiny Ink app on a 40×12 terminal driven through a list of screens: rows of text beside a bordered "side" box,
 * 10 rows tall unless a screen says `{ rows, height }`. "clear" does what gar does when it takes the screen back after
 * Ctrl+G's editor or `fg` (leave and enter the alternate screen, which blanks it, then \`clear()\`). Returns
 * everything written, with "<frame>" after each screen's writes and "<clear>" after a clear's.
 */
const APP = `
import { render, Box, Text } from "ink";
import { createElement as h } from "react";
export async function frames(screens, incrementalRendering = false) {
	let written = "";
	const stdout = { columns: 40, rows: 12, isTTY: true, write: (s) => { written += s; return true; }, on() {}, off() {}, removeListener() {} };
	const view = (screen) => h(Box, { flexDirection: "row", height: screen.height ?? 10 },
		h(Box, { flexDirection: "column", width: 28 }, (screen.rows ?? screen).map((r, i) => {
			const text = h(Text, { key: i, color: r.color, bold: r.bold, backgroundColor: r.bg, inverse: r.inverse }, r.text);
			const tail = r.tail && h(Text, { color: r.tail.color }, r.tail.text);
			return r.width ? h(Box, { key: i, width: r.width }, text, tail) : text;
		})),
		h(Box, { borderStyle: "single", borderTop: false, borderBottom: false, borderRight: false }, h(Text, { dimColor: true }, "side")));
	const app = render(view(screens[0]), { stdout, patchConsole: false, exitOnCtrlC: false, maxFps: 1000, incrementalRendering });
	written += "<frame>";
	for (const screen of screens.slice(1)) {
		if (screen === "clear") { stdout.write("\\x1b[?1049l\\x1b[?1049h\\x1b[H"); app.clear(); written += "<clear>"; continue; }
		app.rerender(view(screen)); await new Promise((r) => setTimeout(r, 5)); written += "<frame>";
	}
	app.unmount();
	return written;
}`;

/**
 * An app shaped like gar's screen on the same terminal (40×12 unless a screen resizes it), whose parts React redraws
 * only when their props change (memo), as gar's do: so most of Ink's tree is unchanged from frame to frame, and the
 * patched Ink draws it from what changed (the frames patch). A screen: lines written once above the app (<Static>);
 * a status line; a chat viewport (`height` rows, overflow hidden) of rows `{ key, text, color?, bold?, transform? }`
 * moved up by `scroll`; beside it a side box (a left border, overflow hidden, `sideWidth` wide, or `sideHidden`:
 * display none) of lines; a dialog or none, in the column or laid `overlay` over the chat (drawn over its rows); the
 * input row (a prompt, its text, a hint or none); `columns`: the terminal resized to that width first. `calls()`
 * counts the calls of the rows' transforms (Ink calls a transform each time it builds a row with its text). Each
 * screen is set as the state of the app's root, as gar's state changes: `rerender` would draw every Text again
 * (Ink's App gives its contexts new values). Drawn in Ink's debug mode, where each frame is drawn at once and written
 * whole: what the frames patch changes is the frame, so stock Ink's and the patched Ink's must be the same bytes,
 * with no timer between a change and its frame to make a comparison flaky. (How the incremental writer draws a
 * frame, which the frames patch does not change, is checked with APP above.)
 */
const PANES_APP = `
import { render, Box, Text, Static, Transform } from "ink";
import { createElement as h, memo, useState } from "react";
let transformed = 0;
const TRANSFORMS = { leet: (s) => (transformed++, s.replaceAll("e", "3")), at: (s) => (transformed++, s.replaceAll("a", "@")) };
export const calls = () => transformed;
const Line = memo(function Line({ text, color, bold, transform }) {
	const line = h(Text, { color, bold, wrap: "truncate-end" }, text);
	return transform ? h(Transform, { transform: TRANSFORMS[transform] }, line) : line;
});
const Side = memo(function Side({ lines, width, hidden }) {
	return h(Box, { flexDirection: "column", width, display: hidden ? "none" : "flex", paddingLeft: 1, overflow: "hidden",
		borderStyle: "single", borderTop: false, borderBottom: false, borderRight: false },
		lines.map((text, i) => h(Line, { key: i, text, color: i === 0 ? "cyan" : undefined })));
});
const Chat = memo(function Chat({ rows, height, scroll }) {
	return h(Box, { flexDirection: "column", flexGrow: 1, height, overflow: "hidden" },
		h(Box, { flexDirection: "column", flexShrink: 0, marginTop: -scroll }, rows.map((r) => h(Line, { ...r }))));
});
const Dialog = memo(function Dialog({ title, text, overlay }) {
	const place = overlay ? { position: "absolute", marginTop: 2, marginLeft: 3, width: 22 } : {};
	return h(Box, { borderStyle: "round", borderColor: "yellow", flexDirection: "column", ...place },
		h(Text, { bold: true, wrap: "truncate-end" }, title), h(Text, { wrap: "truncate-end" }, text));
});
const Input = memo(function Input({ text, hint }) {
	return h(Box, {}, h(Text, { color: "magenta" }, "› "),
		h(Box, { flexGrow: 1 }, h(Text, { wrap: "truncate-end" }, text, h(Text, { inverse: true }, " "))),
		hint ? h(Text, { dimColor: true }, " " + hint) : null);
});
const Status = memo(function Status({ text }) { return h(Text, { inverse: true, wrap: "truncate-end" }, text); });
const view = (s) => h(Box, { flexDirection: "column" },
	h(Static, { items: s.logged }, (item) => h(Text, { key: item, color: "green" }, item)),
	h(Status, { text: s.status }),
	h(Box, {}, h(Chat, { rows: s.chat, height: s.height, scroll: s.scroll }),
		s.sideWidth ? h(Side, { lines: s.side, width: s.sideWidth, hidden: s.sideHidden }) : null),
	s.dialog && !s.dialog.overlay ? h(Dialog, s.dialog) : null,
	h(Input, { text: s.input, hint: s.hint }),
	s.dialog?.overlay ? h(Dialog, s.dialog) : null);
export async function frames(screens) {
	let written = "";
	const resized = new Set();
	const stdout = { columns: 40, rows: 12, isTTY: true, write: (s) => { written += s; return true; },
		on(event, f) { if (event === "resize") resized.add(f); }, off(event, f) { resized.delete(f); },
		removeListener(event, f) { resized.delete(f); } };
	let show;
	const Root = () => { const [screen, set] = useState(screens[0]); show = set; return view(screen); };
	const app = render(h(Root), { stdout, patchConsole: false, exitOnCtrlC: false, debug: true });
	written += "<frame>";
	for (const screen of screens.slice(1)) {
		if (screen.columns && screen.columns !== stdout.columns) {
			stdout.columns = screen.columns;
			for (const f of resized) f();
		}
		// Until the frame is written: React renders in slices of 5 ms, so on a busy machine a frame may take several
		// ticks, and a marker put after one tick would land inside it (in one build and not the other).
		const before = written.length;
		show(screen);
		for (let t = 0; t < 1000 && written.length === before; t++) await new Promise((r) => setImmediate(r));
		written += "<frame>";
	}
	app.unmount();
	return written;
}`;

/**
 * A one-line field that appends each key Ink hands its useInput handler, on a fake terminal, at the app's 30 frames
 * a second. `typed(keys)` pushes the keys one at a time, each right after the last one's frame, and says for each
 * whether the frame showing it was written before the next turn of the event loop (the throttle's wait is 34 ms).
 */
const INPUT_APP = `
import { render, Text, useInput } from "ink";
import { EventEmitter } from "node:events";
import { createElement as h, useState } from "react";
export async function typed(keys) {
	let written = "";
	const stdout = { columns: 40, rows: 12, isTTY: true, write: (s) => { written += s; return true; }, on() {}, off() {}, removeListener() {} };
	const chunks = [];
	const stdin = Object.assign(new EventEmitter(), { isTTY: true, setRawMode() {}, setEncoding() {}, ref() {}, unref() {},
		read: () => chunks.shift() ?? null });
	const Field = () => {
		const [text, set] = useState("");
		useInput((input) => set((before) => before + input));
		return h(Text, {}, "> " + text + "|");
	};
	const app = render(h(Field), { stdout, stdin, patchConsole: false, exitOnCtrlC: false, maxFps: 30, incrementalRendering: true });
	while (stdin.listenerCount("readable") === 0) await new Promise((r) => setTimeout(r, 5)); // useInput is listening
	const shown = [];
	let text = "";
	for (const key of keys) {
		text += key;
		chunks.push(key);
		stdin.emit("readable");
		await new Promise((r) => setImmediate(r));
		shown.push(written.replace(/\\u001b\\[[0-9;?]*[A-Za-z]/g, "").includes("> " + text + "|"));
	}
	app.unmount();
	return shown;
}`;

/**
 * A line drawn from a value outside React (as gar's store is), at the app's 30 frames a second. `shown(updates)` sets
 * the value to each `[text, now]` in turn, through Ink's `drawNow` when `now`, and says for each whether its frame was
 * written before the next turn of the event loop.
 */
const DRAW_NOW_APP = `
import { drawNow, render, Text } from "ink";
import { createElement as h, useSyncExternalStore } from "react";
export async function shown(updates) {
	let written = "";
	const stdout = { columns: 40, rows: 12, isTTY: true, write: (s) => { written += s; return true; }, on() {}, off() {}, removeListener() {} };
	let value = "";
	const listeners = new Set();
	const subscribe = (listener) => { listeners.add(listener); return () => listeners.delete(listener); };
	const Line = () => h(Text, {}, "> " + useSyncExternalStore(subscribe, () => value) + "|");
	const app = render(h(Line), { stdout, patchConsole: false, exitOnCtrlC: false, maxFps: 30, incrementalRendering: true });
	await new Promise((r) => setTimeout(r, 50));
	const seen = [];
	for (const [text, now] of updates) {
		const update = () => { value = text; for (const listener of listeners) listener(); };
		if (now) drawNow(update); else update();
		await new Promise((r) => setImmediate(r));
		seen.push(written.replace(/\\u001b\\[[0-9;?]*[A-Za-z]/g, "").includes("> " + text + "|"));
	}
	app.unmount();
	return seen;
}`;

/** An app that lists the keys its input handler gets for each read (`reads`): "Esc", "^c" (Ctrl+C) or the text. */
const KEYS_APP = `
import { render, Text, useInput } from "ink";
import { EventEmitter } from "node:events";
import { createElement as h } from "react";
export async function keys(reads) {
	const stdout = { columns: 40, rows: 12, isTTY: true, write: () => true, on() {}, off() {}, removeListener() {} };
	const chunks = [];
	const stdin = Object.assign(new EventEmitter(), { isTTY: true, setRawMode() {}, setEncoding() {}, ref() {}, unref() {},
		read: () => chunks.shift() ?? null });
	const got = [];
	const Field = () => {
		useInput((input, key) => got.push(key.escape ? "Esc" : key.ctrl ? "^" + input : input));
		return h(Text, {}, "keys");
	};
	const app = render(h(Field), { stdout, stdin, patchConsole: false, exitOnCtrlC: false });
	while (stdin.listenerCount("readable") === 0) await new Promise((r) => setTimeout(r, 5)); // useInput is listening
	for (const read of reads) {
		chunks.push(read);
		stdin.emit("readable");
		await new Promise((r) => setTimeout(r, 5)); // a lone Esc is handed on a tick later (it may start a sequence)
	}
	app.unmount();
	return got;
}`;

type Frames = (screens: unknown[], incremental?: boolean) => Promise<string>;

/** Bundles APP; `ci` is the CI variable while the bundle loads (Ink reads it once, at import). */
async function bundle(name: string, patched: boolean, ci: string): Promise<Frames> {
	return (await bundleApp(name, patched, ci, APP)).frames;
}

/** Bundles the app `source` and loads it (`calls`: PANES_APP's count of transform calls). */
async function bundleApp(
	name: string,
	patched: boolean,
	ci: string,
	source: string,
): Promise<{ frames: Frames; calls: () => number }> {
	const entry = join(dir, `${name}-entry.mjs`);
	writeFileSync(entry, source);
	const outfile = join(dir, `${name}.mjs`);
	await bundleTestApp(entry, outfile, patched);
	vi.stubEnv("CI", ci);
	vi.stubEnv("CONTINUOUS_INTEGRATION", "false");
	vi.stubEnv("FORCE_COLOR", "3"); // chalk would otherwise see no terminal here and write no styles at all
	return await import(pathToFileURL(outfile).href);
}

/** What the terminal shows after each frame of `written` (the app's screen, styles per cell, and the cursor). */
function screensOf(written: string, options: ScreenOptions = {}): string[][] {
	const terminal = new TerminalScreen(40, 12, options);
	terminal.write("\u001b[?1049h\u001b[H"); // the app draws on the alternate screen, from its top
	const shown: string[][] = [];
	for (const part of written.split(/(<frame>|<clear>)/)) {
		if (part === "<frame>") shown.push(terminal.snapshot());
		else if (part !== "<clear>") terminal.write(part);
	}
	return shown;
}

/** A row's styles; with `width` a box of that width holds it, and `tail` after it as a text of its own. */
type Style = {
	color?: string;
	bold?: boolean;
	width?: number;
	bg?: string;
	inverse?: boolean;
	tail?: { text: string; color?: string };
};
const row = (text: string, style: Style = {}) => ({ text, ...style });
const SCREENS = [
	[row("hello", { color: "green" }), row("中文 and emoji 👍"), row("plain")],
	[row("hello", { color: "green" }), row("中文 and emoji 👍"), row("plain, typed")],
	[row("hello", { color: "red" }), row("中文 and emoji 👍"), row("plain, typed")],
	[row("hello", { color: "green" }), row("中文 and emoji 👍", { bold: true }), row("plain")],
	[row("hello", { color: "green" }), row("中文 and emoji 👍"), row("plain")],
	[row("a much longer line that wraps inside its box of 28 columns")],
];

const WIDE = row("中文 and emoji 👍");
const FIRST = [row("hello", { color: "green" }), WIDE, row("plain")];
/** Three rows, the first to the screen's last column, where a text of its own, styled, ends it with `last`. */
const edge = (last: string) => ({
	rows: [row("to the last column ".padEnd(39, "."), { width: 40, tail: { text: last, color: "yellow" } }), row("中文")],
	height: 3,
});
/** The frames the app's writer is checked on ("clear" as in APP): each changes the one before it as its comment says. */
const SCRIPT = [
	FIRST,
	[FIRST[0], WIDE, row("plain, typed")], // one row's text
	[row("hello", { color: "red" }), WIDE, row("plain, typed")], // only a style
	[FIRST[0], row("中文 and emoji 👍", { bold: true }), row("plain")], // a style on wide characters; a row back
	FIRST, // every row back as it was
	{
		rows: [row("a中文b"), row("中a文"), row(" on blue ", { bg: "blue" }), row("a", { inverse: true }), WIDE],
		height: 11, // taller, to the app's height (rows − 1); wide characters a column further; a background
	},
	{ rows: [row("中文b"), row("a中文"), row(" on blue ", { bg: "blue" }), row("b", { inverse: true })], height: 4 },
	{ rows: [row("one row")], height: 1 }, // shorter, twice
	edge("y"), // a row to the last column
	edge("z"), // only its last cell
	"clear",
	edge("z"), // nothing: the same frame, after a clear
	[row("key", { color: "blue", width: 28, tail: { text: "value", color: "green" } })], // two styles side by side
	[row("key", { color: "blue", width: 28, tail: { text: "value", color: "red" } })], // only the second one
	FIRST, // taller again
	"clear",
	[row("a much longer line that wraps inside its box of 28 columns")], // every row, after a clear
	FIRST,
];

type PaneRow = { key: number; text: string; color?: string; bold?: boolean; transform?: "leet" | "at" };
type PaneDialog = { title: string; text: string; overlay: boolean };
type PaneScreen = {
	logged: string[];
	status: string;
	chat: PaneRow[];
	height: number;
	scroll: number;
	side: string[];
	sideWidth: number;
	sideHidden: boolean;
	dialog: PaneDialog | null;
	input: string;
	hint: string;
	columns?: number;
};

/** PANES_APP's first screen: six chat rows in a viewport of five, a side box, no dialog, an empty input. */
function firstPane(text: (i: number) => string): PaneScreen {
	return {
		logged: [],
		status: "gar · model",
		chat: Array.from({ length: 6 }, (_, i) => ({ key: i, text: text(i), transform: i === 1 ? "at" : undefined })),
		height: 5,
		scroll: 0,
		side: ["state idle", "turn 1", "tokens 12k"],
		sideWidth: 14,
		sideHidden: false,
		dialog: null,
		input: "",
		hint: "Enter send",
	};
}

/**
 * A run of PANES_APP screens, each one or two small changes to the one before, as an app's frames come: a chat row's
 * text, style or transform; a row added, taken away or two rows swapped (the rows after move); the viewport scrolled
 * or made taller or shorter (the same rows, clipped otherwise); the input typed into or erased, the hint coming and
 * going; a dialog opening in the column (the rows below move) or over the chat, changing, closing; the side box's
 * lines, width or display; a line written above (<Static>); with `resize`, the terminal 36 to 44 columns wide.
 * Seeded, so a failure names a frame that can be seen again.
 */
function paneScript(seed: number, count: number, resize = false): PaneScreen[] {
	let state = seed;
	const next = (n: number) => {
		state = (Math.imul(state, 1103515245) + 12345) >>> 0;
		return (state >>> 8) % n;
	};
	const words = ["alpha", "beta", "中文", "gamma", "👍", "delta", "a much longer row that runs past the chat's width"];
	const pick = <T>(list: readonly T[]): T => list[next(list.length)] as T;
	const text = () => `${pick(words)} ${pick(words)}`;
	let key = 6;
	let screen = firstPane(text);
	const screens = [screen];
	for (let i = 1; i < count; i++) {
		const s: PaneScreen = { ...screen, chat: [...screen.chat], side: [...screen.side] };
		for (let change = 0; change < 1 + next(2); change++) {
			const at = next(s.chat.length);
			const row = s.chat[at];
			switch (next(16)) {
				case 0:
					if (row) s.chat[at] = { ...row, text: text() };
					break;
				case 1:
					if (row) s.chat[at] = { ...row, color: pick([undefined, "green", "red"]), bold: next(2) === 1 };
					break;
				case 2:
					if (row) s.chat[at] = { ...row, transform: pick([undefined, "leet", "at"] as const) };
					break;
				case 3:
					s.chat.push({ key: key++, text: text() });
					if (s.chat.length > 9) s.chat.shift();
					break;
				case 4:
					if (s.chat.length > 1) s.chat.splice(at, 1);
					break;
				case 5: {
					const other = next(s.chat.length);
					[s.chat[at], s.chat[other]] = [s.chat[other] as PaneRow, s.chat[at] as PaneRow];
					break;
				}
				case 6:
					s.scroll = next(Math.max(1, s.chat.length - 1));
					break;
				case 7:
					s.height = 2 + next(5);
					break;
				case 8:
					s.input = `${s.input}${pick(["a", "b", "c", "中", " "])}`;
					break;
				case 9:
					s.input = s.input.slice(0, -1);
					break;
				case 10:
					s.hint = s.hint ? "" : pick(["Enter send", "Enter steer"]);
					break;
				case 11:
					s.dialog = s.dialog && next(2) ? null : { title: `Allow bash? ${i}`, text: text(), overlay: next(2) === 1 };
					break;
				case 12:
					s.side[next(s.side.length)] = `tokens ${next(100)}k 中`;
					break;
				case 13:
					if (next(2)) s.sideHidden = !s.sideHidden;
					else s.sideWidth = pick([0, 10, 14, 18]);
					break;
				case 14:
					s.logged = [...s.logged, `logged ${i}`];
					break;
				default:
					s.status = `gar · model · ${i}`;
			}
			if (resize && next(8) === 0) s.columns = pick([36, 40, 44]);
		}
		screens.push(s);
		screen = s;
	}
	return screens;
}

describe("the build's Ink patches", () => {
	let stock: Frames;
	let patched: Frames;
	let stockPanes: { frames: Frames; calls: () => number };
	let patchedPanes: { frames: Frames; calls: () => number };
	beforeAll(async () => {
		// The patched bundle loads with CI=true: stock Ink would then draw only the last frame, at exit.
		stock = await bundle("stock", false, "false");
		patched = await bundle("patched", true, "true");
		stockPanes = await bundleApp("stock-panes", false, "false", PANES_APP);
		patchedPanes = await bundleApp("patched-panes", true, "true", PANES_APP);
		vi.unstubAllEnvs();
	});
	afterEach(() => vi.unstubAllEnvs());

	it("write the same frames as stock Ink (styles, wide characters, rows that change and change back)", async () => {
		const expected = await stock(SCREENS);
		expect(expected).toContain("中文");
		expect(expected).toContain("\u001b[32mhello"); // green, as the app asked
		expect(await patched(SCREENS)).toBe(expected);
	});

	it("draw every row of the frame after a clear (the screen was wiped: Ctrl+Z and fg, Ctrl+G), then only changes", async () => {
		const first = SCREENS[0] as unknown[];
		const written = await patched([first, first, "clear", first, SCREENS[1]], true);
		const [beforeClear, afterClear] = written.split("<clear>") as [string, string];
		const [same, next] = afterClear.split("<frame>") as [string, string];
		// Unchanged, the screen is not written again; after a clear the same screen is written whole.
		expect(beforeClear.split("<frame>")[1]).toBe("");
		expect(same).not.toBe("");
		for (const text of ["hello", "中文 and emoji 👍", "plain", "side"]) expect(same).toContain(text);
		// The frame after that is incremental again: only its changed row.
		expect(next).toContain("plain, typed");
		expect(next).not.toContain("hello");
	});

	it("draw each character in the form it was measured as, in as many cells, and no row past the screen's width", async () => {
		const screen = [
			row("zero\u200bwidth\u200bspaces"),
			row("⚠️ \u115f 👍🏽 \u3164 x"),
			row("한 क्षि 👨‍👩‍👧 y"),
			row("z".repeat(50), { width: 50 }),
		];
		const written = await patched([screen]);
		const rows = stripAnsi(written.split("<frame>")[0] ?? "").split("\n");
		// The side box's border stays in its column: each row takes exactly the columns the layout gave it.
		for (const shown of rows.slice(0, 3)) expect(stringWidth(shown.slice(0, shown.indexOf("│")))).toBe(28);
		expect(rows[1]).toContain("⚠ ⟨U+115F⟩ 👍 ⟨U+3164⟩ x");
		expect(rows[2]).toContain("한 क्षि 👨👩👧 y");
		expect(rows[3]).toMatch(/^z+/);
		for (const shown of rows) expect(stringWidth(shown)).toBeLessThanOrEqual(40);
	});

	it("wrap a text at its own width, never as another text whose cache key reads the same", async () => {
		// Stock Ink keys its wrap cache by text + width + wrap type, unseparated: "abcdefghijklm" at 12 and
		// "abcdefghijklm1" at 2 both read "abcdefghijklm12wrap", so the second was drawn as the first's wrapping.
		const written = await patched([[row("abcdefghijklm", { width: 12 }), row("abcdefghijklm1", { width: 2 })]]);
		const rows = stripAnsi(written.split("<frame>")[0] ?? "")
			.split("\n")
			.map((shown) => shown.slice(0, shown.indexOf("│")).trimEnd());
		expect(rows.slice(0, 9)).toEqual(["abcdefghijkl", "m", "ab", "cd", "ef", "gh", "ij", "kl", "m1"]);
	});

	it("show the same screens drawn incrementally, as the app draws, as stock Ink drawing each frame whole", async () => {
		// Stock Ink's clear() is what the patch fixes, so its frames are drawn without the clears: what a clear
		// followed by a frame must show is that frame.
		const whole = await stock(SCRIPT.filter((screen) => screen !== "clear"));
		const written = await patched(SCRIPT, true);
		expect(written).toContain("\u001b[E"); // an unchanged row skipped: the incremental writer is the one at work
		// In both kinds of terminal: those that keep a row's last column when an erase follows it, and those that
		// erase it (xterm, urxvt, st, macOS Terminal), where a row written to the last column must not be erased after.
		for (const pendingWrap of ["past", "at"] as const) {
			const expected = screensOf(whole, { pendingWrap });
			const shown = screensOf(written, { pendingWrap });
			expect(shown).toHaveLength(expected.length);
			for (const [i, screen] of shown.entries()) expect(screen, `${pendingWrap}, frame ${i}`).toEqual(expected[i]);
		}
		const expected = screensOf(whole);
		// What is compared: styles per cell, wide characters, the last column, the cursor below the frame.
		expect(expected[0]?.[0]).toBe("⟦fg=32⟧hello⟦⟧                       │⟦dim⟧side⟦⟧");
		expect(expected[5]?.[2]).toContain("⟦bg=44⟧ on blue ⟦⟧");
		expect(expected[9]?.[0]).toMatch(/\.⟦fg=33⟧z⟦⟧$/);
		expect(expected[0]?.at(-1)).toBe("cursor 10,0 hidden");
	});

	it("show screens that stock Ink's incremental writer gets wrong (so the comparison above can fail)", async () => {
		const expected = screensOf(await stock(SCRIPT.slice(0, 2)));
		const shown = screensOf(await stock(SCRIPT.slice(0, 2), true));
		expect(shown[0]).toEqual(expected[0]); // the first frame is written whole
		// The next lands a row low: the bug of Ink 6.8 that the log-update patch fixes (#910). An Ink that fixes it
		// fails this line: then that patch and this test go.
		expect(shown[1]).not.toEqual(expected[1]);
	});

	it("show characters in their terminal form alike drawn incrementally and whole (zero-width, stand-ins, cut rows)", async () => {
		// Stock Ink draws these otherwise (that is what the fixes are for), so the patched whole-frame writer, which
		// the first test ties to stock Ink, is what the incremental one is compared with here.
		const forms = [
			row("zero\u200bwidth\u200bspaces"),
			row("⚠️ \u115f 👍🏽 \u3164 x"),
			row("한 क्षि 👨‍👩‍👧 y"),
			row("z".repeat(50), { width: 50 }),
		];
		const changed = [
			row("zero\u200bwidth\u200bspace"),
			forms[1],
			row("한 क्षि 👨‍👩‍👧 y", { color: "red" }),
			row(`${"z".repeat(39)}y${"z".repeat(10)}`, { width: 50 }),
		];
		const script = [forms, changed, forms, { rows: forms.slice(1, 3), height: 2 }, forms];
		const [whole, written] = [await patched(script), await patched(script, true)];
		for (const pendingWrap of ["past", "at"] as const) {
			expect(screensOf(written, { pendingWrap })).toEqual(screensOf(whole, { pendingWrap }));
		}
		const shown = screensOf(whole);
		expect(shown[0]?.[1]).toContain("⚠ ⟨U+115F⟩ 👍 ⟨U+3164⟩ x");
		expect(shown[1]?.[3]).toMatch(/y$/);
	});

	it("draw from what changed the same frames as stock Ink draws whole (rows that change, move, come and go)", async () => {
		// PANES_APP's parts redraw only when their props change, so most of each frame is nodes that did not change:
		// the patched Ink reuses their writes and rebuilds only the rows that changed. Byte for byte stock Ink's frames.
		for (const seed of [1, 2, 3, 4]) {
			const script = paneScript(seed, 100);
			expect(await patchedPanes.frames(script), `seed ${seed}`).toBe(await stockPanes.frames(script));
		}
	});

	it("draw from what changed the same frames as stock Ink when the terminal is resized between them", async () => {
		for (const seed of [4, 5]) {
			const script = paneScript(seed, 80, true);
			expect(script.some((screen) => screen.columns === 36)).toBe(true);
			expect(await patchedPanes.frames(script), `seed ${seed}`).toBe(await stockPanes.frames(script));
		}
	});

	it("draw a row again when only its clip changed (a viewport made shorter: the row it no longer shows is blank)", async () => {
		const first = firstPane((i) => `row ${i}`);
		const script = [first, { ...first, height: 3 }, { ...first, height: 4 }, { ...first, height: 2, scroll: 1 }];
		const whole = await stockPanes.frames(script);
		expect(await patchedPanes.frames(script)).toBe(whole);
		const shown = stripAnsi(whole).split("<frame>");
		expect(shown[0]).toContain("row 3");
		expect(shown[1]).not.toContain("row 3");
		expect(shown[3]).toContain("row 2");
	});

	it("build only the rows a frame changed: a key rebuilds the input row, not the chat's (the frames patch at work)", async () => {
		// Ink calls a row's transform each time it builds that row; the chat's second row has one ("at": a → @).
		const first = firstPane((i) => `row ${i} at`);
		const script = ["h", "hi", "hi!", "hi"].map((input) => ({ ...first, input }));
		const keys = async (app: { frames: Frames; calls: () => number }) => {
			await app.frames([first]);
			const before = app.calls();
			const written = await app.frames([first, ...script]);
			return { written, calls: app.calls() - before };
		};
		const [stock, patched] = [await keys(stockPanes), await keys(patchedPanes)];
		expect(patched.written).toBe(stock.written);
		expect(stripAnsi(patched.written)).toContain("row 1 @t");
		expect(stock.calls).toBeGreaterThan(2); // stock Ink builds the row again for the keys' frames
		expect(patched.calls).toBe(1); // the first frame only
	});

	it("make each Ctrl+C and each Esc a key of its own when several keys come in one read (two at once)", async () => {
		type Keys = { keys: (reads: string[]) => Promise<string[]> };
		const patched = (await bundleApp("patched-keys", true, "true", KEYS_APP)) as unknown as Keys;
		vi.unstubAllEnvs();
		const stock = (await bundleApp("stock-keys", false, "", KEYS_APP)) as unknown as Keys;
		vi.unstubAllEnvs();
		const reads = ["\x03\x03", "ab\x03c", "\x03", "\x1b\x1b", "\x1b\x1bx", "\x1b[A"];
		expect(await patched.keys(reads)).toEqual(["^c", "^c", "ab", "^c", "c", "^c", "Esc", "Esc", "Esc", "Esc", "x", ""]);
		// Stock Ink hands each doubled key on as one event: of four Ctrl+C one is seen, of four Esc two.
		const stockKeys = await stock.keys(reads);
		expect(stockKeys.filter((k) => k === "^c")).toEqual(["^c"]);
		expect(stockKeys.filter((k) => k === "Esc")).toEqual(["Esc", "Esc"]);
	});

	it("draw a key's frame at once, not when the frame throttle next allows (keys typed faster than 30 a second)", async () => {
		const { typed } = (await bundleApp("patched-input", true, "true", INPUT_APP)) as unknown as {
			typed: (keys: string[]) => Promise<boolean[]>;
		};
		vi.unstubAllEnvs();
		expect(await typed(["a", "b", "c", "d"])).toEqual([true, true, true, true]);
	});

	it("draw what drawNow commits at once, where a plain update waits for the frame throttle", async () => {
		const { shown } = (await bundleApp("patched-draw-now", true, "true", DRAW_NOW_APP)) as unknown as {
			shown: (updates: [string, boolean][]) => Promise<boolean[]>;
		};
		vi.unstubAllEnvs();
		// "a" is the first change in 50 ms (drawn at once); "b" comes within the throttle's 34 ms and waits; "c" and "d"
		// come as soon, through drawNow.
		const updates: [string, boolean][] = [
			["a", false],
			["b", false],
			["c", true],
			["d", true],
		];
		expect(await shown(updates)).toEqual([true, false, true, true]);
	});
});
