import type { UiStore } from "./store.js";

/** One file in the /changes list: its name as shown, its counts, and what changed it ("2 edits, 1 write"). */
export type ChangeRow = { name: string; summary: string };

/** A file's diff as the screen shows it: its lines (file headers left out), and why it is not one diff, if so. */
export type ShownDiff = { lines: string[]; note: string | null };

/**
 * The /changes screen's state, outside React: the files, the one selected, and, once Enter opened it, its diff from
 * before the session to now (`diffOf` computes it then, reading the file) and how far it is scrolled.
 */
export class ChangesView {
	selected = 0;
	diff: ShownDiff | null = null;
	scroll = 0;

	constructor(
		readonly title: string,
		readonly rows: readonly ChangeRow[],
		private readonly diffOf: (index: number) => { diff: string; note?: string },
	) {}

	move(rows: number): void {
		if (this.diff) {
			this.scroll = Math.max(0, Math.min(Math.max(0, this.diff.lines.length - 1), this.scroll + rows));
			return;
		}
		this.selected = Math.max(0, Math.min(this.rows.length - 1, this.selected + rows));
	}

	/** Enter: the selected file's diff. */
	open(): void {
		if (this.diff || this.rows.length === 0) return;
		const { diff, note } = this.diffOf(this.selected);
		const lines = diff
			.replace(/\n$/, "")
			.split("\n")
			.filter((line) => !line.startsWith("--- ") && !line.startsWith("+++ ") && !/^={3,}$/.test(line));
		this.diff = { lines: lines.length === 1 && lines[0] === "" ? ["(no difference)"] : lines, note: note ?? null };
		this.scroll = 0;
	}

	/** Esc: from a diff back to the list (true); from the list, nothing to go back to here (false). */
	back(): boolean {
		if (!this.diff) return false;
		this.diff = null;
		return true;
	}
}

const views = new WeakMap<UiStore, ChangesView>();

/** Opens the /changes screen over the chat with `view`. */
export function openChanges(store: UiStore, view: ChangesView): void {
	views.set(store, view);
	store.openScreen("changes");
}

/** The /changes screen's state while it is open. */
export function changesViewOf(store: UiStore): ChangesView | undefined {
	return views.get(store);
}
