import { graphemes, graphemeWidth } from "./graphemes.js";

/** One visual row of a logical line: `[start, end)` in UTF-16 units, and its width in columns. */
export type Row = { start: number; end: number; width: number };

/** Columns a grapheme takes in the editor; a paste placeholder takes its label's width. */
export type Measure = (grapheme: string) => number;

/** Rows per (width, line), one cache per measure: a buffer's placeholders are measured by its own registry. */
const caches = new WeakMap<Measure, Map<string, Row[]>>();
const CACHE_LIMIT = 512;

/**
 * The visual rows of `line` at `width` columns: words move to the next row when they do not fit, a word longer than
 * a row is cut between graphemes, and a grapheme wider than the row gets a row of its own. An empty line is one row.
 * Cached per (line, width) so a keypress re-wraps only the line it changed. `measure`: the buffer's (placeholders
 * as their labels); by default a line without placeholders.
 */
export function wrapLine(line: string, width: number, measure: Measure = graphemeWidth): Row[] {
	const w = Math.max(1, width);
	const key = `${w}\u0000${line}`;
	let cache = caches.get(measure);
	if (!cache) {
		cache = new Map();
		caches.set(measure, cache);
	}
	const hit = cache.get(key);
	if (hit) return hit;
	const rows = layout(line, w, measure);
	if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
	cache.set(key, rows);
	return rows;
}

function layout(line: string, width: number, measure: Measure): Row[] {
	if (line === "") return [{ start: 0, end: 0, width: 0 }];
	const rows: Row[] = [];
	let start = 0;
	let used = 0;
	let at = 0;
	// The last place a row may end (after a space), with the width up to it.
	let breakAt = -1;
	let breakWidth = 0;
	for (const g of graphemes(line)) {
		const gw = measure(g);
		if (used + gw > width && at > start) {
			if (breakAt > start && g !== " ") {
				rows.push({ start, end: breakAt, width: breakWidth });
				used -= breakWidth;
				start = breakAt;
			} else {
				rows.push({ start, end: at, width: used });
				start = at;
				used = 0;
			}
			breakAt = -1;
		}
		used += gw;
		at += g.length;
		if (g === " ") {
			breakAt = at;
			breakWidth = used;
		}
	}
	rows.push({ start, end: at, width: used });
	return rows;
}

/** The row of `rows` the cursor at `col` is drawn on: a cursor at a row's end belongs to the next row. */
export function rowOf(rows: readonly Row[], col: number): number {
	for (let i = 0; i < rows.length; i++) {
		const row = rows[i] as Row;
		if (col < row.end || i === rows.length - 1) return i;
	}
	return rows.length - 1;
}
