/**
 * Finding an edit's oldText in a file. Three tiers, each tried only when the previous one found nothing:
 * 1. "exact": the bytes as given.
 * 2. "line_endings": CRLF in the file read as LF (an LF oldText matches a CRLF file).
 * 3. "normalized": also ignores trailing whitespace at line ends and folds typographic quotes, dashes and
 *    Unicode spaces to ASCII (one character for one, so offsets map back exactly).
 * A unique match at any tier is applied: it locates one span of the original text, and only that span is
 * replaced; every byte outside it stays as it was. Differences in indentation or inner whitespace are NOT
 * applied (the model's newText would likely carry the same wrong indentation): a whitespace-blind search only
 * *reports* where the text probably is, with line numbers, so the model can resend the exact text.
 */

import { type ViewMode, view } from "./text-view.js";
import { numbered } from "./truncate.js";

export type MatchLevel = "exact" | "line_endings" | "normalized";

export type Located =
	| { kind: "found"; start: number; end: number; level: MatchLevel }
	| { kind: "ambiguous"; count: number; lines: number[]; level: MatchLevel }
	| { kind: "missing"; hint: string };

/** Every start index of `needle` in `hay`, overlapping ones included, up to `cap`. */
function findAll(hay: string, needle: string, cap = 1000): number[] {
	const found: number[] = [];
	for (let i = hay.indexOf(needle); i !== -1 && found.length < cap; i = hay.indexOf(needle, i + 1)) found.push(i);
	return found;
}

/** 1-based line numbers of character offsets in a text. */
export class LineIndex {
	private readonly starts: number[] = [0];
	constructor(readonly text: string) {
		for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) this.starts.push(i + 1);
	}
	/** The line holding offset `pos`. */
	lineAt(pos: number): number {
		let lo = 0;
		let hi = this.starts.length - 1;
		while (lo < hi) {
			const mid = (lo + hi + 1) >> 1;
			if ((this.starts[mid] ?? 0) <= pos) lo = mid;
			else hi = mid - 1;
		}
		return lo + 1;
	}
	/** The text of line `n` (1-based) without its line break. */
	line(n: number): string {
		const start = this.starts[n - 1] ?? 0;
		const end = this.starts[n] ?? this.text.length;
		return this.text.slice(start, end).replace(/\r?\n$/, "");
	}
	/** The text of lines `from`..`to` (1-based, inclusive), numbered like the read tool, long lines clipped. */
	snippet(from: number, to: number): string {
		const rows: string[] = [];
		const last = Math.min(to, this.starts.length);
		const width = String(last).length;
		for (let n = Math.max(1, from); n <= last; n++) {
			const line = this.line(n);
			rows.push(numbered(n, width, line.length > 240 ? `${line.slice(0, 240)}…` : line));
		}
		return rows.join("\n");
	}
	get lineCount(): number {
		return this.starts.length;
	}
}

/** Files longer than this (in UTF-16 units) get the exact tier only: the tolerant views cost memory per character. */
const TOLERANT_LIMIT = 4_000_000;

/** Locates `oldText` in `text` (see the module comment for the tiers). */
export function locate(text: string, oldText: string, index: LineIndex): Located {
	const tiers: [MatchLevel, ViewMode][] = [
		["line_endings", "eol"],
		["normalized", "loose"],
	];
	// A match starting at the "\n" of a "\r\n" takes the "\r" too, or a lone "\r" would be left behind.
	const found = (start: number, end: number, level: MatchLevel): Located => {
		const from = text[start] === "\n" && text[start - 1] === "\r" ? start - 1 : start;
		return { kind: "found", start: from, end, level };
	};
	const exact = findAll(text, oldText);
	const [only] = exact;
	if (exact.length === 1 && only !== undefined) return found(only, only + oldText.length, "exact");
	if (exact.length > 1) return ambiguous(exact, index, "exact");
	if (text.length > TOLERANT_LIMIT) {
		return {
			kind: "missing",
			hint: "The file is too large for a tolerant search; read the lines and copy oldText exactly.",
		};
	}
	for (const [level, mode] of tiers) {
		if (mode === "eol" && !text.includes("\r") && !oldText.includes("\r")) continue;
		const hay = view(text, mode);
		const needle = view(oldText, mode, false).norm;
		if (needle === "") continue;
		const hits = findAll(hay.norm, needle);
		const origin = hits.map((h) => hay.map[h] ?? 0);
		if (hits.length > 1) return ambiguous(origin, index, level);
		const [hit] = hits;
		if (hit === undefined) continue;
		return found(hay.map[hit] ?? 0, (hay.map[hit + needle.length - 1] ?? 0) + 1, level);
	}
	return { kind: "missing", hint: explainNoMatch(text, oldText, index) };
}

function ambiguous(offsets: number[], index: LineIndex, level: MatchLevel): Located {
	const lines = [...new Set(offsets.map((o) => index.lineAt(o)))];
	return { kind: "ambiguous", count: offsets.length, lines, level };
}

const LINE_NUMBER_PREFIX = /^\s*\d+\t/;

/** Says where the text probably is: a whitespace-blind match, else the most similar lines. */
function explainNoMatch(text: string, oldText: string, index: LineIndex): string {
	const lines = oldText.split(/\r?\n/).filter((l) => l.trim() !== "");
	if (lines.length > 0 && lines.every((l) => LINE_NUMBER_PREFIX.test(l))) {
		return "oldText seems to include the line-number prefixes of the read output (like `    12\\t`); send the file's text without them.";
	}
	const needle = view(oldText, "squeeze").norm;
	if (needle.length > 0) {
		const hay = view(text, "squeeze");
		const hits = findAll(hay.norm, needle, 20);
		if (hits.length > 0) {
			const ranges = hits.map((h) => [
				index.lineAt(hay.map[h] ?? 0),
				index.lineAt(hay.map[h + needle.length - 1] ?? 0),
			]);
			const [first] = ranges;
			const where = ranges.map(([a, b]) => (a === b ? `line ${a}` : `lines ${a}-${b}`)).join(", ");
			const shown = first
				? `\n${index.snippet(first[0] as number, Math.min(first[1] as number, (first[0] as number) + 30))}`
				: "";
			return `Ignoring whitespace, it matches at ${where} (indentation or spacing differs). The file has:${shown}\nCopy oldText exactly from these lines (without the line-number prefixes) and retry.`;
		}
	}
	const best = closestLines(text, oldText.split(/\r?\n/));
	if (!best || best.score < 0.3) return "Nothing similar was found. Read the file again to see its current content.";
	const pct = Math.round(best.score * 100);
	const snippet = index.snippet(best.from - 1, best.to + 1);
	return `The most similar lines (${pct}% similar) are ${best.from}-${best.to}:\n${snippet}\nRead the file again if it may have changed, and copy oldText exactly.`;
}

/** The sorted character bigrams of a line, as integers (a multiset). */
function bigrams(s: string): Int32Array {
	const grams = new Int32Array(Math.max(0, s.length - 1));
	for (let i = 0; i < grams.length; i++) grams[i] = (s.charCodeAt(i) << 16) | s.charCodeAt(i + 1);
	return grams.sort();
}

/** Dice similarity of two sorted bigram multisets, from 0 to 1. */
function dice(a: Int32Array, b: Int32Array): number {
	if (a.length + b.length === 0) return 1;
	let i = 0;
	let j = 0;
	let both = 0;
	while (i < a.length && j < b.length) {
		const x = a[i] as number;
		const y = b[j] as number;
		if (x === y) {
			both++;
			i++;
			j++;
		} else if (x < y) i++;
		else j++;
	}
	return (2 * both) / (a.length + b.length);
}

/** The window of file lines most similar to `needleLines` (bigram Dice, whitespace-collapsed), within a budget. */
function closestLines(text: string, needleLines: string[]): { from: number; to: number; score: number } | null {
	const collapse = (s: string) => s.trim().replace(/\s+/g, " ");
	const needle = needleLines.map((l) => bigrams(collapse(view(l, "loose").norm)));
	const lines = view(text, "loose").norm.split("\n");
	const k = needle.length;
	const total = lines.length;
	if (k === 0 || text === "") return null;
	// Compare at most a few needle lines per window so big files stay cheap.
	const probe = k <= 5 || total * k <= 2_000_000 ? needle.map((_, j) => j) : [0, k >> 1, k - 1];
	const cache = new Map<number, Int32Array>();
	const empty = new Int32Array(0);
	const gramsOf = (n: number) => {
		if (n > total) return empty;
		let grams = cache.get(n);
		if (!grams) {
			grams = bigrams(collapse(lines[n - 1] ?? ""));
			cache.set(n, grams);
		}
		return grams;
	};
	let best: { from: number; to: number; score: number } | null = null;
	for (let start = 1; start === 1 || start + k - 1 <= total; start++) {
		let sum = 0;
		for (const j of probe) sum += dice(needle[j] ?? empty, gramsOf(start + j));
		const score = sum / probe.length;
		if (!best || score > best.score) best = { from: start, to: Math.min(total, start + k - 1), score };
		cache.delete(start);
	}
	return best;
}
