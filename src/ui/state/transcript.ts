import { hookLine } from "../../view/hook-line.js";
import type { ChatItem } from "../../view/state.js";
import { foldsWhenLong, isOpen, startsFolded } from "../chat/folds.js";
import type { UiStore } from "./store.js";

/**
 * The transcript mode: a cursor on one block of the chat (an item), which Enter opens or folds, `/` searches from, and
 * Esc leaves (back to the bottom). Every key costs the items it passes, never the whole chat; a search costs the
 * items it reads until the first match.
 */
export type Transcript = {
	/** The item the cursor is on: an index into the view's items. */
	cursor: number;
	/**
	 * The chat brings the cursor's block on screen at its next frame (after a move), then lets the person scroll away:
	 * `match`, a search's query, picks the first line showing it; `partly`: a block already partly on screen stays.
	 */
	reveal: { match?: string; partly?: boolean } | null;
	/** The search line while it is typed (after `/`); null otherwise. */
	typing: string | null;
	/** The last query searched: n and N look for it again. */
	query: string | null;
	/** A block a search opened: folded again when the cursor leaves it, unless Enter toggled it meanwhile. */
	opened: string | null;
};

/** How far back Ctrl+O looks for a folded block: a key costs what a screen does, however long the chat. */
const LOOKBACK = 500;

/** Whether an item takes no rows in the chat (an empty reply): the cursor passes over it. */
function blank(item: ChatItem | undefined): boolean {
	return item === undefined || (item.kind === "text" && item.text.trim() === "");
}

/** The nearest item from `from` in the direction of `step` that has rows, or -1. */
function nearest(items: readonly ChatItem[], from: number, step: 1 | -1): number {
	for (let i = from; i >= 0 && i < items.length; i += step) if (!blank(items[i])) return i;
	return -1;
}

/**
 * Ctrl+O in the chat: the transcript mode, with the cursor on the newest block that starts folded (tool output,
 * thinking, a paste, a `!command`; among the last LOOKBACK), which opens or folds as Ctrl+O did before the mode; else
 * on the newest block.
 */
export function enterTranscript(store: UiStore): void {
	const items = store.view.items;
	let cursor = -1;
	for (let i = items.length - 1; i >= Math.max(0, items.length - LOOKBACK) && cursor === -1; i--)
		if (startsFolded(items[i] as ChatItem)) cursor = i;
	const toggle = cursor !== -1;
	if (!toggle) cursor = nearest(items, items.length - 1, -1);
	if (cursor === -1) {
		store.flashHint("the chat is empty: nothing to look through yet");
		return;
	}
	store.transcript = { cursor, reveal: { partly: true }, typing: null, query: null, opened: null };
	if (toggle) store.toggleItem(items[cursor] as ChatItem);
	else store.changed();
}

/** Esc: leaves the mode, back to the bottom (following the chat); what was opened or folded stays so. */
export function leaveTranscript(store: UiStore): void {
	if (!store.transcript) return;
	store.transcript = null;
	store.changed();
	store.toBottom();
}

/** Puts the cursor on item `index` and has the chat show it; a block a search opened and the cursor left folds. */
function moveTo(store: UiStore, index: number, reveal: NonNullable<Transcript["reveal"]> = {}): void {
	const t = store.transcript;
	if (!t) return;
	const left = store.view.items[t.cursor];
	if (t.opened !== null && left?.key === t.opened && index !== t.cursor) {
		if (isOpen(left, store.expanded, store.folded)) store.toggleItem(left);
		t.opened = null;
	}
	t.cursor = index;
	t.reveal = reveal;
	// The view is held by its top line from now on: what arrives below does not move it.
	store.anchor = null;
	store.changed();
}

/** ↑ / ↓: the block above or below the cursor (blank ones passed over); nothing past the first or the last. */
export function moveCursor(store: UiStore, step: 1 | -1): void {
	const t = store.transcript;
	if (!t) return;
	const items = store.view.items;
	const next = nearest(items, Math.min(t.cursor, items.length) + step, step);
	moveTo(store, next === -1 ? Math.min(t.cursor, items.length - 1) : next);
}

/** Home / End: the first block or the newest one. */
export function cursorToEdge(store: UiStore, edge: "first" | "last"): void {
	const items = store.view.items;
	const index = edge === "first" ? nearest(items, 0, 1) : nearest(items, items.length - 1, -1);
	if (index !== -1) moveTo(store, index);
}

/** Enter: opens or folds the block under the cursor (a block with nothing folded says so). */
export function toggleCursor(store: UiStore): void {
	const t = store.transcript;
	const item = t ? store.view.items[t.cursor] : undefined;
	if (!t || !item) return;
	if (!startsFolded(item) && !foldsWhenLong(item)) {
		store.flashHint("this block has nothing to fold");
		return;
	}
	// Toggled by hand: it stays as the person left it.
	if (t.opened === item.key) t.opened = null;
	// Opened, it may grow past the screen: its first line stays in sight (the view held from now on).
	t.reveal = {};
	store.anchor = null;
	store.toggleItem(item);
}

/** `/`: the search line opens (what was searched last is kept for n). */
export function startFind(store: UiStore): void {
	if (!store.transcript) return;
	store.transcript.typing = "";
	store.changed();
}

/** Typing and Backspace on the search line. */
export function editFind(store: UiStore, edit: { type: string } | "backspace"): void {
	const t = store.transcript;
	if (t?.typing == null) return;
	t.typing = edit === "backspace" ? Array.from(t.typing).slice(0, -1).join("") : t.typing + edit.type;
	store.changed();
}

/** Esc on the search line: closes it, the cursor where it was. */
export function cancelFind(store: UiStore): void {
	if (!store.transcript) return;
	store.transcript.typing = null;
	store.changed();
}

/** Enter on the search line: looks for what was typed, from the cursor up (older blocks first). */
export function runFind(store: UiStore): void {
	const t = store.transcript;
	if (t?.typing == null) return;
	const query = t.typing;
	t.typing = null;
	if (query.trim() === "") {
		store.changed();
		return;
	}
	t.query = query;
	findNext(store, -1);
}

/**
 * n (`step` -1: older) and N (1: newer): the next block that mentions the last query, wrapping around the chat once.
 * The block found opens if it was folded (the match may be inside), and the chat shows its first line with the match.
 */
export function findNext(store: UiStore, step: 1 | -1): void {
	const t = store.transcript;
	if (!t) return;
	if (t.query === null) {
		store.flashHint("nothing searched yet: / searches the transcript");
		return;
	}
	const items = store.view.items;
	const matches = matcher(t.query);
	const from = t.cursor;
	const n = items.length;
	for (let k = 1; k <= n; k++) {
		const index = (((from + step * k) % n) + n) % n;
		const item = items[index] as ChatItem;
		if (!matches(searchText(item))) continue;
		moveTo(store, index, { match: t.query });
		if (!isOpen(item, store.expanded, store.folded)) {
			store.toggleItem(item);
			t.opened = item.key;
		}
		if (index === from) store.flashHint(`only this block mentions “${t.query}”`);
		else if (step < 0 ? index > from : index < from)
			store.flashHint(`search wrapped to the ${step < 0 ? "newest" : "first"} block`);
		return;
	}
	store.flashHint(`no block mentions “${t.query}”`);
}

/** How a query matches text: ignoring case unless the query has a capital letter (as less and vim's smartcase do). */
export function matcher(query: string): (text: string) => boolean {
	if (query !== query.toLowerCase()) return (text) => text.includes(query);
	return (text) => text.toLowerCase().includes(query);
}

/** What a search reads of an item: what it says, a tool call's name, arguments and what the model read. */
function searchText(item: ChatItem): string {
	switch (item.kind) {
		case "user":
		case "text":
		case "thinking":
			return item.text;
		case "tool":
			return `${item.name} ${item.argsText}\n${item.content ?? ""}`;
		case "notice":
		case "error":
			return item.message;
		case "retry":
			return item.reason;
		case "hook":
			return hookLine(item.run);
		case "compaction":
		case "run_end":
			return item.error ?? "";
	}
}
