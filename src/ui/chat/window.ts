import type { ChatItem } from "../../view/state.js";
import type { LineCache } from "./line-cache.js";
import type { Line } from "./lines.js";

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
};

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

	private lines(item: ChatItem): readonly Line[] {
		return this.cache.lines(item, this.opts.width, this.opts.expanded(item));
	}

	at(i: number): Block {
		const item = this.items[i] as ChatItem;
		const lines = this.lines(item);
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
	const lines = top && blocks.from(top, height);
	return lines ? { lines, top } : { lines: blocks.bottom(height), top: null };
}
