import type { DocRow, DocSection, Tone } from "../../view/request-view.js";
import { clean, expandTabs, graphemes, textWidth } from "../chat/lines.js";

/** Text fit for one row: controls shown (never run), tabs as spaces, line breaks as spaces. */
function rowText(text: string): string {
	return expandTabs(clean(text)).replace(/\n/g, " ");
}

/** One line of the document: a header row, a section's title, or a row of an open section. */
export type DocLine = {
	text: string;
	tone: Tone /** The section it belongs to (-1: the header). */;
	section: number;
	title?: boolean;
};

/** A row on screen: part of one line (a long line wraps), and where the current search hit falls in it. */
export type ShownRow = { line: DocLine; text: string; hit?: { start: number; end: number }; selected?: boolean };

/** A search hit: the section (-1: the header), the row in it, and the character offset of the match. */
type Hit = { section: number; row: number; at: number };

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const INDENT = "    ";

/** Where a line's own text starts in it: after a title's "▸ 2 ", a row's indent; a header row at once. */
function offsetOf(line: DocLine): number {
	if (line.title) return 3 + String(line.section + 1).length;
	return line.section >= 0 ? INDENT.length : 0;
}

/** A line cut into rows of at most `width` columns: by characters for ASCII, by graphemes and their widths else. */
export function wrapRow(text: string, width: number): string[] {
	if (text.length <= width && PRINTABLE_ASCII.test(text)) return [text];
	if (PRINTABLE_ASCII.test(text)) {
		const rows: string[] = [];
		for (let i = 0; i < text.length; i += width) rows.push(text.slice(i, i + width));
		return rows;
	}
	const rows: string[] = [];
	let row = "";
	let used = 0;
	for (const g of graphemes(text)) {
		const w = textWidth(g);
		if (used + w > width && row !== "") {
			rows.push(row);
			row = "";
			used = 0;
		}
		row += g;
		used += w;
	}
	rows.push(row);
	return rows;
}

/**
 * A document of foldable sections on screen (the request viewer): which sections are open, the selected one, the row
 * at the top, and a search. Only what is on screen is wrapped and drawn; the lines are made again only when a section
 * opens or closes, their layout only when the width changes, and a section's rows once (the raw JSON of a large
 * request is the only costly one, and it is made only when opened or searched).
 */
export class DocView {
	readonly open = new Set<string>();
	/** The selected section (Enter folds it). */
	selected = 0;
	/** The first row on screen. */
	top = 0;
	/** The query being typed after `/` (null: not typing). */
	typing: string | null = null;
	query = "";
	private hits: Hit[] = [];
	private current = -1;
	private readonly rowsOf = new Map<number, DocRow[]>();
	private built: DocLine[] | null = null;
	private layout: { width: number; starts: number[]; total: number; wrapped: Map<number, string[]> } | null = null;

	constructor(
		readonly header: readonly DocRow[],
		readonly sections: readonly DocSection[],
	) {}

	/** The rows of section `index`, made once. */
	private sectionRows(index: number): DocRow[] {
		let rows = this.rowsOf.get(index);
		if (!rows) {
			rows = (this.sections[index]?.rows() ?? []).map((row) => ({ ...row, text: rowText(row.text) }));
			this.rowsOf.set(index, rows);
		}
		return rows;
	}

	/** Every line: the header, a blank line, then each section's title and, when open, its rows. */
	lines(): DocLine[] {
		if (this.built) return this.built;
		const out: DocLine[] = this.header.map((row) => ({
			text: rowText(row.text),
			tone: row.tone ?? "text",
			section: -1,
		}));
		if (out.length > 0) out.push({ text: "", tone: "text", section: -1 });
		for (const [i, section] of this.sections.entries()) {
			const open = this.open.has(section.id);
			const title = `${open ? "▾" : "▸"} ${i + 1} ${rowText(section.title)}`;
			out.push({ text: title, tone: "title", section: i, title: true });
			if (!open) continue;
			for (const row of this.sectionRows(i))
				out.push({ text: INDENT + row.text, tone: row.tone ?? "text", section: i });
		}
		this.built = out;
		this.layout = null;
		return out;
	}

	/** Where each line starts in rows at `width`, and how many rows there are. O(lines) once per width or fold. */
	private laidOut(width: number) {
		if (this.layout?.width === width) return this.layout;
		const lines = this.lines();
		const starts: number[] = new Array(lines.length);
		const wrapped = new Map<number, string[]>();
		let total = 0;
		for (const [i, line] of lines.entries()) {
			starts[i] = total;
			if (PRINTABLE_ASCII.test(line.text)) total += Math.max(1, Math.ceil(line.text.length / width));
			else {
				const rows = wrapRow(line.text, width);
				wrapped.set(i, rows);
				total += rows.length;
			}
		}
		this.layout = { width, starts, total, wrapped };
		return this.layout;
	}

	/** How many rows the document has at `width`. */
	total(width: number): number {
		return this.laidOut(width).total;
	}

	/** The line a row belongs to, and which of its rows it is (binary search). */
	private lineAt(row: number, width: number): { index: number; part: number } {
		const { starts } = this.laidOut(width);
		let lo = 0;
		let hi = starts.length - 1;
		while (lo < hi) {
			const mid = (lo + hi + 1) >> 1;
			if ((starts[mid] as number) <= row) lo = mid;
			else hi = mid - 1;
		}
		return { index: lo, part: row - (starts[lo] as number) };
	}

	/** The rows on screen: `height` rows from the top, each a piece of one line. O(height). */
	visible(width: number, height: number): ShownRow[] {
		this.clamp(width, height);
		const lines = this.lines();
		const layout = this.laidOut(width);
		const hit = this.hits[this.current];
		const out: ShownRow[] = [];
		for (let row = this.top; row < Math.min(layout.total, this.top + height); row++) {
			const { index, part } = this.lineAt(row, width);
			const line = lines[index] as DocLine;
			const pieces = layout.wrapped.get(index);
			const text = pieces ? (pieces[part] ?? "") : line.text.slice(part * width, (part + 1) * width);
			const shown: ShownRow = { line, text };
			if (line.title && line.section === this.selected) shown.selected = true;
			if (hit && !pieces && this.lineOf(hit) === index) {
				const start = hit.at + offsetOf(line) - part * width;
				const end = start + this.query.length;
				if (end > 0 && start < text.length) shown.hit = { start: Math.max(0, start), end: Math.min(text.length, end) };
			}
			out.push(shown);
		}
		return out;
	}

	/** Keeps the top row within the document. */
	clamp(width: number, height: number): void {
		this.top = Math.max(0, Math.min(this.top, this.total(width) - height));
	}

	scrollBy(rows: number, width: number, height: number): void {
		this.top += rows;
		this.clamp(width, height);
	}

	/** Opens or closes a section (default: the selected one); it stays where it was on screen. */
	toggle(index = this.selected): void {
		const section = this.sections[index];
		if (!section) return;
		this.selected = index;
		if (this.open.has(section.id)) this.open.delete(section.id);
		else this.open.add(section.id);
		this.built = null;
	}

	/** Selects the next (or previous) section and brings its title on screen. */
	select(step: number, width: number, height: number): void {
		const count = this.sections.length;
		this.selected = (this.selected + step + count) % count;
		this.reveal(this.titleLine(this.selected), width, height);
	}

	private titleLine(section: number): number {
		return this.lines().findIndex((line) => line.title && line.section === section);
	}

	/** The line of a hit, given the sections open now (-1 when its section is closed). */
	private lineOf(hit: Hit): number {
		if (hit.section < 0) return hit.row;
		const title = this.titleLine(hit.section);
		const open = this.open.has(this.sections[hit.section]?.id ?? "");
		return hit.row < 0 ? title : open ? title + 1 + hit.row : -1;
	}

	/** Scrolls so that line `index` is on screen (a third from the top when it was not). */
	private reveal(index: number, width: number, height: number): void {
		const { starts } = this.laidOut(width);
		const row = starts[index] ?? 0;
		if (row < this.top || row >= this.top + height) this.top = row - Math.floor(height / 3);
		this.clamp(width, height);
	}

	/** Finds `query` (any case) in the header, every section's title and rows, the folded ones too. O(document). */
	search(query: string): number {
		this.query = query;
		this.hits = [];
		this.current = -1;
		const needle = query.toLowerCase();
		if (needle === "") return 0;
		const scan = (text: string, section: number, row: number) => {
			const hay = text.toLowerCase();
			for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + needle.length)) {
				this.hits.push({ section, row, at });
			}
		};
		for (const [i, row] of this.header.entries()) scan(rowText(row.text), -1, i);
		for (const [s, section] of this.sections.entries()) {
			scan(rowText(section.title), s, -1);
			for (const [i, row] of this.sectionRows(s).entries()) scan(row.text, s, i);
		}
		return this.hits.length;
	}

	/** The hit shown now (1-based) and how many there are. */
	get found(): { current: number; count: number } {
		return { current: this.current + 1, count: this.hits.length };
	}

	/** Goes to the next (or previous) hit: its section opens, and its line comes on screen. */
	next(step: number, width: number, height: number): boolean {
		if (this.hits.length === 0) return false;
		this.current = (this.current + step + this.hits.length) % this.hits.length;
		const hit = this.hits[this.current] as Hit;
		if (hit.section >= 0) {
			this.selected = hit.section;
			const id = this.sections[hit.section]?.id ?? "";
			if (hit.row >= 0 && !this.open.has(id)) {
				this.open.add(id);
				this.built = null;
			}
		}
		const index = this.lineOf(hit);
		const { starts } = this.laidOut(width);
		const line = this.lines()[index];
		const row = (starts[index] ?? 0) + Math.floor((hit.at + (line ? offsetOf(line) : 0)) / width);
		if (row < this.top || row >= this.top + height) this.top = row - Math.floor(height / 3);
		this.clamp(width, height);
		return true;
	}
}

/** A document open on the doc screen: what it shows, its title, and (a request) how to step to the call before or after. */
export type OpenDoc = {
	doc: DocView;
	title: string;
	/** The request viewer's `[` and `]`: open the call `delta` away (absent: a document of its own). */
	step?: (delta: number) => void;
};
