import type { ChatItem } from "../../view/state.js";
import type { LineCache } from "./line-cache.js";
import type { Line, Span } from "./lines.js";

/**
 * A line of the chat: line `line` of item `index`'s block (the blank line that separates it from the item above, if
 * any, then its own lines). Indices stay put as the chat grows, so a view held at a position does not move.
 */
export type ChatPosition = { index: number; line: number };

/** What part of the chat to show. */
export type WindowOptions = {
	width: number;
	height: number;
	expanded: (item: ChatItem) => boolean;
	/** Show the items before this index only (the anchor while scrolled up); default all of them. */
	end?: number;
	/** The line at the top of the screen; null or absent: the newest lines, at the bottom (following the chat). */
	top?: ChatPosition | null;
	/** Lines to move first: positive up (older), negative down. */
	move?: number;
	/** Long messages folded by hand (the transcript mode); default none. */
	folded?: (item: ChatItem) => boolean;
	/** The transcript mode's cursor: this item's block is drawn behind a bar, two columns narrower. */
	cursor?: { index: number; bar: Span };
	/** Moves the view (after `move`) the least that shows this item's block (see `RevealWant`). */
	reveal?: RevealWant & { index: number };
};

/** What of a block to bring on screen: the first line `line` picks (else its first); `partly`: any of it will do. */
export type RevealWant = { line?: (line: Line) => boolean; partly?: boolean };

/** The lines on screen (at most `height`) and the position of the first; `top` is null when they end at the chat's
 * last line (the view follows the chat). */
export type ChatWindow = { lines: Line[]; top: ChatPosition | null };

const gaps = new WeakMap<ChatItem, Line>();

/** The blank line above `item`, the same object every frame (so its row is not redrawn). */
function gapAbove(item: ChatItem): Line {
	let line = gaps.get(item);
	if (!line) {
		line = { key: `${item.key}:gap`, spans: [] };
		gaps.set(item, line);
	}
	return line;
}

/** A blank line separates items, except runs of one-line tool calls (a burst of reads stays compact). */
function separated(upper: ChatItem, upperLines: readonly Line[], lower: ChatItem): boolean {
	return !(upper.kind === "tool" && lower.kind === "tool" && upperLines.length === 1);
}

/** An item's rows on screen: `gap` (a blank line above it) and then `lines`. */
type Block = { item: ChatItem; gap: boolean; lines: readonly Line[]; size: number };

const lineOf = (block: Block, k: number): Line =>
	block.gap ? (k === 0 ? gapAbove(block.item) : (block.lines[k - 1] as Line)) : (block.lines[k] as Line);

const barred = new WeakMap<readonly Line[], { bar: Span; lines: Line[] }>();

/** The cursor's block: each line behind the bar, the same objects every frame while the lines stay the same. */
function behindBar(lines: readonly Line[], bar: Span): Line[] {
	const hit = barred.get(lines);
	if (hit && hit.bar === bar) return hit.lines;
	const out = lines.map((line) => ({ key: line.key, spans: [bar, ...line.spans] }));
	barred.set(lines, { bar, lines: out });
	return out;
}

/** Whether position `a` comes before `b`. */
const before = (a: ChatPosition, b: ChatPosition) => a.index < b.index || (a.index === b.index && a.line < b.line);

/**
 * The chat's items as blocks of rows, each built on demand from the line cache: walking them costs the items passed,
 * never the whole chat.
 */
class Blocks {
	constructor(
		private readonly items: readonly ChatItem[],
		private readonly cache: LineCache,
		private readonly opts: WindowOptions,
		readonly end: number,
	) {}

	private lines(item: ChatItem, index = -1): readonly Line[] {
		const { width, expanded, folded, cursor } = this.opts;
		if (cursor?.index === index) {
			const bar = cursor.bar.text.length;
			return behindBar(this.cache.lines(item, width - bar, expanded(item), folded?.(item)), cursor.bar);
		}
		return this.cache.lines(item, width, expanded(item), folded?.(item));
	}

	at(i: number): Block {
		const item = this.items[i] as ChatItem;
		const lines = this.lines(item, i);
		let gap = false;
		if (lines.length > 0) {
			// The nearest item above with lines decides the gap (items without lines take no rows).
			for (let j = i - 1; j >= 0; j--) {
				const upper = this.items[j] as ChatItem;
				const upperLines = this.lines(upper);
				if (upperLines.length === 0) continue;
				gap = separated(upper, upperLines, item);
				break;
			}
		}
		return { item, gap, lines, size: lines.length + (gap ? 1 : 0) };
	}

	/** The position `n` rows above `from` (an index of `end` with line 0 is the end of the chat); stops at the top. */
	up(from: ChatPosition, n: number): ChatPosition {
		let { index, line } = from;
		while (n > line) {
			if (index === 0) return { index: 0, line: 0 };
			n -= line;
			index--;
			line = this.at(index).size;
		}
		return { index, line: line - n };
	}

	/** The position `n` rows below `from`; null once it passes the chat's last row. */
	down(from: ChatPosition, n: number): ChatPosition | null {
		let { index, line } = from;
		while (index < this.end) {
			const size = this.at(index).size;
			if (line + n < size) return { index, line: line + n };
			n -= Math.max(0, size - line);
			index++;
			line = 0;
		}
		return null;
	}

	/** The `height` rows from `top` down, or null if the chat ends before they fill the screen or right after them. */
	from(top: ChatPosition, height: number): Line[] | null {
		const out: Line[] = [];
		let { index, line } = top;
		for (; index < this.end; index++, line = 0) {
			const block = this.at(index);
			for (; line < block.size; line++) {
				if (out.length === height) return out;
				out.push(lineOf(block, line));
			}
		}
		return null;
	}

	/**
	 * The top that shows block `index` from `top` (null: the bottom) on a screen `height` rows high: unchanged when the
	 * line wanted (the block's first, or the first `pick` chooses; with `partly`, any of the block) is on screen, else
	 * the least move that brings it there, never past the block's first line. Costs the rows between, at most a screen
	 * and the block.
	 */
	reveal(top: ChatPosition | null, index: number, height: number, want: RevealWant): ChatPosition {
		const block = this.at(index);
		const shown = top ?? this.up({ index: this.end, line: 0 }, height);
		if (block.size === 0) return shown;
		// The screen's last row; null when the chat ends on screen.
		const bottom = this.down(shown, height - 1);
		const below = (p: ChatPosition) => bottom !== null && before(bottom, p);
		if (want.partly && !before({ index, line: block.size - 1 }, shown) && !below({ index, line: 0 })) return shown;
		const found = want.line ? block.lines.findIndex(want.line) : -1;
		// The block's first line with the blank line above it, or the match with a line of what comes before it.
		const first = { index, line: found > 0 ? found + (block.gap ? 1 : 0) - 1 : 0 };
		const last = { index, line: Math.min(block.size, first.line + height) - 1 };
		if (before(first, shown)) return first;
		if (!below(last)) return shown;
		// Below the screen: the lines wanted end at its last row.
		const moved = this.up(last, height - 1);
		return before(first, moved) ? first : moved;
	}

	/** The last `height` rows of the chat. */
	bottom(height: number): Line[] {
		const out: Line[] = [];
		for (let index = this.end - 1; index >= 0 && out.length < height; index--) {
			const block = this.at(index);
			for (let line = block.size - 1; line >= 0 && out.length < height; line--) out.push(lineOf(block, line));
		}
		return out.reverse();
	}
}

/**
 * The chat lines in view: from `top` (moved by `move`) down, or the last `height` lines when following. Costs the
 * lines on screen plus the lines moved, however many items the chat holds: a jump to the top (`top` at item 0) costs
 * what a page does. A view that reaches the chat's last line follows it again (`top` null).
 */
export function visibleLines(items: readonly ChatItem[], cache: LineCache, opts: WindowOptions): ChatWindow {
	const height = Math.max(0, opts.height);
	const blocks = new Blocks(items, cache, opts, Math.min(items.length, opts.end ?? items.length));
	const move = opts.move ?? 0;
	let top: ChatPosition | null = opts.top ?? null;
	if (top && top.index >= blocks.end) top = null;
	if (top === null && move > 0) top = blocks.up({ index: blocks.end, line: 0 }, height + move);
	else if (top && move > 0) top = blocks.up(top, move);
	else if (top && move < 0) top = blocks.down(top, -move);
	const { reveal } = opts;
	if (reveal && reveal.index < blocks.end && height > 0) top = blocks.reveal(top, reveal.index, height, reveal);
	const lines = top && blocks.from(top, height);
	return lines ? { lines, top } : { lines: blocks.bottom(height), top: null };
}
