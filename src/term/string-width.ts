import { eastAsianWidth } from "get-east-asian-width";
import stripAnsi from "strip-ansi";
import { segmentGraphemes } from "./graphemes.js";

/**
 * Terminal column widths, measured as terminals draw (tmux, xterm, kitty, VTE): each code point of a grapheme
 * cluster counts its East Asian Width, except what a terminal draws as nothing (controls, format characters, marks,
 * Hangul vowel and final jamo after the leading one). The build aliases `string-width` to this module, so Ink,
 * wrap-ansi and cli-truncate measure the same way gar does.
 *
 * Where terminals disagree with each other (an emoji with a presentation selector, a skin tone or a ZWJ; Hangul
 * fillers; the soft hyphen; characters newer than Unicode 14), a cluster is not drawn as it is but in a form they all
 * draw alike (`terminalForm`: the selector, skin tone or ZWJ left out; the rest shown as `⟨U+115F⟩`), and measured as
 * that form. The build's Ink patch draws each cluster in this form (scripts/ink-patches.mjs).
 */
export type WidthOptions = { ambiguousIsNarrow?: boolean; countAnsiEscapeCodes?: boolean };

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const INVISIBLE = /^[\p{Default_Ignorable_Code_Point}\p{Control}\p{Format}\p{Mn}\p{Me}\p{Surrogate}]$/u;
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
const VS15 = 0xfe0e;
const VS16 = 0xfe0f;
const ZWJ = 0x200d;

/**
 * Code points assigned in Unicode 15.0 to 17.0, unknown to terminals on Unicode 14 tables (glibc 2.35/2.36: Debian
 * 12, Ubuntu 22.04, and tmux there), which draw them as nothing while newer ones draw one or two columns. Listed
 * by comparing V8's assigned code points (Unicode 17) with glibc 2.36's wcwidth().
 */
const NEWER_THAN_14 =
	"88f 897 c5c cdc cf3 ece 1acf-1add 1ae0-1aeb 1b4e-1b4f 1b7f 1c89-1c8a 20c1 2427-2429 2b96 2ffc-2fff " +
	"31e4-31e5 31ef a7cb-a7cf a7d2 a7d4 a7da-a7dc a7f1 fbc3-fbd2 fd90-fd91 fdc8-fdce 105c0-105f3 " +
	"10940-10959 10d40-10d65 10d69-10d85 10d8e-10d8f 10ec2-10ec7 10ed0-10ed8 10efa-10eff 1123f-11241 " +
	"11380-11389 1138b 1138e 11390-113b5 113b7-113c0 113c2 113c5 113c7-113ca 113cc-113d5 113d7-113d8 " +
	"113e1-113e2 116d0-116e3 11b00-11b09 11b60-11b67 11bc0-11be1 11bf0-11bf9 11db0-11ddb 11de0-11de9 " +
	"11f00-11f10 11f12-11f3a 11f3e-11f5a 1342f 13439-13455 13460-143fa 16100-16139 16d40-16d79 " +
	"16ea0-16eb8 16ebb-16ed3 16ff2-16ff6 187f8-187ff 18cff 18d09-18d1e 18d80-18df2 1b132 1b155 " +
	"1cc00-1ccfc 1cd00-1ceb3 1ceba-1ced0 1cee0-1cef0 1d2c0-1d2d3 1df25-1df2a 1e030-1e06d 1e08f " +
	"1e4d0-1e4f9 1e5d0-1e5fa 1e5ff 1e6c0-1e6de 1e6e0-1e6f5 1e6fe-1e6ff 1f6d8 1f6dc 1f774-1f77f 1f7d9 " +
	"1f8b2-1f8bb 1f8c0-1f8c1 1f8d0-1f8d8 1fa54-1fa57 1fa75-1fa77 1fa87-1fa8a 1fa8e-1fa8f 1faad-1faaf " +
	"1fabb-1fabf 1fac6 1fac8 1facd-1facf 1fada-1fadc 1fadf 1fae8-1faea 1faef 1faf7-1faf8 1fbcb-1fbef " +
	"1fbfa 2b739-2b73f 2cea2-2cead 2ebf0-2ee5d 31350-33479";

/**
 * Code points drawn as `⟨U+XXXX⟩` because terminals give them different widths: the soft hyphen and the prepended
 * concatenation marks (one column in glibc, tmux and xterm; none in others), the Hangul fillers (two columns in
 * glibc and tmux for U+115F and U+3164, none where default-ignorables are hidden), line and paragraph separators,
 * symbols whose width Unicode 16 changed to wide (trigrams, digrams, Tai Xuan Jing), circled numbers glibc draws wide,
 * a mark that became a spacing mark, the newer code points above and unassigned ones.
 */
const STAND_IN = new RegExp(
	"[\\u00ad\\u0600-\\u0605\\u06dd\\u070f\\u0890\\u0891\\u08e2\\u115f\\u2028\\u2029\\u2630-\\u2637\\u268a-\\u268f" +
		"\\u3164\\u3248-\\u324f\\uffa0\\u{110bd}\\u{110cd}\\u{1171e}\\u{1d300}-\\u{1d376}\\p{Cn}" +
		NEWER_THAN_14.split(" ")
			.map((range) =>
				range
					.split("-")
					.map((hex) => `\\u{${hex}}`)
					.join("-"),
			)
			.join("") +
		"]",
	"u",
);
/** Anything a cluster must hold for its form to differ from it: STAND_IN, selectors, ZWJ, skin tones, regional
 * indicators and Hangul vowel and final jamo. */
const UNSETTLED = new RegExp(
	`${STAND_IN.source.slice(0, -1)}\\ufe0e\\ufe0f\\u200d\\u{1f3fb}-\\u{1f3ff}\\u{1f1e6}-\\u{1f1ff}\\u1160-\\u11ff\\ud7b0-\\ud7ff]`,
	"u",
);

const isRegionalIndicator = (cp: number) => cp >= 0x1f1e6 && cp <= 0x1f1ff;
const isSkinTone = (cp: number) => cp >= 0x1f3fb && cp <= 0x1f3ff;
/** Hangul medial vowels and final consonants: no column of their own after a leading jamo (glibc, tmux, xterm). */
const isTrailingJamo = (cp: number) => (cp >= 0x1160 && cp <= 0x11ff) || (cp >= 0xd7b0 && cp <= 0xd7ff);
/** What trailing jamo follow in a syllable: a leading jamo (but the filler U+115F) or a precomposed syllable. */
const isSyllableStart = (cp: number) =>
	(cp >= 0x1100 && cp <= 0x115e) || (cp >= 0xa960 && cp <= 0xa97c) || (cp >= 0xac00 && cp <= 0xd7a3);

const standIn = (char: string) => `⟨U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}⟩`;

/**
 * What a terminal is given for one grapheme cluster: the cluster itself where terminals agree on its width, or a form
 * they all draw alike. Presentation selectors are left out (a text-style symbol such as ⚠ then takes one column
 * everywhere), so are skin tones after their emoji and the ZWJ between the emoji of a sequence (its parts are drawn
 * side by side); a lone regional indicator, vowel and final jamo without a leading one and the STAND_IN code points
 * are shown as `⟨U+XXXX⟩`.
 */
export function terminalForm(cluster: string): string {
	if (!UNSETTLED.test(cluster)) return cluster;
	const chars = Array.from(cluster);
	const first = chars[0]?.codePointAt(0) ?? 0;
	if (chars.length === 1 && isRegionalIndicator(first)) return standIn(cluster);
	const pictographic = PICTOGRAPHIC.test(cluster);
	const syllable = isSyllableStart(first);
	let form = "";
	for (const [i, char] of chars.entries()) {
		const cp = char.codePointAt(0) ?? 0;
		if (cp === VS15 || cp === VS16 || (i > 0 && isSkinTone(cp)) || (cp === ZWJ && pictographic)) continue;
		form += STAND_IN.test(char) || (isTrailingJamo(cp) && !syllable) ? standIn(char) : char;
	}
	return form;
}

/** The columns a settled form (see `terminalForm`) takes: the sum over its code points. */
function formWidth(form: string, ambiguousAsWide: boolean): number {
	let width = 0;
	let i = 0;
	for (const char of form) {
		const cp = char.codePointAt(0) ?? 0;
		if (cp >= 0x20 && cp < 0x7f) width++;
		else if (!INVISIBLE.test(char) && !(i > 0 && isTrailingJamo(cp))) width += eastAsianWidth(cp, { ambiguousAsWide });
		i++;
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
		width +=
			segment.length === 1 && code >= 0x20 && code < 0x7f ? 1 : formWidth(terminalForm(segment), ambiguousAsWide);
	}
	return width;
}
