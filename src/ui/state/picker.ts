/** One row of the resume picker: a session, or a file that cannot be listed (`problem` says why). */
export type PickerRow = {
	file: string;
	id: string;
	/** The session's name, else its first prompt. */
	title: string;
	named: boolean;
	latestPrompt: string;
	modifiedMs: number;
	entries: number;
	branches: number;
	model: string;
	costUsd: number | null;
	/** The directory the session was recorded in. */
	cwd: string;
	labels: string[];
	/** Set on a fork: the session it was copied from. */
	forkOf?: string;
	/** Lines that are not entries (damaged or torn). */
	damaged: number;
	/** Why the file cannot be listed (damaged line 1, a newer format, unreadable): the row says it. */
	problem?: string;
};

/** The last exchange of a session, shown under the list. */
export type PickerPreview = { prompt?: string; reply?: string; tools: [name: string, count: number][] };

/**
 * A row as the filter found it: `matched` is the text of the session it matched (a prompt, a label, the name);
 * `depth`, how far a fork is drawn in under the session it was copied from (unfiltered lists group them).
 */
export type PickerHit = { row: PickerRow; matched: string; depth?: number };

/**
 * What the picker asks of gar, loaded after the first frame (ui/picker-source.ts). Failures come back as text (or
 * a thrown error's message) for the picker to show: nothing is dropped in silence.
 */
export type PickerSource = {
	/** The sessions of this project (or of all), newest first, then the files that cannot be listed. */
	list(all: boolean): PickerRow[];
	/** The rows matching `query`, best first (every row for a blank one). */
	filter(rows: readonly PickerRow[], query: string): PickerHit[];
	/** Readies the filter for `rows` (their prompts read, the matcher built), so the first key is not the slow one. */
	prepare?(rows: readonly PickerRow[]): void;
	preview(row: PickerRow): PickerPreview;
	/** Names the session; returns what to tell. Throws with the reason. */
	rename(row: PickerRow, name: string): string;
	/** Moves the session's file to the trash; returns what to tell (how to restore it). Throws with the reason. */
	trash(row: PickerRow): string;
	/** Opens the session (the picker is closed by then); resolves with why not, or null once it is open. */
	open(row: PickerRow): Promise<string | null>;
	/** Leaves the picker without a session. */
	back(): void;
};

export type PickerMode = "browse" | "rename" | "delete";
export type PickerMessage = { text: string; level: "info" | "warning" | "error" };

const PREVIEWS = 50;
/** Filtering waits this long after a key: each key shows at once, and a run of keys filters once. */
const FILTER_DELAY_MS = 30;

/**
 * The resume picker's state, outside React: the rows (this project or all), the filter, the selection and the
 * window on the list, renaming and the delete question, a message. Every change calls `changed` (the store's
 * redraw). The source arrives after the first frame; until then the picker says it is loading.
 */
export class PickerModel {
	source: PickerSource | null = null;
	all = false;
	query: string;
	mode: PickerMode = "browse";
	/** The name being typed while renaming. */
	renameText = "";
	message: PickerMessage | null = null;
	/** The selected row's index in `hits`, and the first row on screen. */
	selected = 0;
	top = 0;
	/** Rows the list showed when last drawn (the keys page by it). */
	pageRows = 10;
	private rows: PickerRow[] = [];
	private opening = false;
	private found: PickerHit[] = [];
	private readonly previews = new Map<string, PickerPreview>();
	/** The filter of a query typed, waiting for the keys to pause. */
	private due: NodeJS.Timeout | null = null;

	constructor(
		query: string,
		private readonly changed: () => void,
	) {
		this.query = query;
	}

	get loading(): boolean {
		return this.source === null;
	}

	/** The rows the filter keeps, best first. */
	get hits(): readonly PickerHit[] {
		return this.found;
	}

	/** Every row of the scope (before the filter). */
	get total(): number {
		return this.rows.length;
	}

	get current(): PickerHit | undefined {
		return this.found[this.selected];
	}

	/** The source is ready: the rows are listed and the filter applied; the search is readied once they are drawn. */
	attach(source: PickerSource): void {
		this.source = source;
		this.reload();
		setTimeout(() => this.source?.prepare?.(this.rows), 50).unref?.();
	}

	/** Lists the rows again (after a change on disk), keeping the selected session selected when it is still there. */
	reload(): void {
		if (!this.source) return;
		const file = this.current?.row.file;
		this.rows = this.source.list(this.all);
		this.previews.clear();
		this.refilter(file, this.selected);
	}

	/** The filter's text: shown at once, applied once the keys pause (or a key acts on the rows). */
	setQuery(query: string): void {
		if (query === this.query) return;
		this.query = query;
		this.message = null;
		if (this.due) clearTimeout(this.due);
		this.due = setTimeout(() => this.settle(), FILTER_DELAY_MS);
		this.changed();
	}

	/** Applies a filter still waiting for the keys to pause (a key that acts on the rows must see them filtered). */
	settle(): void {
		if (!this.due) return;
		clearTimeout(this.due);
		this.due = null;
		this.refilter();
	}

	/** This project's sessions, or every project's. */
	toggleAll(): void {
		this.all = !this.all;
		this.say(null);
		this.reload();
	}

	/** Moves the selection by `delta` rows (clamped), keeping it on screen. */
	move(delta: number): void {
		this.settle();
		if (this.found.length === 0) return;
		this.selected = Math.max(0, Math.min(this.found.length - 1, this.selected + delta));
		this.message = null;
		if (this.selected < this.top) this.top = this.selected;
		else if (this.selected >= this.top + this.pageRows) this.top = this.selected - this.pageRows + 1;
		this.changed();
	}

	/** The last exchange of the selected session (read once, then kept while the picker is open). */
	preview(): PickerPreview | null {
		const row = this.current?.row;
		if (!row || row.problem || !this.source) return null;
		const key = `${row.file}:${row.modifiedMs}`;
		let preview = this.previews.get(key);
		if (!preview) {
			preview = this.source.preview(row);
			if (this.previews.size >= PREVIEWS) this.previews.clear();
			this.previews.set(key, preview);
		}
		return preview;
	}

	startRename(): void {
		this.settle();
		const row = this.current?.row;
		if (!row) return;
		if (row.problem) {
			this.say(`cannot rename: ${row.problem}`, "warning");
			return;
		}
		this.mode = "rename";
		this.renameText = row.named ? row.title : "";
		this.say(null);
	}

	setRenameText(text: string): void {
		this.renameText = text;
		this.changed();
	}

	saveRename(): void {
		const row = this.current?.row;
		if (!row || !this.source) return;
		if (this.renameText.trim() === "") {
			this.say("a name cannot be empty (Esc keeps the old one)", "warning");
			return;
		}
		this.attempt(() => this.source?.rename(row, this.renameText.trim()) ?? "");
	}

	startDelete(): void {
		this.settle();
		if (!this.current) return;
		this.mode = "delete";
		this.say(null);
	}

	confirmDelete(): void {
		const row = this.current?.row;
		if (!row || !this.source) return;
		this.attempt(() => this.source?.trash(row) ?? "");
	}

	/** Esc: out of renaming or the delete question; else clears the filter; else leaves the picker. */
	back(): void {
		if (this.mode !== "browse") {
			this.mode = "browse";
			this.say(null);
		} else if (this.query !== "") {
			this.query = "";
			if (this.due) clearTimeout(this.due);
			this.due = null;
			this.refilter();
		} else this.source?.back();
	}

	/** Enter: opens the selected session (once: a second Enter while it opens does nothing), or says why not. */
	async open(): Promise<void> {
		this.settle();
		const row = this.current?.row;
		if (!row || !this.source || this.opening) return;
		if (row.problem) {
			this.say(`cannot open it: ${row.problem}`, "warning");
			return;
		}
		this.opening = true;
		this.say("opening…");
		const why = await this.source.open(row);
		// Opened: "opening…" stays until the picker is closed (gar -r closes it once the session is on screen).
		if (why === null) return;
		this.opening = false;
		this.say(why, "warning");
	}

	/** Shows a message (null clears it). */
	say(text: string | null, level: PickerMessage["level"] = "info"): void {
		this.message = text === null ? null : { text, level };
		this.changed();
	}

	/** Runs a rename or a delete: on success the rows are listed again and the message says what happened. */
	private attempt(action: () => string): void {
		try {
			const told = action();
			this.mode = "browse";
			this.reload();
			this.say(told);
		} catch (error) {
			// The question was answered; a rename that failed stays open, so the name typed is not lost.
			if (this.mode === "delete") this.mode = "browse";
			this.say(error instanceof Error ? error.message : String(error), "error");
		}
	}

	/** Filters the rows anew; the selection stays on the session `keep`, else at `index` (a deleted row's place). */
	private refilter(keep?: string, index = 0): void {
		if (this.due) clearTimeout(this.due);
		this.due = null;
		this.found = this.source ? this.source.filter(this.rows, this.query) : [];
		const at = keep === undefined ? -1 : this.found.findIndex((hit) => hit.row.file === keep);
		this.selected = Math.max(0, Math.min(at === -1 ? index : at, this.found.length - 1));
		this.top = Math.max(0, Math.min(this.top, this.selected));
		if (this.selected >= this.top + this.pageRows) this.top = this.selected - this.pageRows + 1;
		this.changed();
	}
}
