import realStringWidth from "string-width";
import { describe, expect, it } from "vitest";
import stringWidth, { terminalForm } from "../src/term/string-width.js";

/** The clusters of `text` drawn as they are (see `terminalForm`). */
const drawnAsIs = (text: string) =>
	Array.from(new Intl.Segmenter().segment(text)).every(({ segment }) => terminalForm(segment) === segment);

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

/** Clusters terminals agree on and gar draws as they are: gar measures them as the string-width package does. */
const CLUSTERS = [
	"😀",
	"🇺🇸",
	"☺",
	"❤",
	"™",
	"e\u0301",
	"\u0301",
	"\u200d",
	"한",
	"\u1100\u1161",
	"\u1100\u1161\u11a8",
	"ｶﾞ",
	"─│┌┐",
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

/**
 * [cluster, what a terminal is given, its columns]: where terminals disagree on a cluster's width, gar draws a form
 * they agree on (test/tui-width-e2e.test.ts checks these widths in tmux). Glibc's wcwidth(), which tmux and xterm
 * follow, draws a presentation selector, a skin tone after its emoji and a ZWJ as nothing and each emoji beside the
 * other; kitty, WezTerm and iTerm2 draw the whole cluster as one two-column emoji.
 */
const FORMS: [string, string, number][] = [
	["⚠️", "⚠", 1],
	["❤️", "❤", 1],
	["☺️", "☺", 1],
	["😀️", "😀", 2],
	["1️⃣", "1⃣", 1],
	["👍🏽", "👍", 2],
	["🏽", "🏽", 2],
	["👨‍👩‍👧", "👨👩👧", 6],
	["🏳️‍🌈", "🏳🌈", 3],
	["🧑‍💻", "🧑💻", 4],
	["🇺", "⟨U+1F1FA⟩", 9],
	// Hangul fillers: two columns in glibc and tmux (U+115F, U+3164), one (U+FFA0), none where they are hidden.
	["\u115f", "⟨U+115F⟩", 8],
	["\u3164", "⟨U+3164⟩", 8],
	["\uffa0", "⟨U+FFA0⟩", 8],
	["\u115f\u1161", "⟨U+115F⟩⟨U+1161⟩", 16],
	// A vowel or final jamo takes no column after its leading jamo; alone, glibc still draws it as nothing.
	["\u1161", "⟨U+1161⟩", 8],
	["\u11a8", "⟨U+11A8⟩", 8],
	["\u1160", "⟨U+1160⟩", 8],
	["\u00ad", "⟨U+00AD⟩", 8],
	["\u0600", "⟨U+0600⟩", 8],
	["\u2028", "⟨U+2028⟩", 8],
	// Wide since Unicode 16, one column in glibc; newer than Unicode 14 (glibc 2.36 and tmux draw nothing).
	["☰", "⟨U+2630⟩", 8],
	["🩷", "⟨U+1FA77⟩", 9],
	["\u0378", "⟨U+0378⟩", 8],
	// Zero-width characters and marks are nothing everywhere: kept, and zero columns.
	["\u200b", "\u200b", 0],
	["\ufe0f", "", 0],
	// Scripts with spacing marks: each code point but marks takes its column, as glibc and tmux draw them (the
	// string-width package counts one column for Thai AM after a letter).
	["क्षि", "क्षि", 3],
	["aำ", "aำ", 2],
];

describe("stringWidth (the build's string-width)", () => {
	it("agrees with the string-width package on every code point below U+32000 drawn as it is, alone and after a letter", () => {
		const drawn = Array.from(singleCodePoints()).filter((c) => terminalForm(c) === c);
		expect(drawn.length).toBeGreaterThan(140_000);
		expect(mismatches(drawn)).toEqual([]);
		const sample = drawn.filter((_, i) => i % 5 === 0).map((c) => `a${c}`);
		expect(mismatches(sample.filter(drawnAsIs))).toEqual([]);
	});

	it("agrees on the clusters terminals draw alike: emoji, combining marks, jamo, halfwidth forms and ANSI", () => {
		for (const cluster of CLUSTERS) expect(drawnAsIs(cluster)).toBe(true);
		expect(mismatches(CLUSTERS)).toEqual([]);
		expect(mismatches(CLUSTERS, { ambiguousIsNarrow: false })).toEqual([]);
		expect(mismatches(CLUSTERS, { countAnsiEscapeCodes: true })).toEqual([]);
	});

	it("draws a cluster terminals disagree on in a form they draw alike, and measures that form", () => {
		const chosen = FORMS.map(([cluster]) => [cluster, terminalForm(cluster), stringWidth(cluster)]);
		expect(chosen).toEqual(FORMS);
		for (const [, form, width] of FORMS) {
			expect(terminalForm(form)).toBe(form);
			expect(stringWidth(form)).toBe(width);
		}
	});

	it("counts what a terminal shows", () => {
		expect(stringWidth("abc")).toBe(3);
		expect(stringWidth("中文")).toBe(4);
		expect(stringWidth("👨‍👩‍👧")).toBe(6);
		expect(stringWidth("🇺🇸")).toBe(2);
		expect(stringWidth("e\u0301")).toBe(1);
		expect(stringWidth("\x1b[1mbold\x1b[0m")).toBe(4);
	});
});
