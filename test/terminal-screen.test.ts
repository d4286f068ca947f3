// The test terminal (test/support/terminal-screen.ts) that the Ink patch tests read frames with: cursor moves, erases,
// wide characters, styles per cell, the pending wrap, scrolling and the alternate screen, as tmux does them.
import { describe, expect, it } from "vitest";
import { TerminalScreen } from "./support/terminal-screen.js";

const screen = (columns = 10, rows = 4) => new TerminalScreen(columns, rows);

describe("the test terminal", () => {
	it("moves the cursor and erases as Ink's writers expect", () => {
		const term = screen();
		term.write("first\nsecond\nthird");
		expect(term.lines()).toEqual(["first", "second", "third", ""]);
		// Up one, to column 1 (ESC[G), overwrite, erase the rest of the row; ESC[0A moves one row, as terminals do.
		term.write("\u001b[1A\u001b[GSEC\u001b[K\u001b[0A\u001b[3G!");
		expect(term.lines()).toEqual(["fi!st", "SEC", "third", ""]);
		// ESC[2E: two rows down, at their start; ESC[J: everything from the cursor down; ESC[2K the whole row.
		term.write("\u001b[2E\u001b[2Kx\u001b[E\u001b[J");
		expect(term.lines()).toEqual(["fi!st", "SEC", "x", ""]);
		expect(term.snapshot().at(-1)).toBe("cursor 3,0");
		// Ink's eraseLines(2): erase a row, up one, erase, then back to the row's start.
		term.write("\u001b[2K\u001b[1A\u001b[2K\u001b[G");
		expect(term.lines()).toEqual(["fi!st", "SEC", "", ""]);
		expect(term.snapshot().at(-1)).toBe("cursor 2,0");
	});

	it("gives a wide character two cells, blanks one cut in half, and joins a zero-width one to the cell before", () => {
		const term = screen();
		term.write("中文ab\n");
		expect(term.lines()[0]).toBe("中文ab");
		term.write("\u001b[1A\u001b[2Gx"); // onto the second half of 中
		expect(term.lines()[0]).toBe(" x文ab");
		term.write("\u001b[3Gy"); // onto the first half of 文
		expect(term.lines()[0]).toBe(" xy ab");
		term.write("\r\u001b[1Be\u0301\u200b!");
		expect(term.lines()[1]).toBe("e\u0301\u200b!");
		expect(term.snapshot().at(-1)).toBe("cursor 1,2");
	});

	it("keeps a style per cell: set and cleared per attribute, colours of every kind, erases in the background colour", () => {
		const term = screen(12, 2);
		term.write("\u001b[32mgreen\u001b[39m \u001b[1;2mbd\u001b[22mn\u001b[38;2;1;2;3mrgb\u001b[0m");
		expect(term.snapshot()[0]).toBe("⟦fg=32⟧green⟦⟧ ⟦bold dim⟧bd⟦⟧n⟦fg=2;1;2;3⟧rgb⟦⟧");
		term.write("\r\n\u001b[48;5;4mab\u001b[K\u001b[49m");
		expect(term.snapshot()[1]).toBe("⟦bg=5;4⟧ab          ⟦⟧");
		expect(term.lines()[1]).toBe("ab");
	});

	it("erases the last column from a pending wrap where terminals wait at it (xterm, urxvt, st, macOS Terminal)", () => {
		const term = new TerminalScreen(4, 2, { pendingWrap: "at" });
		term.write("abcd\u001b[K");
		expect(term.lines()).toEqual(["abc", ""]);
		term.write("\rwxyz\u001b[J");
		expect(term.lines()).toEqual(["wxy", ""]);
		term.write("\r\n1234\r\n");
		expect(term.lines()).toEqual(["1234", ""]); // the wrap itself is the same: the row below, then a scroll
	});

	it("holds a wrap after the last column (an erase there erases nothing) and scrolls at the bottom", () => {
		const term = screen(4, 2);
		term.write("abcd\u001b[K");
		expect(term.lines()).toEqual(["abcd", ""]);
		expect(term.snapshot().at(-1)).toBe("cursor 0,4");
		term.write("e\nf");
		expect(term.lines()).toEqual(["e", "f"]);
		expect(term.scrolled).toBe(1);
		term.write("\u001b[1A\u001b[4G中"); // a wide character that does not fit wraps whole
		expect(term.lines()).toEqual(["e", "中"]);
	});

	it("keeps the main screen under the alternate one and ignores modes that change nothing on screen", () => {
		const term = screen();
		term.write(
			"main\u001b[?1049h\u001b[Halt\u001b[c\u001b[6n\u001b[?25l\u001b[?2026h\u001b[?2004h\u001b[>4;1m\u001b]0;title\u0007",
		);
		expect(term.lines()[0]).toBe("alt");
		expect(term.snapshot().at(-1)).toBe("cursor 0,3 hidden");
		term.write("\u001b[?1049l");
		expect(term.lines()[0]).toBe("main");
		expect(term.snapshot().at(-1)).toBe("cursor 0,4 hidden");
		term.write("\u001b[?1049h");
		expect(term.lines()[0]).toBe("");
	});

	it("refuses what it has no rule for, so a new kind of write fails a test instead of drawing wrong", () => {
		expect(() => screen().write("\u001b[2S")).toThrow(/no rule for ESC\[2S/);
		expect(() => screen().write("a\tb")).toThrow(/no rule for control/);
		expect(() => screen().write("\u001b[58;5;1m")).toThrow(/no rule for ESC\[58;5;1m/);
		expect(() => screen().write("\u001b[?1h")).toThrow(/no rule/);
	});
});
