import type { Key } from "ink";
import type { KeyAction } from "../keys/key-table.js";
import type { KeyActions } from "../keys/keymap.js";
import type { InputModel } from "../state/input-model.js";
import type { UiStore } from "../state/store.js";
import {
	cancelFind,
	cursorToEdge,
	editFind,
	findNext,
	leaveTranscript,
	moveCursor,
	runFind,
	startFind,
	toggleCursor,
} from "../state/transcript.js";

export type TranscriptAction =
	| "blockUp"
	| "blockDown"
	| "toggleBlock"
	| "find"
	| "findOlder"
	| "findNewer"
	| "blockEdge"
	| "leaveTranscript";

export type FindAction = "findRun" | "findCancel" | "findBackspace";

/** The transcript mode's own keys (state/transcript.ts); scrolling and Ctrl+Z are the chat's actions. */
export function transcriptActions(store: UiStore): Pick<KeyActions<KeyAction>, TranscriptAction> {
	return {
		blockUp: () => moveCursor(store, -1),
		blockDown: () => moveCursor(store, 1),
		toggleBlock: () => toggleCursor(store),
		find: () => startFind(store),
		findOlder: () => findNext(store, -1),
		findNewer: () => findNext(store, 1),
		blockEdge: (_text, key) => cursorToEdge(store, key.home ? "first" : "last"),
		leaveTranscript: () => leaveTranscript(store),
	};
}

/** The transcript's search line: Enter searches, Esc closes it, Backspace deletes. */
export function findActions(store: UiStore): Pick<KeyActions<KeyAction>, FindAction> {
	return {
		findRun: () => runFind(store),
		findCancel: () => cancelFind(store),
		findBackspace: () => editFind(store, "backspace"),
	};
}

/** The search line's other keys: printable text goes into the query, anything else is ignored. */
export function findRest(store: UiStore, text: string, key: Key): boolean {
	if (key.ctrl || key.meta) return true;
	const printable = Array.from(text)
		.filter((c) => c >= " " && c !== "\x7f")
		.join("");
	if (printable) editFind(store, { type: printable });
	return true;
}

/**
 * A bracketed paste goes into the input (the transcript mode ends: the person means to write), or into the transcript's
 * search line while it is open (on one line).
 */
export function pasted(store: UiStore, input: InputModel, text: string): void {
	if (store.transcript?.typing != null) editFind(store, { type: text.replace(/\s+/g, " ") });
	else {
		leaveTranscript(store);
		input.paste(text);
		store.toBottom();
	}
}
