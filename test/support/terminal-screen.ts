// A small terminal emulator for tests: it replays what a program wrote to a terminal and gives back the screen a
// person would see, cell by cell with each cell's style. It knows the sequences Ink and gar write (cursor moves, erases,
// SGR styles, the alternate screen, modes that change nothing on screen) and throws on any other, so a new kind of
// write fails a test instead of being drawn wrong in silence. Where terminals differ it does what tmux does, or, for
// the one difference Ink's frames meet (an erase after the last column was written), either way.

import { segmentGraphemes } from "../../src/term/graphemes.js";
import stringWidth from "../../src/term/string-width.js";

/** One cell: the grapheme cluster drawn there (" " when blank, "" for the second column of a wide one) and its style. */
export type Cell = { text: string; style: string };

/**
 * `width` measures a cluster (gar's string-width by default: the widths tmux and xterm give). `pendingWrap` is where the
 * cursor waits after the last column was written: "past" it, so an erase from there erases nothing (tmux, xterm.js,
 * konsole), or "at" it, so an erase from there erases that last column (xterm, urxvt, st, macOS Terminal).
 */
export type ScreenOptions = { width?: (cluster: string) => number; pendingWrap?: "past" | "at" };

const ESC = "\u001b";
const BLANK: Cell = Object.freeze({ text: " ", style: "" });
/** Private modes that change nothing on screen: synchronized output, bracketed paste, mouse and focus reports. */
const QUIET_MODES = new Set([1000, 1002, 1003, 1004, 1006, 1015, 2004, 2026]);
/** SGR attributes set by one code and cleared by another ("22" clears both bold and dim, as terminals do). */
const SET: Record<number, string> = {
	1: "bold",
	2: "dim",
	3: "italic",
	4: "underline",
	5: "blink",
	7: "inverse",
	8: "hidden",
	9: "strike",
	21: "underline",
	53: "overline",
};
const CLEAR: Record<number, string[]> = {
	22: ["bold", "dim"],
	23: ["italic"],
	24: ["underline"],
	25: ["blink"],
	27: ["inverse"],
	28: ["hidden"],
	29: ["strike"],
	55: ["overline"],
};

/**
 * A screen of `columns` × `rows` cells that `write` draws on (see ScreenOptions). A line feed also returns the
 * carriage, as a tty's ONLCR (which libuv's raw mode keeps) makes it do. Writing in the last column leaves a wrap
 * pending: the next character goes to the next row, a cursor move cancels it.
 */
export class TerminalScreen {
	/** Rows that scrolled off the top (a frame drawn too low scrolls the screen). */
	scrolled = 0;
	cursorVisible = true;
	private main: Cell[][];
	private alternate: Cell[][] | undefined;
	private row = 0;
	/** The cursor's column; `columns` while a wrap is pending after the last column was written. */
	private col = 0;
	private saved: { row: number; col: number } | undefined;
	private readonly attributes = new Map<string, string>();
	private readonly width: (cluster: string) => number;
	private readonly erasesLastColumn: boolean;

	constructor(
		readonly columns: number,
		readonly rows: number,
		options: ScreenOptions = {},
	) {
		this.main = this.blankRows(rows);
		this.width = options.width ?? stringWidth;
		this.erasesLastColumn = options.pendingWrap === "at";
	}

	/** Draws `data` as a terminal would. */
	write(data: string): void {
		let text = "";
		for (let i = 0; i < data.length; ) {
			const code = data.charCodeAt(i);
			if (code >= 0x20 && code !== 0x7f) {
				text += data[i];
				i++;
				continue;
			}
			this.print(text);
			text = "";
			i = code === 0x1b ? this.escape(data, i) : this.control(data, i);
		}
		this.print(text);
	}

	/** The text of each row, trailing blanks left out. */
	lines(): string[] {
		return this.screen.map((cells) =>
			cells
				.map((cell) => cell.text)
				.join("")
				.trimEnd(),
		);
	}

	/**
	 * Each row's text with its styles in `⟦…⟧` where they change (`⟦⟧` back to none), trailing unstyled blanks left out,
	 * then the cursor: what two screens must share to look the same and to take the next frame alike.
	 */
	snapshot(): string[] {
		const shown = this.screen.map((cells) => {
			let out = "";
			let style = "";
			let end = cells.length;
			while (end > 0 && cells[end - 1]?.text === " " && cells[end - 1]?.style === "") end--;
			for (const cell of cells.slice(0, end)) {
				if (cell.text === "") continue;
				if (cell.style !== style) out += `⟦${cell.style}⟧`;
				style = cell.style;
				out += cell.text;
			}
			return style === "" ? out : `${out}⟦⟧`;
		});
		return [...shown, `cursor ${this.row},${this.col}${this.cursorVisible ? "" : " hidden"}`];
	}

	private get screen(): Cell[][] {
		return this.alternate ?? this.main;
	}

	private blankRows(count: number): Cell[][] {
		return Array.from({ length: count }, () => Array<Cell>(this.columns).fill(BLANK));
	}

	/** The style of the cells now drawn: the attributes, sorted, one string. */
	private get style(): string {
		return [...this.attributes]
			.map(([key, value]) => (value === "" ? key : `${key}=${value}`))
			.sort()
			.join(" ");
	}

	/** What an erase leaves: a blank in the background colour now set (as xterm, tmux and VTE erase). */
	private get erased(): Cell {
		const bg = this.attributes.get("bg");
		return bg === undefined ? BLANK : { text: " ", style: `bg=${bg}` };
	}

	private print(text: string): void {
		if (text === "") return;
		for (const { segment } of segmentGraphemes(text)) this.put(segment, this.width(segment));
	}

	private put(cluster: string, width: number): void {
		const cells = this.screen[this.row] as Cell[];
		if (width === 0) {
			// A cluster of no width joins the character before it, as terminals join combining marks.
			let x = Math.min(this.col, this.columns) - 1;
			while (x > 0 && cells[x]?.text === "") x--;
			const base = cells[x];
			if (base !== undefined) cells[x] = { ...base, text: base.text + cluster };
			return;
		}
		if (this.col + width > this.columns) {
			this.col = 0;
			this.lineFeed();
			this.put(cluster, width);
			return;
		}
		this.unsplit(cells, this.col, this.col + width);
		const style = this.style;
		cells[this.col] = { text: cluster, style };
		for (let i = 1; i < width; i++) cells[this.col + i] = { text: "", style };
		this.col += width;
	}

	/** Before cells [from, to) change: a wide character cut in two by that is blanked whole, as terminals do. */
	private unsplit(cells: Cell[], from: number, to: number): void {
		if (cells[from]?.text === "" && from > 0) cells[from - 1] = BLANK;
		for (let x = to; cells[x]?.text === ""; x++) cells[x] = BLANK;
	}

	private erase(row: number, from: number, to: number): void {
		const cells = this.screen[row] as Cell[];
		const end = Math.min(to, this.columns);
		if (from >= end) return;
		this.unsplit(cells, from, end);
		cells.fill(this.erased, from, end);
	}

	private lineFeed(): void {
		if (this.row < this.rows - 1) {
			this.row++;
			return;
		}
		this.screen.shift();
		this.screen.push(Array<Cell>(this.columns).fill(this.erased));
		this.scrolled++;
	}

	/** A C0 control character at `i`; returns where the next input starts. */
	private control(data: string, i: number): number {
		const char = data[i];
		if (char === "\r") this.col = 0;
		else if (char === "\n") {
			this.col = 0;
			this.lineFeed();
		} else if (char === "\b") this.col = Math.max(0, Math.min(this.col, this.columns - 1) - 1);
		else if (char !== "\u0007")
			throw new Error(`terminal-screen: no rule for control character ${JSON.stringify(char)}`);
		return i + 1;
	}

	/** The escape sequence at `i`; returns where the next input starts. */
	private escape(data: string, i: number): number {
		const kind = data[i + 1];
		if (kind === "[") {
			const match = /^([<=>?]?)([0-9;:]*)([ -/]*)([@-~])/.exec(data.slice(i + 2, i + 64));
			if (match === null) throw new Error(`terminal-screen: unfinished CSI ${JSON.stringify(data.slice(i, i + 16))}`);
			const [all, prefix = "", params = "", between = "", final = ""] = match;
			this.csi(prefix, params, between, final);
			return i + 2 + all.length;
		}
		if (kind === "]") {
			// An OSC (a title, a hyperlink) ends at BEL or at ST (ESC and a backslash) and draws nothing.
			const bell = data.indexOf("\u0007", i);
			const st = data.indexOf(`${ESC}\\`, i);
			if (bell < 0 && st < 0) throw new Error("terminal-screen: unfinished OSC");
			return bell >= 0 && (st < 0 || bell < st) ? bell + 1 : st + 2;
		}
		if (kind === "7") this.saved = { row: this.row, col: this.col };
		else if (kind === "8") this.restoreCursor();
		else if (kind !== "=" && kind !== ">")
			throw new Error(`terminal-screen: no rule for ${JSON.stringify(data.slice(i, i + 4))}`);
		return i + 2;
	}

	private csi(prefix: string, params: string, between: string, final: string): void {
		const sequence = `ESC[${prefix}${params}${between}${final}`;
		// Keyboard protocols (modifyOtherKeys, kitty's) change what keys send, never the screen.
		if (prefix === "<" || prefix === ">" || prefix === "=") return;
		if (between !== "") throw new Error(`terminal-screen: no rule for ${sequence}`);
		const numbers = params === "" ? [] : params.split(";").map((p) => (p === "" ? 0 : Number(p)));
		if (numbers.some(Number.isNaN)) throw new Error(`terminal-screen: no rule for ${sequence}`); // colon forms
		if (prefix === "?") {
			this.mode(numbers, final, sequence);
			return;
		}
		if (final === "m") {
			this.sgr(numbers, sequence);
			return;
		}
		if (final === "c" || final === "n") return; // a query (device attributes, status): answered, never drawn
		const n = Math.max(1, numbers[0] ?? 1); // a count of 0 moves one, as in every terminal
		const col = Math.min(this.col, this.columns - 1); // a move first ends a pending wrap
		const to = (row: number, column: number) => {
			this.row = Math.max(0, Math.min(this.rows - 1, row));
			this.col = Math.max(0, Math.min(this.columns - 1, column));
		};
		if (final === "A") to(this.row - n, col);
		else if (final === "B") to(this.row + n, col);
		else if (final === "C") to(this.row, col + n);
		else if (final === "D") to(this.row, col - n);
		else if (final === "E") to(this.row + n, 0);
		else if (final === "F") to(this.row - n, 0);
		else if (final === "G") to(this.row, n - 1);
		else if (final === "d") to(n - 1, col);
		else if (final === "H" || final === "f") to(n - 1, Math.max(1, numbers[1] ?? 1) - 1);
		else if (final === "K") this.eraseInLine(numbers[0] ?? 0, sequence);
		else if (final === "J") this.eraseInDisplay(numbers[0] ?? 0, sequence);
		else throw new Error(`terminal-screen: no rule for ${sequence}`);
	}

	private eraseInLine(how: number, sequence: string): void {
		const col = this.erasesLastColumn ? Math.min(this.col, this.columns - 1) : this.col;
		if (how === 0) this.erase(this.row, col, this.columns);
		else if (how === 1) this.erase(this.row, 0, col + 1);
		else if (how === 2) this.erase(this.row, 0, this.columns);
		else throw new Error(`terminal-screen: no rule for ${sequence}`);
	}

	private eraseInDisplay(how: number, sequence: string): void {
		if (how === 0 || how === 1) {
			this.eraseInLine(how, sequence);
			const [from, to] = how === 0 ? [this.row + 1, this.rows] : [0, this.row];
			for (let row = from; row < to; row++) this.erase(row, 0, this.columns);
		} else if (how === 2) for (let row = 0; row < this.rows; row++) this.erase(row, 0, this.columns);
		else if (how !== 3) throw new Error(`terminal-screen: no rule for ${sequence}`); // 3: the scrollback, kept nowhere here
	}

	private mode(numbers: number[], final: string, sequence: string): void {
		if (final !== "h" && final !== "l") throw new Error(`terminal-screen: no rule for ${sequence}`);
		const on = final === "h";
		for (const mode of numbers) {
			if (mode === 25) this.cursorVisible = on;
			else if (mode === 1049) this.alternateScreen(on);
			else if (!QUIET_MODES.has(mode)) throw new Error(`terminal-screen: no rule for ${sequence}`);
		}
	}

	/** 1049: the cursor saved and a blank alternate screen on; off, the main screen back with its cursor. */
	private alternateScreen(on: boolean): void {
		if (on === (this.alternate !== undefined)) return;
		if (on) {
			this.saved = { row: this.row, col: this.col };
			this.alternate = this.blankRows(this.rows);
		} else {
			this.alternate = undefined;
			this.restoreCursor();
		}
	}

	private restoreCursor(): void {
		this.row = this.saved?.row ?? 0;
		this.col = this.saved?.col ?? 0;
	}

	private sgr(numbers: number[], sequence: string): void {
		const codes = numbers.length === 0 ? [0] : numbers;
		for (let i = 0; i < codes.length; i++) {
			const code = codes[i] as number;
			if (code === 0) this.attributes.clear();
			else if (SET[code] !== undefined) this.attributes.set(SET[code], "");
			else if (CLEAR[code] !== undefined) for (const key of CLEAR[code]) this.attributes.delete(key);
			else if ((code >= 30 && code <= 37) || (code >= 90 && code <= 97)) this.attributes.set("fg", String(code));
			else if ((code >= 40 && code <= 47) || (code >= 100 && code <= 107)) this.attributes.set("bg", String(code));
			else if (code === 39) this.attributes.delete("fg");
			else if (code === 49) this.attributes.delete("bg");
			else if (code === 38 || code === 48) {
				// 38;5;n or 38;2;r;g;b (48 for the background)
				const size = codes[i + 1] === 5 ? 2 : codes[i + 1] === 2 ? 4 : 0;
				if (size === 0) throw new Error(`terminal-screen: no rule for ${sequence}`);
				this.attributes.set(code === 38 ? "fg" : "bg", codes.slice(i + 1, i + 1 + size).join(";"));
				i += size;
			} else throw new Error(`terminal-screen: no rule for ${sequence}`);
		}
	}
}
