import type { ChatItem } from "../../view/state.js";
import type { Theme } from "../theme/theme.js";
import { chunkStarts, replyChunkLines } from "./assistant-text.js";
import { foldLong, foldsWhenLong } from "./folds.js";
import { flat, type Line } from "./lines.js";
import { renderItem } from "./render-item.js";

type TextItem = Extract<ChatItem, { kind: "text" }>;
type Entry = { width: number; expanded: boolean; folded: boolean; theme: Theme; lines: Line[] };

/** A streaming reply's finished part: chunks before `stableEnd` rendered once, `check` its last characters. */
type Tail = { width: number; theme: Theme; stableEnd: number; fence?: string; check: string; lines: Line[] };

/** Streaming replies kept at once (one per content block of the reply in flight; a few for safety). */
const MAX_TAILS = 4;
const CHECK_CHARS = 32;

/**
 * Lines per chat item, cached by item identity (a changed item is a new object), width, `expanded` and theme.
 * A streaming reply re-renders only its tail: chunks up to the last top-level block boundary are kept from
 * earlier frames, so a frame during a long reply costs O(tail), not O(reply).
 */
export class LineCache {
	private readonly entries = new WeakMap<ChatItem, Entry>();
	private readonly tails = new Map<string, Tail>();

	/** `render` is injectable so tests can count calls; streaming replies bypass it for their incremental path. */
	constructor(
		private theme: Theme,
		private readonly render: typeof renderItem = renderItem,
	) {}

	/** Switches theme: later calls re-render each item once, lazily, as it is shown. */
	setTheme(theme: Theme): void {
		this.theme = theme;
	}

	/**
	 * The lines of `item` at `width`: `expanded` opens what starts folded (tool output, thinking, pastes), `folded`
	 * folds a long message (folds.ts); the same array while nothing it depends on changed.
	 */
	lines(item: ChatItem, width: number, expanded: boolean, folded = false): Line[] {
		// Replies look the same expanded or not; one entry serves both.
		const wide = item.kind === "text" ? false : expanded;
		const fold = folded && foldsWhenLong(item);
		const hit = this.entries.get(item);
		if (hit && hit.width === width && hit.expanded === wide && hit.folded === fold && hit.theme === this.theme)
			return hit.lines;
		let lines =
			item.kind === "text" && (item.streaming || this.tails.has(item.key))
				? this.streamed(item, width)
				: this.render(item, width, this.theme, { expanded: wide });
		if (fold) lines = foldLong(lines, item.key, width, this.theme);
		this.entries.set(item, { width, expanded: wide, folded: fold, theme: this.theme, lines });
		return lines;
	}

	private streamed(item: TextItem, width: number): Line[] {
		const { text, key } = item;
		let tail = this.tails.get(key);
		const continues =
			tail &&
			text.length >= tail.stableEnd &&
			text.slice(tail.stableEnd - tail.check.length, tail.stableEnd) === tail.check;
		if (!tail || !continues || tail.width !== width || tail.theme !== this.theme) {
			tail = { width, theme: this.theme, stableEnd: 0, check: "", lines: [] };
			this.tails.delete(key);
			if (this.tails.size >= MAX_TAILS) this.tails.delete(this.tails.keys().next().value as string);
			this.tails.set(key, tail);
		}
		for (const next of chunkStarts(text, tail.stableEnd, tail.fence)) {
			const chunk = text.slice(tail.stableEnd, next.at);
			tail.lines.push(...replyChunkLines(key, chunk, tail.lines.length, width, this.theme, tail.fence));
			tail.stableEnd = next.at;
			tail.fence = next.fence;
			// A flat copy: a slice would pin this whole version of the reply (see lines.ts `flat`).
			tail.check = flat(text.slice(Math.max(0, next.at - CHECK_CHARS), next.at));
		}
		const rest = replyChunkLines(key, text.slice(tail.stableEnd), tail.lines.length, width, this.theme, tail.fence);
		if (!item.streaming) this.tails.delete(key);
		return tail.lines.length === 0 ? rest : tail.lines.concat(rest);
	}
}
