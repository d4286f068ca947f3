import { memo, useRef } from "react";
import type { ChatItem } from "../view/state.js";
import { ChatPane } from "./chat/ChatPane.js";
import { LineCache } from "./chat/line-cache.js";
import { type Line, makeLine } from "./chat/lines.js";
import { visibleLines } from "./chat/window.js";
import { packParts } from "./fit-parts.js";
import type { UiStore } from "./store.js";
import { useTheme } from "./theme-context.js";

const WELCOME = "Type a task and press Enter.";
const WELCOME_KEYS = ["Esc stops a run", "Ctrl+D quits", "Tab inspector", "PgUp/PgDn scroll"];

export type ChatProps = { store: UiStore; width: number; height: number; version: number };

/** How many lines the items after the anchor add (what arrived while the person scrolled up). */
function linesAfter(items: readonly ChatItem[], from: number, cache: LineCache, width: number, store: UiStore): number {
	let n = 0;
	for (let i = from; i < items.length; i++) {
		const item = items[i];
		if (item) n += cache.lines(item, width, store.expanded.has(item.key)).length;
	}
	return n;
}

/**
 * The chat pane: only the lines on screen are built (from per-item line caches, walking from the bottom), so a
 * 10,000-entry session draws as fast as an empty one. While scrolled up, new output does not move the view and a
 * "↓ N new lines" marker shows.
 */
export const Chat = memo(function Chat({ store, width, height }: ChatProps) {
	const theme = useTheme();
	const cacheRef = useRef<LineCache | null>(null);
	cacheRef.current ??= new LineCache(theme);
	const cache = cacheRef.current;
	// A new theme (/theme) re-renders each item once as it is shown: the cache is keyed by theme.
	cache.setTheme(theme);
	const all = store.view.items;
	const anchored = store.anchor !== null && store.anchor < all.length;
	const newLines = anchored ? linesAfter(all, store.anchor ?? all.length, cache, width, store) : 0;
	const rows = newLines > 0 ? height - 1 : height;
	// While scrolled up the view ends at the anchor: what arrived since stays below it, counted in the marker.
	const window = visibleLines(all, cache, {
		end: anchored ? (store.anchor ?? all.length) : all.length,
		width,
		height: rows,
		scroll: store.scroll,
		expanded: (item) => store.expanded.has(item.key),
	});
	// Scrolled past the top: remember where the top really is, so scrolling down responds at once.
	if (window.atTop && store.scroll > 0) store.scroll = Math.max(0, window.hiddenBelow);
	let lines: Line[] = window.lines;
	if (all.length === 0) {
		// The keys wrap whole, never cut in the middle of one, however narrow the chat is.
		const rows = [WELCOME, ...packParts(WELCOME_KEYS, width)];
		lines = rows.map((text, i) => makeLine(`welcome:${i}`, [{ text, color: theme.muted }], width));
	}
	if (newLines > 0) {
		const text = `↓ ${newLines} new line${newLines === 1 ? "" : "s"} (End to follow)`;
		const marker = makeLine("new-lines", [{ text, color: theme.accent }], width);
		lines = [...lines, marker];
	}
	return <ChatPane lines={lines} width={width} height={height} />;
});
