// src/term/graphemes.ts splits text per UTF-16 unit when every unit is a grapheme of its own, without making an
// Intl.Segmenter; these check that premise for every unit it accepts, and that its answers are the segmenter's.
import { describe, expect, it } from "vitest";
import { isSingleUnits, segmentGraphemes } from "../src/term/graphemes.js";

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const reference = (text: string) => Array.from(segmenter.segment(text), ({ segment, index }) => ({ segment, index }));
const ours = (text: string) => Array.from(segmentGraphemes(text), ({ segment, index }) => ({ segment, index }));

describe("grapheme segmentation", () => {
	it("every unit taken per unit stands alone next to letters, marks, jamo, line feeds and itself", () => {
		// Joining rules need a CR, an Extend, ZWJ, SpacingMark or Prepend unit, Hangul jamo or regional indicators;
		// a unit that stands alone next to a letter, each jamo kind, LF and itself has none of those properties.
		const neighbours = (u: string) => ["a", "\u1100", "\u1161", "\u11a8", "\uac00"].flatMap((n) => [u + n, n + u]);
		const joined: string[] = [];
		let accepted = 0;
		for (let code = 0; code <= 0xffff; code++) {
			const unit = String.fromCharCode(code);
			if (!isSingleUnits(unit)) continue;
			accepted++;
			for (const pair of [...neighbours(unit), `${unit}\n`, unit + unit]) {
				if (segmenter.segment(pair)[Symbol.iterator]().next().value?.segment !== pair[0]) {
					joined.push(code.toString(16));
				}
			}
		}
		expect(joined).toEqual([]);
		expect(accepted).toBeGreaterThan(3000);
	});

	it("gives the segmenter's segments for text taken per unit and for text that needs it", () => {
		const texts = [
			"",
			"plain ASCII",
			"\u001b[31mred\u001b[39m │ ● ↑ 12.4k ↓ 1.1k – █░ …",
			"naïve café ß ø ɐ ˈ",
			"中文 and emoji 👍🏽 👨‍👩‍👧 🇫🇷 1️⃣",
			"e\u0301 a\u0308\u0323 क्षि",
			"line\r\nnext\n",
			"한국어 \u1100\u1161\u11a8",
		];
		for (const text of texts) expect(ours(text), JSON.stringify(text)).toEqual(reference(text));
		expect(isSingleUnits(texts[2] as string)).toBe(true);
		expect(isSingleUnits(texts[4] as string)).toBe(false);
		expect(isSingleUnits("a\r\n")).toBe(false);
	});

	it("answers containing() as the segmenter does, inside and outside the text", () => {
		const text = "ab │ c";
		const segments = segmentGraphemes(text);
		const real = segmenter.segment(text);
		for (const at of [-1, 0, 1, 3, 5, 6, 2.7]) {
			const pick = (s: Intl.SegmentData | undefined) => s && { segment: s.segment, index: s.index, input: s.input };
			expect(pick(segments.containing(at)), String(at)).toEqual(pick(real.containing(at)));
		}
	});
});
