import { memo, useLayoutEffect, useMemo, useRef } from "react";
import type { ChatItem } from "../../view/state.js";
import { ChatPane } from "../chat/ChatPane.js";
import { LineCache } from "../chat/line-cache.js";
import { type Line, makeLine, type Span } from "../chat/lines.js";
import { visibleLines, type WindowOptions } from "../chat/window.js";
import type { UiStore } from "../state/store.js";
import { matcher } from "../state/transcript.js";
import { useTheme } from "../theme/context.js";
import { packParts } from "./fit-parts.js";

const WELCOME = "Type a task and press Enter.";
const WELCOME_KEYS = ["Esc stops a run", "Ctrl+D quits", "Tab inspector", "PgUp/PgDn scroll"];

export type ChatProps = { store: UiStore; width: number; height: number; version: number };

/** How many lines the items after the anchor add (what arrived while the person scrolled up). */
function linesAfter(items: readonly ChatItem[], from: number, cache: LineCache, width: number, store: UiStore): number {
	let n = 0;
	for (let i = from; i < items.length; i++) {
		const item = items[i];
		if (item) n += cache.lines(item, width, store.expanded.has(item.key), store.folded.has(item.key)).length;
	}
	return n;
}

/** The transcript mode's part of the window: its cursor's block behind `bar`, brought on screen after a move. */
function transcriptOptions(store: UiStore, bar: Span): Pick<WindowOptions, "cursor" | "reveal"> {
	const t = store.transcript;
	if (!t) return {};
	const cursor = { index: t.cursor, bar };
	if (!t.reveal) return { cursor };
	const { match, partly } = t.reveal;
	const matches = match === undefined ? undefined : matcher(match);
	const line = matches && ((l: Line) => matches(l.spans.map((s) => s.text).join("")));
	return { cursor, reveal: { index: t.cursor, partly, line } };
}

/**
 * The chat pane: only the lines on screen are built (from per-item line caches), so a 100,000-entry session draws,
 * scrolls and jumps to its top as fast as an empty one. While scrolled up, the view is held at its top line (new
 * output, a streaming reply included, does not move it) and a "↓ N new lines" marker counts the items that came.
 */
export const Chat = memo(function Chat({ store, width, height }: ChatProps) {
	const theme = useTheme();
	const cacheRef = useRef<LineCache | null>(null);
	cacheRef.current ??= new LineCache(theme);
	const cache = cacheRef.current;
	// A new theme (/theme) re-renders each item once as it is shown: the cache is keyed by theme.
	cache.setTheme(theme);
	const all = store.view.items;
	const expanded = (item: ChatItem) => store.expanded.has(item.key);
	const folded = (item: ChatItem) => store.folded.has(item.key);
	const bar = useMemo<Span>(() => ({ text: "▌ ", color: theme.accent }), [theme]);
	const transcript = transcriptOptions(store, bar);
	const anchored = store.anchor !== null && store.anchor < all.length;
	const newLines = anchored ? linesAfter(all, store.anchor ?? all.length, cache, width, store) : 0;
	// While scrolled up the view ends at the anchor: what arrived since stays below it, counted in the marker.
	let window = visibleLines(all, cache, {
		end: anchored ? (store.anchor ?? all.length) : all.length,
		width,
		height: newLines > 0 ? height - 1 : height,
		top: store.top,
		move: store.scroll,
		expanded,
		folded,
		...transcript,
	});
	// Scrolled down to the anchor's last line: the view follows the whole chat again.
	if (window.top === null && anchored)
		window = visibleLines(all, cache, { width, height, expanded, folded, cursor: transcript.cursor });
	// Once drawn (never while drawing), the store holds the view where it is: the scroll asked for is done.
	const top = window.top;
	useLayoutEffect(() => store.scrolledTo(top));
	let lines: Line[] = window.lines;
	if (all.length === 0) {
		// The keys wrap whole, never cut in the middle of one, however narrow the chat is.
		const rows = [WELCOME, ...packParts(WELCOME_KEYS, width)];
		lines = rows.map((text, i) => makeLine(`welcome:${i}`, [{ text, color: theme.muted }], width));
	}
	if (window.top !== null && newLines > 0) {
		const text = `↓ ${newLines} new line${newLines === 1 ? "" : "s"} (End to follow)`;
		const marker = makeLine("new-lines", [{ text, color: theme.accent }], width);
		lines = [...lines, marker];
	}
	return <ChatPane lines={lines} width={width} height={height} />;
});
