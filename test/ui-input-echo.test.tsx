// A typed key's row is drawn at once, before its frame (src/ui/state/input-echo.ts): what the echo draws must be what
// the frame then draws, cell for cell, and it must draw nothing when the edit changes more than the cursor's row.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { type EchoPlace, echoRow } from "../src/ui/editor/echo.js";
import { InputEcho } from "../src/ui/state/input-echo.js";
import { InputModel } from "../src/ui/state/input-model.js";
import { bundleApp } from "./support/bundle-app.js";

const PLACE: EchoPlace = { origin: () => ({ x: 0, y: 20 }), width: 40, textWidth: 24, prompt: 2, hint: 11 };

describe("echoRow", () => {
	it("draws the row's text at its place with the cursor inverse and blanks to the hint, cursor and attributes kept", () => {
		const bytes = echoRow(PLACE, { x: 0, y: 20 }, 0, "hello", 2);
		expect(bytes).toBe(`\x1b7\x1b[21;3H\x1b[0mhe\x1b[7ml\x1b[27mlo${" ".repeat(40 - 2 - 11 - 5)}\x1b8`);
	});

	it("draws the cursor past the end as an inverse blank, and a later row to the box's edge (no hint there)", () => {
		const bytes = echoRow(PLACE, { x: 0, y: 20 }, 2, "ab", 2) ?? "";
		expect(bytes).toContain("\x1b[23;3H");
		expect(bytes).toContain(`ab\x1b[7m \x1b[27m${" ".repeat(40 - 2 - 3)}\x1b8`);
		expect(echoRow(PLACE, { x: 0, y: 20 }, 1, "ab", -1)).toContain(`ab${" ".repeat(36)}\x1b8`);
	});

	it("draws nothing for a row that is not plain ASCII (Ink measures wide and combining characters, tabs)", () => {
		for (const text of ["日本", "e\u0301", "a\tb", "\u{F0001}", "\x1b[31m"])
			expect(echoRow(PLACE, { x: 0, y: 0 }, 0, text, 0)).toBeNull();
	});
});

/** A model whose echo writes into `written`, laid out as PLACE says. */
function echoed() {
	const written: string[] = [];
	const model = new InputModel();
	model.width = PLACE.textWidth;
	const echo = new InputEcho((bytes) => written.push(bytes));
	echo.place = PLACE;
	model.echo = echo;
	return { model, written };
}

describe("InputEcho", () => {
	it("draws the cursor's row for a typed key and for Backspace", () => {
		const { model, written } = echoed();
		model.insert("hi");
		model.backspace();
		expect(written).toHaveLength(2);
		expect(written[0]).toContain("hi\x1b[7m \x1b[27m");
		expect(written[1]).toContain("h\x1b[7m \x1b[27m");
	});

	it("draws nothing when the edit adds a row, opens the completion popup, clears a note or is not typing", () => {
		const { model, written } = echoed();
		model.insert("x".repeat(PLACE.textWidth)); // the cursor's blank wraps to a second row
		model.insert("y");
		model.set("");
		model.completer = (text) => ({ from: 0, items: [{ value: `${text}x`, description: "" }] });
		model.insert("/");
		model.set("abc");
		model.note = "a file is gone";
		model.insert("d");
		model.set("abc");
		model.paste("pasted");
		model.deleteWordLeft();
		const drawn = written.length;
		expect(drawn).toBe(1); // only "y", on the row the first insert made
		model.startSearch();
		model.insert("z");
		expect(written).toHaveLength(drawn);
	});

	it("draws nothing when the editor is not on the screen or wraps at another width than it was drawn at", () => {
		const { model, written } = echoed();
		(model.echo as InputEcho).place = null;
		model.insert("a");
		(model.echo as InputEcho).place = PLACE;
		model.width = PLACE.textWidth + 5;
		model.insert("b");
		expect(written).toEqual([]);
	});
});

/** test/support/echo-app.tsx bundled with the build's Ink patches (the app's Ink), loaded once. */
async function echoApp(): Promise<typeof import("./support/echo-app.js")> {
	const dir = mkdtempSync(join(tmpdir(), "gar-echo-"));
	const outfile = join(dir, "echo-app.mjs");
	try {
		await bundleApp(join(process.cwd(), "test/support/echo-app.tsx"), outfile, true);
		// Styles on, as in a terminal (chalk reads this once, when the bundle loads): the cursor is drawn inverse.
		const force = process.env.FORCE_COLOR;
		process.env.FORCE_COLOR = "2";
		try {
			return await import(pathToFileURL(outfile).href);
		} finally {
			if (force === undefined) delete process.env.FORCE_COLOR;
			else process.env.FORCE_COLOR = force;
		}
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

describe("the echo in the app (the build's Ink)", () => {
	it("draws the row the key's frame then draws, cell for cell, before that frame", async () => {
		const { typeKeys } = await echoApp();
		// Typing, ← and a key in the middle of the text, Backspace, →, Home and End, and a run of keys long enough to
		// wrap (the key that wraps is left to the frame).
		const keys = [
			"a",
			"b",
			"c",
			"\x1b[D",
			"X",
			"\x7f",
			"\x1b[C",
			"\x1b[H",
			"\x1b[F",
			..." the quick brown fox jumps over the lazy dog".split(""),
		];
		const typed = await typeKeys(keys);
		const echoed = typed.keys.filter((key) => key.echo !== null);
		for (const key of echoed)
			expect({ key: key.key, screen: key.afterEcho }).toEqual({ key: key.key, screen: key.afterFrame });
		expect(typed.lines.some((line) => line.includes("› abc the quick brown fox"))).toBe(true);
		expect(echoed.map((key) => key.key)).toEqual(
			expect.arrayContaining(["a", "X", "\x7f", "\x1b[D", "\x1b[C", "\x1b[H"]),
		);
		const drawnByFrame = typed.keys.filter((key) => key.echo === null);
		expect(drawnByFrame.length).toBeGreaterThan(0);
		expect(drawnByFrame.length).toBeLessThan(4);
	}, 30_000);
});
