import { isSingleUnits, segmentGraphemes } from "../../term/graphemes.js";
import stringWidth from "../../term/string-width.js";

/** A grapheme cluster longer than this (in UTF-16 units) is split; real ones (ZWJ families, flags) are shorter. */
const WINDOW = 64;

/** Characters the editor has split into graphemes (tests check that a key costs O(1), not O(text)). */
export const editorWork = { chars: 0 };

/** The grapheme clusters of `text`, in order. */
export function graphemes(text: string): string[] {
	editorWork.chars += text.length;
	if (isSingleUnits(text)) return text.split("");
	return Array.from(segmentGraphemes(text), (s) => s.segment);
}

/** The index of the grapheme boundary before `at` in `line` (0 at the start). O(1): looks at a bounded window. */
export function prevBoundary(line: string, at: number): number {
	if (at <= 0) return 0;
	const code = line.charCodeAt(at - 1);
	// Plain ASCII followed by ASCII (or the end) is its own cluster.
	if (code < 0x7f && code >= 0x20 && (at >= line.length || line.charCodeAt(at) < 0x7f)) return at - 1;
	const from = Math.max(0, at - WINDOW);
	editorWork.chars += at - from;
	let last = from;
	for (const { index } of segmentGraphemes(line.slice(from, at))) last = from + index;
	return last;
}

/** The index of the grapheme boundary after `at` in `line` (line.length at the end). O(1). */
export function nextBoundary(line: string, at: number): number {
	if (at >= line.length) return line.length;
	const code = line.charCodeAt(at);
	if (code < 0x7f && code >= 0x20 && (at + 1 >= line.length || line.charCodeAt(at + 1) < 0x7f)) return at + 1;
	const first = segmentGraphemes(line.slice(at, at + WINDOW))
		[Symbol.iterator]()
		.next();
	return first.done ? line.length : at + first.value.segment.length;
}

/** Columns one grapheme takes; tab counts as 1 (it is drawn as a space). */
export function graphemeWidth(g: string): number {
	if (g.length === 1) {
		const code = g.charCodeAt(0);
		if (code >= 0x20 && code < 0x7f) return 1;
		if (code === 9) return 1;
	}
	return stringWidth(g);
}

const WORD = /[\p{L}\p{N}\p{M}_]/u;

/** True when the grapheme is part of a word (letters, digits, marks, underscore). */
export function isWordChar(g: string): boolean {
	return WORD.test(g);
}
