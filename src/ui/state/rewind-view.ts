import type { RewindMode } from "../../rewind/api.js";
import type { UiStore } from "./store.js";

/**
 * Where a rewind goes: the entry that becomes the leaf (`to`; null: before the first entry), the words that name it,
 * and the prompt whose text goes back into the editor when the conversation moves (absent: the tree's move).
 */
export type RewindPlace = { to: string | null; title: string; prompt?: string };

/** One prompt of the rewind list: its text, how many files were changed after it (by write/edit, by bash). */
export type RewindRow = { text: string; edited: number; bashChanged: number; place: RewindPlace };

/** A line of the preview and how it is drawn. */
export type PreviewLine = { text: string; tone: "head" | "plain" | "warning" | "muted" };

/** What the choice offers, in order; `mode` null is "cancel". */
export const REWIND_CHOICES: readonly { mode: RewindMode | null; label: string }[] = [
	{ mode: "both", label: "conversation and files" },
	{ mode: "conversation", label: "conversation only" },
	{ mode: "files", label: "files only" },
	{ mode: null, label: "cancel" },
];

/** What the view asks of the session (ui/rewind-intents.ts): a preview, and the rewind itself (throws with words). */
export type RewindDeps = {
	preview: (place: RewindPlace, mode: RewindMode) => PreviewLine[];
	apply: (place: RewindPlace, mode: RewindMode) => void;
};

/** What a key left the screen to do: stay, go back one screen, or close every screen over the chat (done). */
export type RewindVerdict = "stay" | "back" | "done";

/**
 * The rewind screen's state, outside React: the list of prompts (newest first) and the one selected; once one is
 * chosen (or the tree asked for a move), the choice of what goes back, the preview of the highlighted choice
 * (worked out when first shown, against the disk) and how far it is scrolled, and a line of news.
 */
export class RewindView {
	selected = 0;
	choice = 0;
	scroll = 0;
	place: RewindPlace | null;
	message: { text: string; warning: boolean } | null = null;
	private previews = new Map<RewindMode, PreviewLine[]>();

	constructor(
		readonly rows: readonly RewindRow[],
		private readonly deps: RewindDeps,
		place: RewindPlace | null = null,
	) {
		this.place = place;
	}

	/** The list of prompts, or the choice for the place chosen. */
	get stage(): "list" | "choose" {
		return this.place ? "choose" : "list";
	}

	/** ↑/↓: the prompt, or the choice. */
	move(by: number): void {
		if (this.place) {
			this.choice = Math.max(0, Math.min(REWIND_CHOICES.length - 1, this.choice + by));
			this.scroll = 0;
		} else this.selected = Math.max(0, Math.min(this.rows.length - 1, this.selected + by));
	}

	/** PgUp/PgDn: the preview scrolls (kept within its lines); in the list, a page of prompts. */
	page(by: number): void {
		if (!this.place) {
			this.move(by);
			return;
		}
		const last = Math.max(0, this.preview().length - 1);
		this.scroll = Math.max(0, Math.min(last, this.scroll + by));
	}

	/** The preview of the highlighted choice (none for cancel); what cannot be worked out is said in it. */
	preview(): PreviewLine[] {
		const mode = REWIND_CHOICES[this.choice]?.mode;
		if (!this.place || !mode) return [];
		let lines = this.previews.get(mode);
		if (!lines) {
			try {
				lines = this.deps.preview(this.place, mode);
			} catch (error) {
				lines = [{ text: error instanceof Error ? error.message : String(error), tone: "warning" }];
			}
			this.previews.set(mode, lines);
		}
		return lines;
	}

	/** Enter: in the list, choose the prompt; on a choice, do it (or cancel). */
	enter(): RewindVerdict {
		if (!this.place) {
			const row = this.rows[this.selected];
			if (row) this.choose(row.place);
			return "stay";
		}
		const mode = REWIND_CHOICES[this.choice]?.mode;
		if (!mode) return this.back();
		try {
			this.deps.apply(this.place, mode);
			return "done";
		} catch (error) {
			this.message = { text: error instanceof Error ? error.message : String(error), warning: true };
			return "stay";
		}
	}

	/** Esc: from the choice back to the list (a choice opened by the tree goes back to it); from the list, away. */
	back(): RewindVerdict {
		if (!this.place || this.rows.length === 0) return "back";
		this.place = null;
		this.message = null;
		return "stay";
	}

	private choose(place: RewindPlace): void {
		this.place = place;
		this.choice = 0;
		this.scroll = 0;
		this.message = null;
		this.previews = new Map();
	}
}

const views = new WeakMap<UiStore, RewindView>();

/** Opens the rewind screen over what is on top (the chat, or the tree) with `view`. */
export function openRewindView(store: UiStore, view: RewindView): void {
	views.set(store, view);
	store.openScreen("rewind");
}

/** The rewind screen's state while it is open. */
export function rewindViewOf(store: UiStore): RewindView | undefined {
	return views.get(store);
}
