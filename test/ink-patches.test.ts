// The build's Ink patches (scripts/ink-patches.mjs) change how fast frames are made, not what they are: the same app
// and updates, bundled with and without them, write the same bytes to the terminal. The exceptions are fixes, each
// with its test below: the frame after a clear is drawn whole, and each character is drawn as it was measured.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import stripAnsi from "strip-ansi";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
// @ts-expect-error: a plain .mjs build script without type declarations
import { inkPatches } from "../scripts/ink-patches.mjs";
import stringWidth from "../src/term/string-width.js";

const dir = mkdtempSync(join(tmpdir(), "gar-ink-patches-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A tiny Ink app driven through a list of screens (or "clear": \`clear()\`); returns everything Ink wrote, with
 * "<frame>" after each screen's writes and "<clear>" after a clear's.
 */
const APP = `
import { render, Box, Text } from "ink";
import { createElement as h } from "react";
export async function frames(screens, incrementalRendering = false) {
	let written = "";
	const stdout = { columns: 40, rows: 12, isTTY: true, write: (s) => { written += s; return true; }, on() {}, off() {}, removeListener() {} };
	const view = (rows) => h(Box, { flexDirection: "row", height: 10 },
		h(Box, { flexDirection: "column", width: 28 }, rows.map((r, i) => {
			const text = h(Text, { key: i, color: r.color, bold: r.bold }, r.text);
			return r.width ? h(Box, { key: i, width: r.width }, text) : text;
		})),
		h(Box, { borderStyle: "single", borderTop: false, borderBottom: false, borderRight: false }, h(Text, { dimColor: true }, "side")));
	const app = render(view(screens[0]), { stdout, patchConsole: false, exitOnCtrlC: false, maxFps: 1000, incrementalRendering });
	written += "<frame>";
	for (const rows of screens.slice(1)) {
		if (rows === "clear") { app.clear(); written += "<clear>"; continue; }
		app.rerender(view(rows)); await new Promise((r) => setTimeout(r, 5)); written += "<frame>";
	}
	app.unmount();
	return written;
}`;

type Frames = (screens: unknown[], incremental?: boolean) => Promise<string>;

/** Bundles the app; `ci` is the CI variable while the bundle loads (Ink reads it once, at import). */
async function bundle(name: string, patched: boolean, ci: string): Promise<Frames> {
	const entry = join(dir, `${name}-entry.mjs`);
	writeFileSync(entry, APP);
	const outfile = join(dir, `${name}.mjs`);
	await build({
		entryPoints: [entry],
		outfile,
		absWorkingDir: process.cwd(),
		nodePaths: [join(process.cwd(), "node_modules")],
		bundle: true,
		format: "esm",
		platform: "node",
		logLevel: "silent",
		define: { "process.env.NODE_ENV": '"production"' },
		banner: { js: 'import { createRequire as __r } from "node:module"; const require = __r(import.meta.url);' },
		// Stock Ink still needs its devtools import stubbed to bundle (it is loaded only with DEV=true).
		...(patched
			? { plugins: [inkPatches] }
			: { alias: { "react-devtools-core": join(process.cwd(), "scripts/stubs/react-devtools-core.mjs") } }),
	});
	vi.stubEnv("CI", ci);
	vi.stubEnv("CONTINUOUS_INTEGRATION", "false");
	vi.stubEnv("FORCE_COLOR", "3"); // chalk would otherwise see no terminal here and write no styles at all
	return (await import(pathToFileURL(outfile).href)).frames;
}

const row = (text: string, style: { color?: string; bold?: boolean; width?: number } = {}) => ({ text, ...style });
const SCREENS = [
	[row("hello", { color: "green" }), row("中文 and emoji 👍"), row("plain")],
	[row("hello", { color: "green" }), row("中文 and emoji 👍"), row("plain, typed")],
	[row("hello", { color: "red" }), row("中文 and emoji 👍"), row("plain, typed")],
	[row("hello", { color: "green" }), row("中文 and emoji 👍", { bold: true }), row("plain")],
	[row("hello", { color: "green" }), row("中文 and emoji 👍"), row("plain")],
	[row("a much longer line that wraps inside its box of 28 columns")],
];

describe("the build's Ink patches", () => {
	afterEach(() => vi.unstubAllEnvs());

	it("write the same frames as stock Ink (styles, wide characters, rows that change and change back)", async () => {
		// The patched bundle loads with CI=true: stock Ink would then draw only the last frame, at exit.
		const stock = await bundle("stock", false, "false");
		const patched = await bundle("patched", true, "true");
		const expected = await stock(SCREENS);
		expect(expected).toContain("中文");
		expect(expected).toContain("\u001b[32mhello"); // green, as the app asked
		expect(await patched(SCREENS)).toBe(expected);
	});

	it("draw every row of the frame after a clear (the screen was wiped: Ctrl+Z and fg, Ctrl+G), then only changes", async () => {
		const patched = await bundle("patched-clear", true, "true");
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
		const patched = await bundle("patched-width", true, "true");
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
});
