import { describe, expect, it } from "vitest";
import { labelFor } from "../src/ui/editor/paste.js";
import { columnsOf, TextBuffer } from "../src/ui/editor/text-buffer.js";
import { wrapLine } from "../src/ui/editor/wrap.js";

function buffer(text = ""): TextBuffer {
	const b = new TextBuffer();
	if (text) b.insert(text);
	return b;
}

/** The text with `|` at the cursor. */
function shown(b: TextBuffer): string {
	const lines = b.lines.slice();
	const line = lines[b.row] as string;
	lines[b.row] = `${line.slice(0, b.col)}|${line.slice(b.col)}`;
	return lines.join("\n");
}

describe("the editor's text buffer", () => {
	it("inserts, splits lines on newlines, and deletes across line ends", () => {
		const b = buffer("hello");
		b.insert(" world\nsecond");
		expect(shown(b)).toBe("hello world\nsecond|");
		b.home();
		b.backspace();
		expect(shown(b)).toBe("hello world|second");
		b.newline();
		b.left();
		b.deleteForward();
		expect(shown(b)).toBe("hello world|second");
		b.insert("\r\n");
		expect(b.lines).toEqual(["hello world", "second"]);
	});

	it("moves and deletes by grapheme: CJK, emoji with modifiers and ZWJ, flags, combining marks", () => {
		const b = buffer("a你👍🏽👨‍👩‍👧🇫🇷e\u0301z");
		b.left();
		expect(shown(b)).toBe("a你👍🏽👨‍👩‍👧🇫🇷e\u0301|z");
		b.left();
		expect(shown(b)).toBe("a你👍🏽👨‍👩‍👧🇫🇷|e\u0301z");
		b.left();
		expect(shown(b)).toBe("a你👍🏽👨‍👩‍👧|🇫🇷e\u0301z");
		b.backspace();
		expect(shown(b)).toBe("a你👍🏽|🇫🇷e\u0301z");
		b.backspace();
		expect(shown(b)).toBe("a你|🇫🇷e\u0301z");
		b.backspace();
		expect(shown(b)).toBe("a|🇫🇷e\u0301z");
		b.right();
		b.right();
		expect(shown(b)).toBe("a🇫🇷e\u0301|z");
		b.end();
		b.backspace();
		b.backspace();
		expect(shown(b)).toBe("a🇫🇷|");
	});

	it("measures columns: CJK and emoji are two wide, combining marks zero", () => {
		expect(columnsOf("你好")).toBe(4);
		expect(columnsOf("👍🏽")).toBe(2);
		expect(columnsOf("e\u0301")).toBe(1);
		expect(columnsOf("abc")).toBe(3);
	});

	it("moves and deletes by word", () => {
		const b = buffer("let foo_bar = baz(1, 2);");
		b.wordLeft();
		expect(shown(b)).toBe("let foo_bar = baz(1, |2);");
		b.wordLeft();
		b.wordLeft();
		expect(shown(b)).toBe("let foo_bar = |baz(1, 2);");
		b.wordLeft();
		expect(shown(b)).toBe("let |foo_bar = baz(1, 2);");
		b.wordRight();
		expect(shown(b)).toBe("let foo_bar| = baz(1, 2);");
		b.deleteWordLeft();
		expect(shown(b)).toBe("let | = baz(1, 2);");
		b.deleteToLineEnd();
		expect(shown(b)).toBe("let |");
		b.deleteToLineStart();
		expect(shown(b)).toBe("|");
	});

	it("Home and End go to the line's start and end; left and right cross lines", () => {
		const b = buffer("one\ntwo");
		b.home();
		expect(shown(b)).toBe("one\n|two");
		b.left();
		expect(shown(b)).toBe("one|\ntwo");
		b.home();
		expect(shown(b)).toBe("|one\ntwo");
		b.end();
		b.right();
		expect(shown(b)).toBe("one\n|two");
	});

	it("undoes a run of typing as one step, and redoes it", () => {
		const b = buffer("hello");
		b.insert(" world");
		b.left();
		b.insert("X");
		expect(b.text).toBe("hello worlXd");
		b.undo();
		expect(b.text).toBe("hello world");
		b.undo();
		expect(b.text).toBe("");
		expect(b.undo()).toBe(false);
		b.redo();
		expect(b.text).toBe("hello world");
		b.redo();
		expect(b.text).toBe("hello worlXd");
		b.backspace();
		b.backspace();
		b.undo();
		expect(b.text).toBe("hello worlXd");
		expect(b.redo()).toBe(true);
		b.insert("!");
		expect(b.redo()).toBe(false);
	});

	it("wraps at word boundaries, cuts long words, and gives wide graphemes whole cells", () => {
		const rows = (line: string, width: number) => wrapLine(line, width).map((r) => line.slice(r.start, r.end));
		expect(rows("the quick brown fox", 10)).toEqual(["the quick ", "brown fox"]);
		expect(rows("abcdefghijkl", 5)).toEqual(["abcde", "fghij", "kl"]);
		expect(rows("你好世界", 5)).toEqual(["你好", "世界"]);
		expect(rows("👍🏽👍🏽👍🏽", 4)).toEqual(["👍🏽👍🏽", "👍🏽"]);
		expect(rows("", 5)).toEqual([""]);
	});

	it("moves up and down by visual row at the same column, and says when it reaches the first or last row", () => {
		const b = buffer("the quick brown fox\nend");
		// Rows at width 10: "the quick ", "brown fox" and "end".
		b.home();
		b.right();
		expect(b.up(10)).toBe(true);
		expect(shown(b)).toBe("the quick b|rown fox\nend");
		expect(b.up(10)).toBe(true);
		expect(shown(b)).toBe("t|he quick brown fox\nend");
		expect(b.up(10)).toBe(false);
		expect(b.down(10)).toBe(true);
		expect(shown(b)).toBe("the quick b|rown fox\nend");
		b.end();
		expect(b.down(10)).toBe(true);
		expect(shown(b)).toBe("the quick brown fox\nend|");
		expect(b.down(10)).toBe(false);
		// Wide characters: the column is kept in cells, never landing inside a wide grapheme.
		const w = buffer("你好世界\nabcdefgh");
		w.home();
		w.right();
		w.right();
		w.right();
		w.up(20);
		expect(shown(w)).toBe("你|好世界\nabcdefgh");
	});

	it("keeps a large paste as one placeholder grapheme, expanded on demand", () => {
		const big = Array.from({ length: 5000 }, (_, i) => `line ${i}`).join("\n");
		const b = buffer("see ");
		b.paste(big);
		b.insert(" ok");
		expect(b.lines.length).toBe(1);
		expect(b.pastes.label(Array.from(b.text)[4] as string)).toBe("[pasted 5000 lines]");
		expect(b.pastes.expand(b.text)).toBe(`see ${big} ok`);
		b.left();
		b.left();
		b.left();
		b.backspace();
		expect(b.text).toBe("see  ok");
		b.paste("small\npaste");
		expect(b.lines).toEqual(["see small", "paste ok"]);
		expect(labelFor("x".repeat(3000))).toBe("[pasted 3000 chars]");
	});

	it("drops placeholder characters that arrive from outside, so none can be forged", () => {
		const b = buffer(`a${String.fromCodePoint(0xf0001)}b`);
		expect(b.text).toBe("ab");
	});
});
