/**
 * Normalized views of a text for tolerant matching, each with a map from every character of the view back to
 * its index in the original, so a match found in the view locates an exact span of the original.
 */

/**
 * - "eol": drops the "\r" of every "\r\n".
 * - "loose": also folds typographic quotes, dashes and Unicode spaces to ASCII (one character for one) and
 *   drops horizontal whitespace before a line break (and at the very end with `trimEnd`).
 * - "squeeze": drops all whitespace, line breaks included, and folds like "loose".
 */
export type ViewMode = "eol" | "loose" | "squeeze";

export type View = { norm: string; map: Int32Array };

const FOLD = new Map<number, string>([
	[0x2018, "'"],
	[0x2019, "'"],
	[0x201a, "'"],
	[0x201b, "'"],
	[0x2032, "'"],
	[0x201c, '"'],
	[0x201d, '"'],
	[0x201e, '"'],
	[0x201f, '"'],
	[0x2033, '"'],
	[0x2010, "-"],
	[0x2011, "-"],
	[0x2012, "-"],
	[0x2013, "-"],
	[0x2014, "-"],
	[0x2015, "-"],
	[0x2212, "-"],
]);

/** Unicode spaces that fold to " ". */
const isWideSpace = (c: number) =>
	c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x202f || c === 0x205f || c === 0x3000;
/** Horizontal whitespace: not a line break. */
const isSpace = (c: number) => c === 32 || c === 9 || c === 11 || c === 12 || (c > 127 && isWideSpace(c));

/** Builds the view of `text` for `mode`; linear time, one Int32 per character of map. */
export function view(text: string, mode: ViewMode, trimEnd = true): View {
	const n = text.length;
	const map = new Int32Array(n);
	const parts: string[] = [];
	let len = 0;
	let run = -1;
	const flush = (end: number) => {
		if (run >= 0) parts.push(text.slice(run, end));
		run = -1;
	};
	const keep = (i: number) => {
		if (run < 0) run = i;
		map[len++] = i;
	};
	const put = (i: number, ch: string) => {
		flush(i);
		parts.push(ch);
		map[len++] = i;
	};
	const lineBreakAt = (j: number) =>
		text.charCodeAt(j) === 10 || (text.charCodeAt(j) === 13 && text.charCodeAt(j + 1) === 10);
	for (let i = 0; i < n; i++) {
		const c = text.charCodeAt(i);
		if (c === 13 && text.charCodeAt(i + 1) === 10) {
			flush(i);
			continue;
		}
		if (mode !== "eol") {
			if (mode === "squeeze" && (c === 10 || c === 13 || isSpace(c))) {
				flush(i);
				continue;
			}
			if (isSpace(c)) {
				let j = i;
				while (j < n && isSpace(text.charCodeAt(j))) j++;
				if (lineBreakAt(j) || (j === n && trimEnd)) flush(i);
				else for (let k = i; k < j; k++) isWideSpace(text.charCodeAt(k)) ? put(k, " ") : keep(k);
				i = j - 1;
				continue;
			}
			const folded = c > 127 ? FOLD.get(c) : undefined;
			if (folded) {
				put(i, folded);
				continue;
			}
		}
		keep(i);
	}
	flush(n);
	return { norm: parts.join(""), map: map.subarray(0, len) };
}
