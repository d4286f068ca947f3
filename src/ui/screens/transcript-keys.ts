import type { Key } from "ink";
import type { KeyAction } from "../keys/key-table.js";
import type { KeyActions } from "../keys/keymap.js";
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

/** Keys that arrive as bytes inside a chunk of typed text: Enter, Tab, Backspace. */
const CONTROL: Readonly<Record<string, Partial<Key>>> = {
	"\r": { return: true },
	"\t": { tab: true },
	"\x7f": { delete: true },
};

/**
 * A chunk of keys read at once ("/grammar\r", "jjj": fast typing, a terminal that batches) as the keys it holds, one
 * by one, so each is the transcript's key it is; null for a single key or anything that is not typed text.
 */
export function keysOf(text: string, key: Key, none: Key): [string, Key][] | null {
	if (key.ctrl || key.meta || Array.from(text).length < 2) return null;
	const keys: [string, Key][] = [];
	for (const char of text) {
		const control = CONTROL[char];
		if (control) keys.push(["", { ...none, ...control }]);
		else if (char >= " ") keys.push([char, { ...none, shift: /^[A-Z]$/.test(char) }]);
		else return null;
	}
	return keys;
}
