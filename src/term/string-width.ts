import { eastAsianWidth } from "get-east-asian-width";
import stripAnsi from "strip-ansi";
import { segmentGraphemes } from "./graphemes.js";

/**
 * Terminal column width of a string: the same answers as the `string-width` package for the text a terminal app
 * shows, without its per-cluster `\p{RGI_Emoji}` test (26 ms to compile on first use, µs per call after). The build
 * aliases `string-width` to this module, so Ink, wrap-ansi and cli-truncate measure the same way gar does.
 *
 * Rules per grapheme cluster: invisible clusters (controls, format characters, lone combining marks) are 0; an
 * emoji cluster (VS16, keycap, skin tone, ZWJ sequence of pictographs, a flag's two regional indicators) is 2; a
 * Hangul L+V(+T) jamo cluster is 2; otherwise the East Asian Width of its first visible code point, plus any
 * spacing marks and halfwidth/fullwidth forms that follow it inside the cluster.
 */
export type WidthOptions = { ambiguousIsNarrow?: boolean; countAnsiEscapeCodes?: boolean };

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const INVISIBLE = /^[\p{Default_Ignorable_Code_Point}\p{Control}\p{Format}\p{Mn}\p{Me}\p{Surrogate}]$/u;
const SPACING_MARK = /^\p{Spacing_Mark}$/u;
const PICTOGRAPHIC = /\p{Extended_Pictographic}/gu;
const VS16 = 0xfe0f;
const ZWJ = 0x200d;
const KEYCAP = 0x20e3;

const isRegionalIndicator = (cp: number) => cp >= 0x1f1e6 && cp <= 0x1f1ff;
const isSkinTone = (cp: number) => cp >= 0x1f3fb && cp <= 0x1f3ff;
const isLeadingJamo = (cp: number) => (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0xa960 && cp <= 0xa97c);
const isVowelJamo = (cp: number) => (cp >= 0x1160 && cp <= 0x11a7) || (cp >= 0xd7b0 && cp <= 0xd7c6);

/** Whether a multi-code-point cluster is drawn as one double-width emoji. */
function isEmojiCluster(cluster: string, codePoints: readonly number[]): boolean {
	const first = codePoints[0] ?? 0;
	if (codePoints.length === 2 && isRegionalIndicator(first) && isRegionalIndicator(codePoints[1] ?? 0)) return true;
	if (codePoints.includes(KEYCAP)) return /^[\d#*]\ufe0f?\u20e3$/u.test(cluster);
	const pictographic = cluster.match(PICTOGRAPHIC)?.length ?? 0;
	if (pictographic === 0) return false;
	if (codePoints.includes(VS16) || codePoints.some(isSkinTone)) return true;
	return codePoints.includes(ZWJ) && pictographic >= 2;
}

/** The width of one grapheme cluster. */
function clusterWidth(cluster: string, ambiguousAsWide: boolean): number {
	const codePoints: number[] = [];
	for (const char of cluster) codePoints.push(char.codePointAt(0) ?? 0);
	if (codePoints.length > 1 && codePoints.length < 50 && isEmojiCluster(cluster, codePoints)) return 2;
	// Skip what a terminal draws as nothing: leading format characters and marks.
	let start = 0;
	while (start < codePoints.length && INVISIBLE.test(String.fromCodePoint(codePoints[start] ?? 0))) start++;
	if (start === codePoints.length) return 0;
	const base = codePoints[start] ?? 0;
	if (isLeadingJamo(base) && isVowelJamo(codePoints[start + 1] ?? 0)) return 2;
	let width = eastAsianWidth(base, { ambiguousAsWide });
	for (let i = start + 1; i < codePoints.length; i++) {
		const cp = codePoints[i] ?? 0;
		const char = String.fromCodePoint(cp);
		if ((cp >= 0xff00 && cp <= 0xffef) || SPACING_MARK.test(char)) width += eastAsianWidth(cp, { ambiguousAsWide });
	}
	return width;
}

/** Display width in terminal columns; ANSI escape sequences count as 0 unless `countAnsiEscapeCodes`. */
export default function stringWidth(input: string, options: WidthOptions = {}): number {
	if (typeof input !== "string" || input.length === 0) return 0;
	let text = input;
	if (!options.countAnsiEscapeCodes && (text.includes("\u001b") || text.includes("\u009b"))) text = stripAnsi(text);
	if (PRINTABLE_ASCII.test(text)) return text.length;
	const ambiguousAsWide = options.ambiguousIsNarrow === false;
	let width = 0;
	for (const { segment } of segmentGraphemes(text)) {
		const code = segment.charCodeAt(0);
		width += segment.length === 1 && code >= 0x20 && code < 0x7f ? 1 : clusterWidth(segment, ambiguousAsWide);
	}
	return width;
}
