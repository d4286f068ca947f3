import { graphemes, graphemeWidth, isWordChar, nextBoundary, prevBoundary } from "./graphemes.js";
import { PasteRegistry, shouldCollapse, stripTokens } from "./paste.js";
import { type Measure, type Row, rowOf, wrapLine } from "./wrap.js";

type Snapshot = { lines: string[]; row: number; col: number };
type EditKind = "insert" | "delete" | "other";

const UNDO_LIMIT = 200;

/**
 * The multi-line text being edited: logical lines, a cursor (line `row`, UTF-16 index `col` on a grapheme boundary),
 * undo/redo, and motions by grapheme, word, line and visual row. Pure: no React, no I/O. Every edit and motion costs
 * O(the current line), never O(the whole text); a large paste is one placeholder grapheme (paste.ts), held in the
 * buffer's own registry and freed with the rest of its state (`reset`).
 */
export class TextBuffer {
	/** What the placeholders in this buffer stand for. */
	readonly pastes = new PasteRegistry();
	lines: string[] = [""];
	row = 0;
	col = 0;
	/** The display column up/down keep to, while moving vertically. */
	private goal: number | null = null;
	private undoStack: Snapshot[] = [];
	private redoStack: Snapshot[] = [];
	private lastEdit: EditKind | null = null;

	get text(): string {
		return this.lines.length === 1 ? (this.lines[0] as string) : this.lines.join("\n");
	}

	get empty(): boolean {
		return this.lines.length === 1 && this.lines[0] === "";
	}

	get line(): string {
		return this.lines[this.row] as string;
	}

	/** Inserts typed text at the cursor; `\n` starts a new line. Placeholder characters in it are dropped. */
	insert(text: string): void {
		const clean = stripTokens(text).replace(/\r\n?/g, "\n");
		if (clean === "") return;
		this.edit("insert");
		this.put(clean);
	}

	newline(): void {
		this.edit("other");
		this.put("\n");
	}

	/** A bracketed paste: inserted as text, or as one placeholder when it is large. Never sends anything. */
	paste(text: string): void {
		const clean = stripTokens(text).replace(/\r\n?/g, "\n");
		if (clean === "") return;
		this.edit("other");
		this.put(shouldCollapse(clean) ? this.pastes.make(clean) : clean);
	}

	/** Replaces everything (history recall, the external editor); the cursor goes to the end. Undoable. */
	setText(text: string): void {
		this.edit("other");
		this.lines = text.split("\n");
		this.row = this.lines.length - 1;
		this.col = this.line.length;
	}

	/**
	 * Empties the buffer and forgets undo history and the pastes (after a message was sent, or cleared), except the
	 * pastes of `keep`: text about to be put back.
	 */
	reset(keep = ""): void {
		this.pastes.release(keep);
		this.lines = [""];
		this.row = 0;
		this.col = 0;
		this.goal = null;
		this.undoStack = [];
		this.redoStack = [];
		this.lastEdit = null;
	}

	backspace(): void {
		if (this.col === 0 && this.row === 0) return;
		this.edit("delete");
		if (this.col === 0) {
			this.joinWithPrevious();
			return;
		}
		const from = prevBoundary(this.line, this.col);
		this.setLine(this.line.slice(0, from) + this.line.slice(this.col));
		this.col = from;
	}

	deleteForward(): void {
		const line = this.line;
		if (this.col === line.length && this.row === this.lines.length - 1) return;
		this.edit("delete");
		if (this.col === line.length) {
			const next = this.lines[this.row + 1] as string;
			this.lines.splice(this.row, 2, line + next);
			return;
		}
		this.setLine(line.slice(0, this.col) + line.slice(nextBoundary(line, this.col)));
	}

	deleteWordLeft(): void {
		if (this.col === 0) {
			this.backspace();
			return;
		}
		const from = this.wordStart(this.line, this.col);
		this.edit("other");
		this.setLine(this.line.slice(0, from) + this.line.slice(this.col));
		this.col = from;
	}

	/** Replaces the `count` UTF-16 units before the cursor on its line with `text` (a completion); one undo step. */
	replaceBefore(count: number, text: string): void {
		const from = Math.max(0, this.col - count);
		this.edit("other");
		this.setLine(this.line.slice(0, from) + this.line.slice(this.col));
		this.col = from;
		this.put(stripTokens(text).replace(/\r\n?|\n/g, " "));
	}

	/** Ctrl+U: deletes from the line's start to the cursor (at the start: joins with the line above). */
	deleteToLineStart(): void {
		if (this.col === 0) {
			this.backspace();
			return;
		}
		this.edit("other");
		this.setLine(this.line.slice(this.col));
		this.col = 0;
	}

	/** Ctrl+K: deletes from the cursor to the line's end (at the end: joins with the line below). */
	deleteToLineEnd(): void {
		if (this.col === this.line.length) {
			this.deleteForward();
			return;
		}
		this.edit("other");
		this.setLine(this.line.slice(0, this.col));
	}

	left(): void {
		this.moved();
		if (this.col > 0) this.col = prevBoundary(this.line, this.col);
		else if (this.row > 0) {
			this.row--;
			this.col = this.line.length;
		}
	}

	right(): void {
		this.moved();
		if (this.col < this.line.length) this.col = nextBoundary(this.line, this.col);
		else if (this.row < this.lines.length - 1) {
			this.row++;
			this.col = 0;
		}
	}

	wordLeft(): void {
		this.moved();
		if (this.col === 0) {
			this.left();
			return;
		}
		this.col = this.wordStart(this.line, this.col);
	}

	wordRight(): void {
		this.moved();
		const line = this.line;
		if (this.col === line.length) {
			this.right();
			return;
		}
		let at = this.col;
		while (at < line.length && !isWordChar(line.slice(at, nextBoundary(line, at)))) at = nextBoundary(line, at);
		while (at < line.length && isWordChar(line.slice(at, nextBoundary(line, at)))) at = nextBoundary(line, at);
		this.col = at;
	}

	home(): void {
		this.moved();
		this.col = 0;
	}

	end(): void {
		this.moved();
		this.col = this.line.length;
	}

	/** Moves up one visual row at `width` columns; false when already on the first row (history's turn). */
	up(width: number): boolean {
		return this.vertical(width, -1);
	}

	/** Moves down one visual row; false when already on the last row. */
	down(width: number): boolean {
		return this.vertical(width, 1);
	}

	/** The cursor's visual position: its row within its line's rows, and its column. */
	cursorCell(width: number): { rows: Row[]; sub: number; column: number } {
		const rows = this.wrap(this.line, width);
		const sub = rowOf(rows, this.col);
		const start = (rows[sub] as Row).start;
		return { rows, sub, column: columnsOf(this.line.slice(start, this.col), this.pastes.measure) };
	}

	/** The visual rows of `line` (one of this buffer's) at `width` columns, placeholders as wide as their labels. */
	wrap(line: string, width: number): Row[] {
		return wrapLine(line, width, this.pastes.measure);
	}

	undo(): boolean {
		const snapshot = this.undoStack.pop();
		if (!snapshot) return false;
		this.redoStack.push(this.snapshot());
		this.restore(snapshot);
		return true;
	}

	redo(): boolean {
		const snapshot = this.redoStack.pop();
		if (!snapshot) return false;
		this.undoStack.push(this.snapshot());
		this.restore(snapshot);
		return true;
	}

	private vertical(width: number, step: -1 | 1): boolean {
		const { rows, sub, column } = this.cursorCell(width);
		const goal = this.goal ?? column;
		let targetRow = this.row;
		let target: Row | undefined = rows[sub + step];
		let targetRows = rows;
		if (!target) {
			targetRow = this.row + step;
			if (targetRow < 0 || targetRow >= this.lines.length) return false;
			targetRows = this.wrap(this.lines[targetRow] as string, width);
			target = step < 0 ? targetRows.at(-1) : targetRows[0];
		}
		this.moved();
		this.goal = goal;
		const line = this.lines[targetRow] as string;
		const last = target === targetRows.at(-1);
		this.row = targetRow;
		this.col = colAt(line, target as Row, goal, last, this.pastes.measure);
		return true;
	}

	private wordStart(line: string, col: number): number {
		let at = col;
		while (at > 0 && !isWordChar(line.slice(prevBoundary(line, at), at))) at = prevBoundary(line, at);
		while (at > 0 && isWordChar(line.slice(prevBoundary(line, at), at))) at = prevBoundary(line, at);
		return at;
	}

	/** Inserts text (maybe with newlines) at the cursor. */
	private put(text: string): void {
		const line = this.line;
		const before = line.slice(0, this.col);
		const after = line.slice(this.col);
		if (!text.includes("\n")) {
			this.setLine(before + text + after);
			this.col += text.length;
			return;
		}
		const parts = text.split("\n");
		const lastPart = parts.at(-1) as string;
		parts[0] = before + parts[0];
		parts[parts.length - 1] = lastPart + after;
		this.lines.splice(this.row, 1, ...parts);
		this.row += parts.length - 1;
		this.col = lastPart.length;
	}

	private joinWithPrevious(): void {
		const previous = this.lines[this.row - 1] as string;
		this.lines.splice(this.row - 1, 2, previous + this.line);
		this.row--;
		this.col = previous.length;
	}

	private setLine(text: string): void {
		this.lines[this.row] = text;
	}

	/** Before an edit: a new undo step unless it continues a run of the same kind (typing, deleting). */
	private edit(kind: EditKind): void {
		this.goal = null;
		if (kind === "other" || kind !== this.lastEdit) {
			this.undoStack.push(this.snapshot());
			if (this.undoStack.length > UNDO_LIMIT) this.undoStack.shift();
		}
		this.redoStack = [];
		this.lastEdit = kind;
	}

	/** A cursor motion ends the current run of typing (the next edit is a new undo step). */
	private moved(): void {
		this.lastEdit = null;
		this.goal = null;
	}

	private snapshot(): Snapshot {
		return { lines: this.lines.slice(), row: this.row, col: this.col };
	}

	private restore(snapshot: Snapshot): void {
		this.lines = snapshot.lines;
		this.row = snapshot.row;
		this.col = snapshot.col;
		this.goal = null;
		this.lastEdit = null;
	}
}

/** Display columns of a piece of a line (`measure`: the buffer's, for placeholders). */
export function columnsOf(text: string, measure: Measure = graphemeWidth): number {
	if (/^[\x20-\x7e]*$/.test(text)) return text.length;
	let width = 0;
	for (const g of graphemes(text)) width += measure(g);
	return width;
}

/** The index in `line` within `row` closest to display column `goal` (never past a wide grapheme). */
function colAt(line: string, row: Row, goal: number, lastRow: boolean, measure: Measure): number {
	let used = 0;
	let at = row.start;
	for (const g of graphemes(line.slice(row.start, row.end))) {
		const w = measure(g);
		if (used + w > goal) return at;
		used += w;
		at += g.length;
	}
	// The end of a row that is not the line's last is the next row's start: stay before its last grapheme.
	return lastRow || at < row.end ? at : prevBoundary(line, at);
}
