import type { ChatItem } from "../../view/state.js";
import type { LineCache } from "./line-cache.js";
import type { Line } from "./lines.js";

/** What part of the chat to show: `scroll` counts lines up from the bottom (0 follows the newest line). */
export type WindowOptions = {
	width: number;
	height: number;
	scroll: number;
	expanded: (item: ChatItem) => boolean;
	/** Show the items before this index only (the anchor while scrolled up); default all of them. */
	end?: number;
};

/** The lines on screen (at most `height`), how many lines are below them (the clamped scroll), and whether the
 * first line of the chat is shown. */
export type ChatWindow = { lines: Line[]; hiddenBelow: number; atTop: boolean };

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

/**
 * The chat lines in view, built by walking the items from the bottom until `height + scroll` lines are known:
 * O(lines on screen), however many items the chat holds. A scroll past the top is clamped (see `hiddenBelow`).
 */
export function visibleLines(items: readonly ChatItem[], cache: LineCache, opts: WindowOptions): ChatWindow {
	const height = Math.max(0, opts.height);
	const need = height + Math.max(0, opts.scroll);
	const parts: Line[][] = [];
	let count = 0;
	let lower: ChatItem | null = null;
	let i = Math.min(items.length, opts.end ?? items.length) - 1;
	for (; i >= 0 && count < need; i--) {
		const item = items[i] as ChatItem;
		const lines = cache.lines(item, opts.width, opts.expanded(item));
		if (lines.length === 0) continue;
		if (lower && separated(item, lines, lower)) {
			parts.push([gapAbove(lower)]);
			count++;
		}
		parts.push(lines);
		count += lines.length;
		lower = item;
	}
	const all: Line[] = [];
	for (let p = parts.length - 1; p >= 0; p--) for (const line of parts[p] as Line[]) all.push(line);
	const reachedTop = i < 0;
	const scroll = reachedTop ? Math.min(Math.max(0, opts.scroll), Math.max(0, all.length - height)) : opts.scroll;
	const end = all.length - scroll;
	const start = Math.max(0, end - height);
	return { lines: all.slice(start, end), hiddenBelow: scroll, atTop: reachedTop && start === 0 };
}
