import type { UserInput } from "../../agent/events.js";
import { PromptHistory } from "../editor/history.js";
import { PasteReader } from "../editor/paste-reader.js";
import { TextBuffer } from "../editor/text-buffer.js";
import { type EditorView, type RowPosition, rowCount, scrolled } from "../editor/viewport.js";
import { rowOf } from "../editor/wrap.js";
import type { InputEcho } from "./input-echo.js";
import { MentionSearch, type PathFinder } from "./mention-search.js";

/** Completion items shown at once. */
export const MAX_ITEMS = 6;
/** A recalled history entry this large comes back as a placeholder, like the paste it probably was. */
const RECALL_LINES = 200;
const RECALL_CHARS = 20_000;

export type CompletionItem = { value: string; description: string; label?: string };
/**
 * What completes the text: replace `text.slice(from)` with an item's value; or, for an `@` mention (`mention`), the
 * mention before the cursor with the item's path.
 */
export type Completion = { from: number; items: CompletionItem[]; mention?: true };

/** `all`: the person asked for the list (Tab), so offer every choice even before anything is typed. */
export type Completer = (text: string, all?: boolean) => Completion | null;

/**
 * What the key handler is in the middle of. It lives in the model, outside React, so a handler made again by a
 * re-render (a hint appearing changes the layout) loses neither a half-received paste nor the first of two presses.
 */
export type KeyMemory = {
	/** A bracketed paste being received (it may span many reads). */
	readonly paste: PasteReader;
	/** The last key that quits when pressed twice (Ctrl+C idle, Ctrl+D while running), and when. */
	quitKey: { key: string; at: number } | null;
	/** When Esc was last pressed on an empty input while idle (twice opens the session tree). */
	escapeAt: number;
	/** The keys pressed without a pause (chat-keys.ts TYPING_PAUSE_MS): when the run of them began and when it last grew. */
	streak: { start: number; last: number };
	/** When text was last typed into the editor (not pasted, not a key that answered a question). */
	typedAt: number;
};

/**
 * The editor's state outside React: the text buffer, the history walk, Ctrl+R search and the completion popup.
 * A keypress changes it and notifies only its subscribers (the input box, and the chat screen for the input's
 * height), so typing never re-renders the chat or the inspector. Work per key is O(the rows on screen), never O(the
 * text).
 */
export class InputModel {
	readonly buffer = new TextBuffer();
	history: PromptHistory = PromptHistory.memory();
	/** Draws a typed key's row before its frame (the app in a terminal sets it). */
	echo: InputEcho | null = null;
	/** A line under the input until the next edit (a file mentioned that is gone). */
	note: string | null = null;
	/** Ctrl+R: the query and the index of the shown match (-1: none). */
	search: { query: string; index: number } | null = null;
	selected = 0;
	/** A line put back because it began with an unknown /word: sent again unchanged, it is a message. */
	offered: string | null = null;
	readonly keys: KeyMemory = {
		paste: new PasteReader(),
		quitKey: null,
		escapeAt: Number.NEGATIVE_INFINITY,
		streak: { start: Number.NEGATIVE_INFINITY, last: Number.NEGATIVE_INFINITY },
		typedAt: Number.NEGATIVE_INFINITY,
	};
	private version = 0;
	private readonly listeners = new Set<() => void>();
	private historyIndex: number | null = null;
	private draft = "";
	/** What was in the editor when an approval's reason took its place (its pastes kept); null: nothing set aside. */
	private aside: string | null = null;
	/** The first row on screen, kept so that the view moves only when the cursor leaves it. */
	private top: RowPosition = { line: 0, sub: 0 };
	private wrapWidth = 80;
	/** The rows on screen at the model's width, as of the last change. */
	private shown: EditorView = scrolled(this.buffer, this.top, this.wrapWidth).view;
	private dismissedAt = -1;
	private commands: Completer | null = null;
	private completion: { version: number; value: Completion | null } = { version: -1, value: null };
	/** Tab asked for every choice (`/model ` + Tab); cleared when the text is replaced or the list dismissed. */
	private listAll = false;
	private lastText: string | null = null;
	/** The last change was typing (a key, Backspace): only then does an `@` mention open the finder (not a paste). */
	private typing = false;
	private readonly mentions = new MentionSearch((fresh) => {
		if (fresh) this.selected = 0;
		this.version++;
		for (const listener of this.listeners) listener();
	});

	readonly subscribe = (listener: () => void): (() => void) => {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	};

	readonly getVersion = (): number => this.version;

	/** Rows the input takes on screen at `width`: its visible rows, plus the search line or the completion popup. */
	heightAt(width: number): number {
		const popup = this.search ? 1 : Math.min(MAX_ITEMS, this.completions()?.items.length ?? 0);
		return rowCount(this.buffer, width) + popup + (this.note === null ? 0 : 1);
	}

	/** `heightAt` the width the keys use. */
	readonly getHeight = (): number => this.heightAt(this.width);

	/** Columns the text wraps at (↑/↓ move by rows): the chat screen sets it from its layout after each frame. */
	get width(): number {
		return this.wrapWidth;
	}

	set width(width: number) {
		if (width === this.wrapWidth) return;
		this.wrapWidth = width;
		this.scroll();
	}

	/** The text with placeholders (not expanded). O(text): not for per-key paths. */
	get text(): string {
		return this.buffer.text;
	}

	get empty(): boolean {
		return this.buffer.empty;
	}

	/**
	 * Completes `/commands`; set once the conversation exists. Keys are answered while gar starts, so a `/command` may
	 * be typed before: its completions show once this is set, as the finder's do.
	 */
	get completer(): Completer | null {
		return this.commands;
	}

	set completer(completer: Completer | null) {
		this.commands = completer;
		this.changed(false);
	}

	/** Finds files for `@` mentions; set once the conversation exists (a mention typed before looks for its paths then). */
	get finder(): PathFinder | null {
		return this.mentions.finder;
	}

	set finder(finder: PathFinder | null) {
		this.mentions.finder = finder;
		this.changed(false);
	}

	/** The cursor as an index into the first line (the single-line view, for tests and callers of old). */
	get cursor(): number {
		return this.buffer.col;
	}

	insert(chars: string): void {
		if (chars === "") return;
		this.edited(() => this.buffer.insert(chars), true);
	}

	newline(): void {
		this.edited(() => this.buffer.newline());
	}

	paste(text: string): void {
		this.edited(() => this.buffer.paste(text));
	}

	backspace(): void {
		this.edited(() => this.buffer.backspace(), true);
	}

	deleteForward(): void {
		this.edited(() => this.buffer.deleteForward());
	}

	deleteWordLeft(): void {
		this.edited(() => this.buffer.deleteWordLeft());
	}

	deleteToLineStart(): void {
		this.edited(() => this.buffer.deleteToLineStart());
	}

	deleteToLineEnd(): void {
		this.edited(() => this.buffer.deleteToLineEnd());
	}

	undo(): void {
		this.edited(() => this.buffer.undo());
	}

	redo(): void {
		this.edited(() => this.buffer.redo());
	}

	left(): void {
		this.moved(() => this.buffer.left());
	}

	right(): void {
		this.moved(() => this.buffer.right());
	}

	wordLeft(): void {
		this.moved(() => this.buffer.wordLeft());
	}

	wordRight(): void {
		this.moved(() => this.buffer.wordRight());
	}

	home(): void {
		this.moved(() => this.buffer.home());
	}

	end(): void {
		this.moved(() => this.buffer.end());
	}

	/** ↑: up a row; on the first row the previous history entry. False when there is nothing further up. */
	up(): boolean {
		if (this.buffer.up(this.width)) return this.changedTrue();
		return this.historyStep(-1);
	}

	/** ↓: down a row; on the last row the next history entry (and finally the draft). */
	down(): boolean {
		if (this.buffer.down(this.width)) return this.changedTrue();
		return this.historyStep(1);
	}

	clear(): void {
		this.listAll = false;
		this.buffer.reset(this.aside ?? "");
		this.historyIndex = null;
		this.changed();
	}

	/** Replaces the text, cursor at the end. Pastes not in `text` are freed. */
	set(text: string): void {
		this.listAll = false;
		this.typing = false;
		this.buffer.reset(text);
		this.buffer.setText(text);
		this.changed();
	}

	/** Returns the text with pastes expanded and empties the editor. */
	take(): string {
		return this.takeMessage().text;
	}

	/** Empties the editor; returns the text with pastes expanded and where the large pastes sit in it. */
	takeMessage(): UserInput {
		const message = this.buffer.pastes.expandMessage(this.buffer.text);
		this.listAll = false;
		this.buffer.reset(this.aside ?? "");
		this.historyIndex = null;
		this.draft = "";
		this.top = { line: 0, sub: 0 };
		this.changed();
		return message;
	}

	/** Sets what is typed aside, pastes and all, and empties the editor: an approval's reason is typed in its place. */
	putAside(): void {
		if (this.aside !== null) return;
		this.aside = this.buffer.text;
		this.clear();
	}

	/** Puts back what `putAside` set aside, in place of what is there now (the reason, sent or dropped). */
	bringBack(): void {
		if (this.aside === null) return;
		const text = this.aside;
		this.aside = null;
		this.set(text);
	}

	/** Puts text back (a queued message pulled back, a command that cannot run now) before what is there. */
	restore(text: string): void {
		const current = this.buffer.text;
		this.set(current.trim() === "" ? text : `${text}\n${current}`);
	}

	// Ctrl+R

	startSearch(): void {
		if (this.search) {
			this.searchOlder();
			return;
		}
		this.search = { query: "", index: this.history.entries.length - 1 };
		this.changed();
	}

	searchType(text: string): void {
		if (!this.search) return;
		const query = this.search.query + text;
		this.search = { query, index: this.history.search(query) };
		this.changed();
	}

	searchBackspace(): void {
		if (!this.search) return;
		const query = Array.from(this.search.query).slice(0, -1).join("");
		this.search = { query, index: this.history.search(query) };
		this.changed();
	}

	searchOlder(): void {
		if (!this.search) return;
		const index = this.history.search(this.search.query, this.search.index);
		if (index !== -1) this.search = { ...this.search, index };
		this.changed();
	}

	/** The entry the search shows, or undefined. */
	get searchMatch(): string | undefined {
		return this.search ? this.history.entries[this.search.index] : undefined;
	}

	/** Ends the search: `accept` puts the match in the editor. */
	endSearch(accept: boolean): void {
		const match = this.searchMatch;
		this.search = null;
		if (accept && match !== undefined) this.recall(match);
		this.changed();
	}

	// Completion

	/** The popup's items for the current text; null when closed. Cached per version. */
	completions(): Completion | null {
		if (this.completion.version === this.version) return this.completion.value;
		let value: Completion | null = null;
		const lines = this.buffer.lines;
		const first = lines[0] as string;
		if (this.dismissedAt === this.version) value = null;
		else if (this.completer && lines.length === 1 && first.startsWith("/")) {
			value = this.completer(first, this.listAll);
			if (value && value.items.length === 0) value = null;
		} else if (this.typing) {
			const paths = this.mentions.paths(this.buffer.line, this.buffer.col);
			if (paths) value = { from: -1, mention: true, items: paths.map((path) => ({ value: path, description: "" })) };
		}
		this.completion = { version: this.version, value };
		return value;
	}

	/** Moves the popup's selection (wrapping around). */
	select(step: number): void {
		const items = this.completions()?.items;
		if (!items) return;
		this.selected = (this.selected + step + items.length) % items.length;
		this.changed(false);
	}

	/**
	 * Replaces the completed part with the selected item; returns the new text (undefined when closed, or when the
	 * file a mention would name is gone: `note` says so).
	 */
	accept(): string | undefined {
		const completion = this.completions();
		const item = completion?.items[this.selected];
		if (!completion || !item) return undefined;
		if (completion.mention) return this.acceptMention(item.value);
		const text = this.buffer.text.slice(0, completion.from) + item.value;
		this.set(text);
		return text;
	}

	/** Puts `@path ` in place of the mention being typed, unless the file is gone since it was listed. */
	private acceptMention(path: string): string | undefined {
		const edit = this.mentions.accept(this.buffer.line, this.buffer.col, path);
		if (edit === null) return undefined;
		if ("problem" in edit) {
			this.note = edit.problem;
			this.changed(false);
			return undefined;
		}
		this.edited(() => this.buffer.replaceBefore(edit.count, edit.text));
		return this.buffer.text;
	}

	/** Tab where nothing completes by itself (`/model `): opens the list of every choice. False when there is none. */
	listChoices(): boolean {
		if (this.listAll || this.completions()) return false;
		this.listAll = true;
		this.changed(false);
		if (this.completions()) return true;
		this.listAll = false;
		return false;
	}

	dismiss(): boolean {
		if (!this.completions()) return false;
		this.listAll = false;
		this.dismissedAt = this.version + 1;
		this.changed(false);
		return true;
	}

	// Layout

	/**
	 * The rows on screen at `width` (at most MAX_ROWS, scrolled to keep the cursor in view) and the cursor's place in
	 * them. Reads only: each change scrolls the rows at the model's width (`changed`); another width is worked out
	 * from the same first row.
	 */
	view(width = this.wrapWidth): EditorView {
		return width === this.wrapWidth ? this.shown : scrolled(this.buffer, this.top, width).view;
	}

	/** Scrolls the rows on screen to the text as it is now. */
	private scroll(): void {
		const { top, view } = scrolled(this.buffer, this.top, this.wrapWidth);
		this.top = top;
		this.shown = view;
	}

	/** The cursor's row: which rows of its line it is on. */
	cursorRow(): number {
		return rowOf(this.buffer.wrap(this.buffer.line, this.width), this.buffer.col);
	}

	private historyStep(step: -1 | 1): boolean {
		const entries = this.history.entries;
		if (this.historyIndex === null) {
			if (step > 0 || entries.length === 0) return false;
			this.draft = this.buffer.text;
			this.historyIndex = entries.length;
		}
		const next = this.historyIndex + step;
		if (next < 0) return false;
		if (next >= entries.length) {
			this.historyIndex = null;
			this.buffer.setText(this.draft);
		} else {
			this.historyIndex = next;
			this.typing = false;
			this.buffer.setText(entries[next] as string);
			this.recallCollapse();
		}
		this.changed();
		return true;
	}

	private recall(text: string): void {
		this.typing = false;
		this.buffer.setText(text);
		this.recallCollapse();
		this.historyIndex = null;
	}

	/** A recalled entry that was a huge paste comes back as one placeholder, not thousands of lines. */
	private recallCollapse(): void {
		const { lines } = this.buffer;
		if (lines.length <= RECALL_LINES && lines.every((l) => l.length <= RECALL_CHARS)) return;
		const text = this.buffer.text;
		this.buffer.setText("");
		this.buffer.paste(text);
	}

	/** An edit; `typing`: a key typed or Backspace (an `@` mention then opens the finder). */
	private edited(apply: () => unknown, typing = false): void {
		const shown = typing ? this.echo?.before(this) : null;
		apply();
		this.typing = typing;
		this.note = null;
		this.historyIndex = null;
		this.changed();
		if (shown) this.echo?.after(this, shown);
	}

	private moved(apply: () => void): void {
		const shown = this.echo?.before(this);
		apply();
		this.typing = false;
		this.changed(false);
		if (shown) this.echo?.after(this, shown);
	}

	private changedTrue(): boolean {
		this.changed(false);
		return true;
	}

	/**
	 * Keeps the cursor in view and notifies subscribers; `reset` (an edit) puts the completion selection back on its
	 * first item.
	 */
	private changed(reset = true): void {
		this.version++;
		if (reset) {
			const first = this.buffer.lines[0] as string;
			if (first !== this.lastText) this.selected = 0;
			this.lastText = first;
		}
		this.scroll();
		for (const listener of this.listeners) listener();
	}
}
