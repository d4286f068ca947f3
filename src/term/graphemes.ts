/**
 * Grapheme segmentation without Intl.Segmenter where it cannot matter. The first Intl.Segmenter of a process costs
 * ~9 ms (ICU loads its break rules), and the UI's libraries made theirs at import, before the first frame. Text
 * whose every UTF-16 unit is in SINGLE is split per unit here; anything else goes to the segmenter, made on first
 * need. The build hands `segmentGraphemes` to Ink's ANSI tokenizers in place of their own segmenters
 * (scripts/ink-patches.mjs).
 */

/**
 * Units that are a grapheme cluster of their own whatever their neighbours: controls but CR, Latin, IPA and spacing
 * modifiers (below the combining marks at U+0300), and the punctuation, symbol, arrow, box-drawing and shape blocks
 * from U+2010 to U+2BFF without the zero-width and combining ones. test/term-graphemes.test.ts checks each against
 * Intl.Segmenter.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: controls (but CR) are graphemes of their own, on purpose.
const SINGLE = /^[\0-\x0c\x0e-\u02ff\u2010-\u2027\u2030-\u205f\u2070-\u20cf\u2100-\u2bff]*$/;

let segmenter: Intl.Segmenter | undefined;

function intl(): Intl.Segmenter {
	segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
	return segmenter;
}

/** Whether every unit of `text` is a grapheme of its own (no segmenter needed). */
export function isSingleUnits(text: string): boolean {
	return SINGLE.test(text);
}

/** The segments of `text`, as Intl.Segmenter's `segment()` gives them (iterable, with `containing`). */
export function segmentGraphemes(text: string): Intl.Segments {
	return isSingleUnits(text) ? new UnitSegments(text) : intl().segment(text);
}

/** Intl.Segments for text whose units are each one grapheme. */
class UnitSegments implements Intl.Segments {
	constructor(private readonly input: string) {}

	containing(index = 0): Intl.SegmentData | undefined {
		const at = Math.trunc(index);
		if (!(at >= 0 && at < this.input.length)) return undefined;
		return { segment: this.input[at] as string, index: at, input: this.input };
	}

	*[Symbol.iterator](): IterableIterator<Intl.SegmentData> {
		const { input } = this;
		for (let index = 0; index < input.length; index++) yield { segment: input[index] as string, index, input };
	}
}

/** A stand-in for `new Intl.Segmenter(undefined, { granularity: "grapheme" })` in the UI's libraries. */
export const graphemeSegmenter = { segment: segmentGraphemes };
