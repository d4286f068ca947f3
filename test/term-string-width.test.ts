import realStringWidth from "string-width";
import { describe, expect, it } from "vitest";
import stringWidth from "../src/term/string-width.js";

/** Every mismatch between gar's width and the string-width package's, as readable lines. */
function mismatches(
	texts: Iterable<string>,
	options?: { ambiguousIsNarrow?: boolean; countAnsiEscapeCodes?: boolean },
) {
	const out: string[] = [];
	for (const text of texts) {
		const want = realStringWidth(text, options);
		const got = stringWidth(text, options);
		if (want !== got) out.push(`${JSON.stringify(text)}: string-width ${want}, gar ${got}`);
	}
	return out;
}

function* singleCodePoints() {
	for (let cp = 0; cp < 0x32000; cp++) if (cp < 0xd800 || cp > 0xdfff) yield String.fromCodePoint(cp);
}

const CLUSTERS = [
	"😀",
	"👍🏽",
	"✌🏻",
	"👨‍👩‍👧",
	"👩🏽‍💻",
	"🧑‍🤝‍🧑",
	"🏳️‍🌈",
	"🇺🇸",
	"🇺",
	"1️⃣",
	"#⃣",
	"*️⃣",
	"☺",
	"☺️",
	"❤️",
	"❤",
	"©️",
	"™",
	"↔️",
	"⁉️",
	"e\u0301",
	"\u0301",
	"\u200d",
	"a\ufe0f",
	"한",
	"\u1100\u1161",
	"\u1100\u1161\u11a8",
	"ｶﾞ",
	"ㅤ",
	"─│┌┐",
	"क्षि",
	"ไทย",
	"a\u200bb",
	"\t",
	"α①",
	"日本語のテキスト",
	"\x1b[31mred\x1b[0m",
	"\x1b]0;title\x07x",
	"mixed 中文 and emoji 🎉 and ascii",
	"",
];

describe("stringWidth (the build's string-width)", () => {
	it("agrees with the string-width package on every code point below U+32000, alone and (a sample) after a letter", () => {
		expect(mismatches(singleCodePoints())).toEqual([]);
		const sample = Array.from(singleCodePoints()).filter((_, i) => i % 5 === 0);
		expect(mismatches(sample.map((c) => `a${c}`))).toEqual([]);
	});

	it("agrees on emoji sequences, combining marks, jamo, halfwidth forms, scripts with spacing marks and ANSI", () => {
		expect(mismatches(CLUSTERS)).toEqual([]);
		expect(mismatches(CLUSTERS, { ambiguousIsNarrow: false })).toEqual([]);
		expect(mismatches(CLUSTERS, { countAnsiEscapeCodes: true })).toEqual([]);
	});

	it("counts what a terminal shows", () => {
		expect(stringWidth("abc")).toBe(3);
		expect(stringWidth("中文")).toBe(4);
		expect(stringWidth("👨‍👩‍👧")).toBe(2);
		expect(stringWidth("🇺🇸")).toBe(2);
		expect(stringWidth("e\u0301")).toBe(1);
		expect(stringWidth("\x1b[1mbold\x1b[0m")).toBe(4);
	});
});
