import { isSingleUnits, segmentGraphemes } from "../../term/graphemes.js";
import { sanitizeForTerminal } from "../../term/sanitize.js";
import stringWidth from "../../term/string-width.js";

/** A run of text in one style. Colours are theme values (hex or names), never chosen here. */
export type Span = {
	text: string;
	color?: string;
	bold?: boolean;
	italic?: boolean;
	underline?: boolean;
	dim?: boolean;
	inverse?: boolean;
};

/** One terminal row of the chat, already fitted to the width it was built for; `key` is unique in the chat. */
export type Line = { key: string; spans: Span[] };

/** A span's style without its text. */
export type Style = Omit<Span, "text">;

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Long text is segmented in windows: V8's grapheme iterator slows down quadratically on long strings. */
const WINDOW = 256;
const widths = new Map<string, number>();

/** The width of one grapheme, memoized (CJK text repeats its characters; `string-width` costs µs per call). */
function graphemeWidth(g: string): number {
	const code = g.charCodeAt(0);
	if (g.length === 1 && code >= 0x20 && code < 0x7f) return 1;
	let width = widths.get(g);
	if (width === undefined) {
		width = stringWidth(g);
		if (widths.size >= 4096) widths.clear();
		widths.set(g, width);
	}
	return width;
}

/** Display width in terminal columns: printable ASCII is its length; the rest goes through `string-width`. */
export function textWidth(text: string): number {
	if (PRINTABLE_ASCII.test(text)) return text.length;
	if (text.length <= 2) return graphemeWidth(text);
	if (text.length <= WINDOW) return stringWidth(text);
	let width = 0;
	for (const g of graphemes(text)) width += graphemeWidth(g);
	return width;
}

/** The width of a row of spans. */
export function spansWidth(spans: readonly Span[]): number {
	let width = 0;
	for (const span of spans) width += textWidth(span.text);
	return width;
}

/** The grapheme clusters of `text` (an emoji with modifiers or a letter with combining marks stays whole). O(n). */
export function graphemes(text: string): string[] {
	if (isSingleUnits(text)) return text.split("");
	const out: string[] = [];
	for (let start = 0; start < text.length; ) {
		const end = Math.min(text.length, start + WINDOW);
		const parts = Array.from(segmentGraphemes(text.slice(start, end)));
		// The window's last cluster may continue past it: segment it again with the next window.
		const keep = end < text.length && parts.length > 1 ? parts.length - 1 : parts.length;
		for (let i = 0; i < keep; i++) out.push((parts[i] as Intl.SegmentData).segment);
		start += keep < parts.length ? (parts[keep] as Intl.SegmentData).index : end - start;
	}
	return out;
}

/**
 * A copy of `text` that does not share memory with a larger string. V8 keeps a slice of 13+ characters as a
 * view that pins its whole parent (a growing reply, per frame); Ink's text caches would keep every version.
 */
export function flat(text: string): string {
	return text.length < 13 ? text : ` ${text}`.slice(1);
}

/** Text fit to lay out: control characters shown, not run (`␛[2J`), and `\r\n` read as a newline. */
export function clean(text: string): string {
	const safe = sanitizeForTerminal(text);
	return safe.includes("\r") ? safe.replace(/\r\n/g, "\n") : safe;
}

/** Tabs become spaces up to the next multiple of `size` (a terminal would otherwise decide). */
export function expandTabs(text: string, size = 4): string {
	if (!text.includes("\t")) return text;
	let out = "";
	for (const char of text) out += char === "\t" ? " ".repeat(size - (out.length % size)) : char;
	return out;
}

/** Spans cut to `width` columns, with "…" in the last column when something was cut. */
export function fitSpans(spans: readonly Span[], width: number): Span[] {
	if (spansWidth(spans) <= width) return spans.slice();
	const out: Span[] = [];
	let used = 0;
	for (const span of spans) {
		const w = textWidth(span.text);
		if (used + w <= width - 1) {
			out.push(span);
			used += w;
			continue;
		}
		let text = "";
		for (const g of graphemes(span.text)) {
			const gw = graphemeWidth(g);
			if (used + gw > width - 1) break;
			text += g;
			used += gw;
		}
		out.push({ ...span, text: `${text}…` });
		break;
	}
	return width > 0 ? out : [];
}

/** A finished line: every text copied flat (see `flat`), cut to `width` in case a caller's prefix overflowed. */
export function makeLine(key: string, spans: readonly Span[], width: number): Line {
	// A tab left in the text would be laid out by the terminal, not by us: one column, counted.
	const untabbed = spans.some((s) => s.text.includes("\t"))
		? spans.map((s) => ({ ...s, text: s.text.replace(/\t/g, " ") }))
		: spans;
	const fitted = fitSpans(untabbed, width);
	for (let i = 0; i < fitted.length; i++) {
		const span = fitted[i] as Span;
		fitted[i] = { ...span, text: flat(span.text) };
	}
	return { key, spans: fitted };
}

/** Rows with `first` before the first one and `rest` before the others (a bullet and its hanging indent). */
export function prefixRows(rows: Span[][], first: readonly Span[], rest: readonly Span[]): Span[][] {
	return rows.map((row, i) => [...(i === 0 ? first : rest), ...row]);
}

type Piece = { text: string; style: Style; width: number };
type Token = { kind: "word"; pieces: Piece[]; width: number } | { kind: "space"; piece: Piece } | { kind: "nl" };

const PARTS = /\n|[ ]+|[^ \n]+/g;

function tokenize(spans: readonly Span[]): Token[] {
	const tokens: Token[] = [];
	let word: (Token & { kind: "word" }) | null = null;
	for (const span of spans) {
		const { text, ...style } = span;
		for (const match of text.matchAll(PARTS)) {
			const part = match[0];
			if (part === "\n" || part.charCodeAt(0) === 32) {
				word = null;
				tokens.push(
					part === "\n" ? { kind: "nl" } : { kind: "space", piece: { text: part, style, width: part.length } },
				);
				continue;
			}
			if (!word) {
				word = { kind: "word", pieces: [], width: 0 };
				tokens.push(word);
			}
			const width = textWidth(part);
			word.pieces.push({ text: part, style, width });
			word.width += width;
		}
	}
	return tokens;
}

/**
 * Word-wraps styled text: rows of at most `firstWidth` columns, then `restWidth`. Newlines break rows; spaces at a
 * wrap are dropped; a word wider than a row is broken between graphemes (never inside one). O(text).
 */
export function wrapSpans(spans: readonly Span[], firstWidth: number, restWidth = firstWidth): Span[][] {
	const rows: Span[][] = [];
	let row: Span[] = [];
	let lastStyle: Style | null = null;
	let used = 0;
	let avail = Math.max(1, firstWidth);
	let soft = false;
	// Widened on purpose: `newRow` (a closure) also resets it, which control-flow narrowing cannot see.
	let space = null as Piece | null;
	const newRow = (wrapped: boolean) => {
		rows.push(row);
		row = [];
		lastStyle = null;
		used = 0;
		avail = Math.max(1, restWidth);
		soft = wrapped;
		space = null;
	};
	const emit = (text: string, style: Style, width: number) => {
		const last = row[row.length - 1];
		if (last && lastStyle === style) last.text += text;
		else row.push({ text, ...style });
		lastStyle = style;
		used += width;
	};
	const breakPiece = (piece: Piece) => {
		let run = "";
		let runWidth = 0;
		for (const g of graphemes(piece.text)) {
			const gw = graphemeWidth(g);
			if (used + runWidth + gw > avail && (row.length > 0 || run !== "")) {
				if (run !== "") emit(run, piece.style, runWidth);
				run = "";
				runWidth = 0;
				newRow(true);
			}
			// A grapheme wider than a whole row (a wide character in one column) shows as "…".
			if (gw > avail) emit("…", piece.style, 1);
			else {
				run += g;
				runWidth += gw;
			}
		}
		if (run !== "") emit(run, piece.style, runWidth);
	};
	for (const token of tokenize(spans)) {
		if (token.kind === "nl") newRow(false);
		else if (token.kind === "space") {
			if (soft && row.length === 0) continue;
			const held = space;
			space = held
				? { ...token.piece, text: held.text + token.piece.text, width: held.width + token.piece.width }
				: token.piece;
		} else {
			const pending = space;
			space = null;
			const spaceWidth = pending ? pending.width : 0;
			if (used + spaceWidth + token.width <= avail) {
				if (pending) emit(pending.text, pending.style, spaceWidth);
				for (const piece of token.pieces) emit(piece.text, piece.style, piece.width);
			} else if (row.length > 0 && token.width <= Math.max(1, restWidth)) {
				newRow(true);
				for (const piece of token.pieces) emit(piece.text, piece.style, piece.width);
			} else {
				// Wider than any row: break it from here, so it fills this row first.
				if (pending && used + spaceWidth < avail) emit(pending.text, pending.style, spaceWidth);
				for (const piece of token.pieces) breakPiece(piece);
			}
		}
	}
	rows.push(row);
	return rows;
}
