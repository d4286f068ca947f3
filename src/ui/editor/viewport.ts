import type { TextBuffer } from "./text-buffer.js";
import type { Row } from "./wrap.js";

/** The editor shows at most this many rows and scrolls within them. */
export const MAX_ROWS = 10;

/** A visual row on screen: a piece `[start, end)` of logical line `line`. */
export type VisualRow = { line: number; start: number; end: number };
/** The editor's rows on screen and the cursor's row and column in them. */
export type EditorView = { rows: VisualRow[]; cursor: { row: number; column: number } };
/** A row of the text: row `sub` of logical line `line` as wrapped. */
export type RowPosition = { line: number; sub: number };

const before = (a: RowPosition, b: RowPosition) => a.line < b.line || (a.line === b.line && a.sub < b.sub);

/** The rows of `buffer`'s text at `width` columns, walked row by row; each step wraps one line at most. */
class Rows {
	constructor(
		private readonly buffer: TextBuffer,
		private readonly width: number,
	) {}

	of(line: number): Row[] {
		return this.buffer.wrap(this.buffer.lines[line] as string, this.width);
	}

	visual(pos: RowPosition): VisualRow {
		const row = this.of(pos.line)[pos.sub] as Row;
		return { line: pos.line, start: row.start, end: row.end };
	}

	/** `pos`, or the last row there is when the text has shrunk under it. */
	clamp(pos: RowPosition): RowPosition {
		const last = this.buffer.lines.length - 1;
		if (pos.line > last) return { line: last, sub: this.of(last).length - 1 };
		return { line: pos.line, sub: Math.min(pos.sub, this.of(pos.line).length - 1) };
	}

	prev(pos: RowPosition): RowPosition | null {
		if (pos.sub > 0) return { line: pos.line, sub: pos.sub - 1 };
		if (pos.line === 0) return null;
		return { line: pos.line - 1, sub: this.of(pos.line - 1).length - 1 };
	}

	next(pos: RowPosition): RowPosition | null {
		if (pos.sub < this.of(pos.line).length - 1) return { line: pos.line, sub: pos.sub + 1 };
		if (pos.line >= this.buffer.lines.length - 1) return null;
		return { line: pos.line + 1, sub: 0 };
	}
}

/**
 * The rows on screen at `width` from first row `from` down (at most MAX_ROWS), the first row moved as little as keeps
 * the cursor in view, and no room left empty below while there are rows above; with the cursor's place in them.
 * O(the rows on screen), never O(the text).
 */
export function scrolled(buffer: TextBuffer, from: RowPosition, width: number): { top: RowPosition; view: EditorView } {
	const rows = new Rows(buffer, width);
	const { sub, column } = buffer.cursorCell(width);
	const cursor: RowPosition = { line: buffer.row, sub };
	let top = rows.clamp(from);
	if (before(cursor, top)) top = cursor;
	// The lowest top that still shows the cursor on the last row.
	let lowest = cursor;
	for (let i = 1; i < MAX_ROWS; i++) lowest = rows.prev(lowest) ?? lowest;
	if (before(top, lowest)) top = lowest;
	const shown: VisualRow[] = [];
	let cursorRow = 0;
	for (let pos: RowPosition | null = top; pos && shown.length < MAX_ROWS; pos = rows.next(pos)) {
		if (pos.line === cursor.line && pos.sub === cursor.sub) cursorRow = shown.length;
		shown.push(rows.visual(pos));
	}
	// Fewer rows than room below: show more above instead (after deleting at the end).
	for (let p = rows.prev(top); p && shown.length < MAX_ROWS; p = rows.prev(p)) {
		top = p;
		shown.unshift(rows.visual(p));
		cursorRow++;
	}
	return { top, view: { rows: shown, cursor: { row: cursorRow, column } } };
}

/** How many rows the text takes at `width`, at most MAX_ROWS (it stops counting there). */
export function rowCount(buffer: TextBuffer, width: number): number {
	let count = 0;
	const { lines } = buffer;
	for (let i = 0; i < lines.length && count < MAX_ROWS; i++) count += buffer.wrap(lines[i] as string, width).length;
	return Math.min(MAX_ROWS, count);
}
