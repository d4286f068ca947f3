import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { clean, fitSpans, flat, graphemes, makeLine, textWidth, wrapSpans } from "../src/ui/chat/lines.js";

const rows = (text: string, width: number, rest = width) =>
	wrapSpans([{ text }], width, rest).map((row) => row.map((s) => s.text).join(""));

describe("textWidth", () => {
	it("counts columns: ASCII 1, CJK 2, emoji 2, combining marks 0, a ZWJ sequence as its emoji side by side", () => {
		expect(textWidth("hello")).toBe(5);
		expect(textWidth("日本")).toBe(4);
		expect(textWidth("👍")).toBe(2);
		expect(textWidth("e\u0301")).toBe(1);
		expect(textWidth("🇯🇵")).toBe(2);
		expect(textWidth("👩‍💻")).toBe(4);
	});
});

describe("wrapSpans", () => {
	it("wraps at spaces, drops the space at a wrap and keeps leading indentation", () => {
		expect(rows("the quick brown fox jumps", 10)).toEqual(["the quick", "brown fox", "jumps"]);
		expect(rows("  indented text", 20)).toEqual(["  indented text"]);
		expect(rows("a\n\nb", 10)).toEqual(["a", "", "b"]);
	});

	it("hard-breaks a word wider than a row, filling the current row first", () => {
		expect(rows("see abcdefghijklmnop", 8)).toEqual(["see abcd", "efghijkl", "mnop"]);
	});

	it("uses the first width for the first row and the rest width after it", () => {
		expect(rows("aaa bbb ccc ddd", 3, 7)).toEqual(["aaa", "bbb ccc", "ddd"]);
	});

	it("wraps CJK and emoji without exceeding the width or splitting a grapheme", () => {
		const text = "日本語のテキストを折り返す 👍👍👍 🇯🇵🇯🇵 e\u0301e\u0301e\u0301 done";
		for (const width of [1, 2, 3, 5, 8]) {
			const out = rows(text, width);
			for (const row of out) expect(stringWidth(row)).toBeLessThanOrEqual(width);
			// Nothing lost but spaces at wraps; in one column a wide character can only show as "…".
			if (width >= 2) expect(out.join("").replace(/ /g, "")).toBe(text.replace(/ /g, ""));
		}
		expect(rows("日本語のテキスト", 5)).toEqual(["日本", "語の", "テキ", "スト"]);
		expect(rows("ab 🇯🇵🇯🇵🇯🇵", 5)).toEqual(["ab 🇯🇵", "🇯🇵🇯🇵"]);
		expect(rows("ab 🇯🇵🇯🇵", 5)).toEqual(["ab", "🇯🇵🇯🇵"]);
		expect(rows("e\u0301e\u0301e\u0301e\u0301", 2)).toEqual(["e\u0301e\u0301", "e\u0301e\u0301"]);
	});

	it("keeps styles per span and merges a word across spans", () => {
		const out = wrapSpans([{ text: "plain " }, { text: "bold", bold: true }, { text: ", more" }], 11);
		expect(out).toEqual([[{ text: "plain " }, { text: "bold", bold: true }, { text: "," }], [{ text: "more" }]]);
	});
});

describe("fitting and copying", () => {
	it("fitSpans cuts at the width with an ellipsis", () => {
		expect(fitSpans([{ text: "abc" }, { text: "defgh" }], 6)).toEqual([{ text: "abc" }, { text: "de…" }]);
		expect(fitSpans([{ text: "日本語" }], 5)).toEqual([{ text: "日本…" }]);
		expect(fitSpans([{ text: "ok" }], 6)).toEqual([{ text: "ok" }]);
	});

	it("makeLine never returns a line wider than its width", () => {
		const line = makeLine("k", [{ text: "a very long prefix " }, { text: "and more" }], 10);
		expect(stringWidth(line.spans.map((s) => s.text).join(""))).toBeLessThanOrEqual(10);
	});

	it("flat returns an equal string; clean shows escapes and reads CRLF as a newline", () => {
		const big = "x".repeat(1000);
		expect(flat(big.slice(10, 500))).toBe(big.slice(10, 500));
		expect(clean("a\x1b[2Jb\r\nc")).toBe("a␛[2Jb\nc");
		expect(graphemes("e\u0301x")).toEqual(["e\u0301", "x"]);
	});
});
