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

import { numbered } from "./truncate.js";

export type MatchLevel = "exact" | "line_endings" | "normalized";

export type Located =
	| { kind: "found"; start: number; end: number; level: MatchLevel }
	| { kind: "ambiguous"; count: number; lines: number[]; level: MatchLevel }
	| { kind: "missing"; hint: string };

const FOLD: Record<string, string> = {
	"\u2018": "'",
	"\u2019": "'",
	"\u201a": "'",
	"\u201b": "'",
	"\u2032": "'",
	"\u201c": '"',
	"\u201d": '"',
	"\u201e": '"',
	"\u201f": '"',
	"\u2033": '"',
	"\u2010": "-",
	"\u2011": "-",
	"\u2012": "-",
	"\u2013": "-",
	"\u2014": "-",
	"\u2015": "-",
	"\u2212": "-",
};
const fold = (c: string) => FOLD[c] ?? (/[\u00a0\u2000-\u200a\u202f\u205f\u3000]/.test(c) ? " " : c);
const isHorizontalSpace = (c: string | undefined) => c !== undefined && c !== "\n" && c !== "\r" && /\s/.test(c);

/** A normalized view of `text` with, for every character of it, its index in `text`. */
type View = { norm: string; map: number[] };

/**
 * Normalizes for a tier: always drops the "\r" of "\r\n"; with `loose`, folds characters and drops horizontal
 * whitespace before a line break (and, with `trimEnd`, at the very end).
 */
function view(text: string, loose: boolean, trimEnd: boolean): View {
	const out: string[] = [];
	const map: number[] = [];
	for (let i = 0; i < text.length; i++) {
		const c = text[i] as string;
		if (c === "\r" && text[i + 1] === "\n") continue;
		if (loose && isHorizontalSpace(c)) {
			let j = i;
			while (isHorizontalSpace(text[j])) j++;
			const atLineEnd =
				text[j] === "\n" || (text[j] === "\r" && text[j + 1] === "\n") || (j === text.length && trimEnd);
			for (let k = i; k < j && !atLineEnd; k++) {
				out.push(fold(text[k] as string));
				map.push(k);
			}
			i = j - 1;
			continue;
		}
		out.push(loose ? fold(c) : c);
		map.push(i);
	}
	return { norm: out.join(""), map };
}

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

/** Locates `oldText` in `text` (see the module comment for the tiers). */
export function locate(text: string, oldText: string, index: LineIndex): Located {
	const tiers: [MatchLevel, boolean][] = [
		["line_endings", false],
		["normalized", true],
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
	for (const [level, loose] of tiers) {
		const hay = view(text, loose, true);
		const needle = view(oldText, loose, false).norm;
		if (needle === "" || (!loose && !text.includes("\r") && !oldText.includes("\r"))) continue;
		const hits = findAll(hay.norm, needle);
		const origin = hits.map((h) => hay.map[h] ?? 0);
		if (hits.length > 1) return ambiguous(origin, index, level);
		const [hit] = hits;
		if (hit === undefined) continue;
		return found(hay.map[hit] ?? 0, (hay.map[hit + needle.length - 1] ?? 0) + 1, level);
	}
	return { kind: "missing", hint: explainMissing(text, oldText, index) };
}

function ambiguous(offsets: number[], index: LineIndex, level: MatchLevel): Located {
	const lines = [...new Set(offsets.map((o) => index.lineAt(o)))];
	return { kind: "ambiguous", count: offsets.length, lines, level };
}

const LINE_NUMBER_PREFIX = /^\s*\d+\t/;

/** Says where the text probably is: a whitespace-blind match, else the most similar lines. */
function explainMissing(text: string, oldText: string, index: LineIndex): string {
	const lines = oldText.split(/\r?\n/).filter((l) => l.trim() !== "");
	if (lines.length > 0 && lines.every((l) => LINE_NUMBER_PREFIX.test(l))) {
		return "oldText seems to include the line-number prefixes of the read output (like `    12\\t`); send the file's text without them.";
	}
	const squeeze = (s: string) => {
		const v = view(s, true, true);
		const keep: number[] = [];
		let norm = "";
		for (let i = 0; i < v.norm.length; i++) {
			const c = v.norm[i] as string;
			if (/\s/.test(c)) continue;
			norm += c;
			keep.push(v.map[i] ?? 0);
		}
		return { norm, map: keep };
	};
	const needle = squeeze(oldText).norm;
	if (needle.length > 0) {
		const hay = squeeze(text);
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
	const best = closestLines(index, oldText.split(/\r?\n/));
	if (!best || best.score < 0.3) return "Nothing similar was found. Read the file again to see its current content.";
	const pct = Math.round(best.score * 100);
	const snippet = index.snippet(best.from - 1, best.to + 1);
	return `The most similar lines (${pct}% similar) are ${best.from}-${best.to}:\n${snippet}\nRead the file again if it may have changed, and copy oldText exactly.`;
}

const bigrams = (s: string): Map<string, number> => {
	const m = new Map<string, number>();
	for (let i = 0; i < s.length - 1; i++) {
		const g = s.slice(i, i + 2);
		m.set(g, (m.get(g) ?? 0) + 1);
	}
	return m;
};

function dice(a: Map<string, number>, b: Map<string, number>, la: number, lb: number): number {
	if (la + lb === 0) return 1;
	let both = 0;
	for (const [g, n] of a) both += Math.min(n, b.get(g) ?? 0);
	return (2 * both) / (la + lb);
}

/** The window of file lines most similar to `needleLines` (bigram Dice, whitespace-collapsed), within a budget. */
function closestLines(index: LineIndex, needleLines: string[]): { from: number; to: number; score: number } | null {
	const norm = (s: string) => view(s, true, true).norm.trim().replace(/\s+/g, " ");
	const needle = needleLines.map(norm);
	const k = needle.length;
	const total = index.lineCount;
	if (k === 0 || total === 0) return null;
	// Compare at most a few needle lines per window so big files stay cheap.
	const probe = k <= 5 || total * k <= 200_000 ? needle.map((_, j) => j) : [0, k >> 1, k - 1];
	const fileGrams = new Map<number, [Map<string, number>, number]>();
	const gramsOf = (n: number) => {
		let g = fileGrams.get(n);
		if (!g) {
			const line = norm(index.line(n));
			g = [bigrams(line), Math.max(0, line.length - 1)];
			fileGrams.set(n, g);
		}
		return g;
	};
	const needleGrams = needle.map((l) => [bigrams(l), Math.max(0, l.length - 1)] as const);
	let best: { from: number; to: number; score: number } | null = null;
	for (let start = 1; start + k - 1 <= Math.max(total, k); start++) {
		let sum = 0;
		for (const j of probe) {
			const [ng, nl] = needleGrams[j] as readonly [Map<string, number>, number];
			const [fg, fl] = start + j <= total ? gramsOf(start + j) : [new Map<string, number>(), 0];
			sum += dice(ng, fg, nl, fl);
		}
		const score = sum / probe.length;
		if (!best || score > best.score) best = { from: start, to: Math.min(total, start + k - 1), score };
		if (start + k - 1 >= total) break;
	}
	return best;
}
