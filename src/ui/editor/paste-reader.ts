/** The start and end of a bracketed paste, as Ink passes them on (without their ESC). */
const START = "[200~";
const END = "[201~";

/** What the reader looks at in an input event (a subset of Ink's `Key`). */
export type PasteKey = { escape: boolean; return: boolean; tab: boolean; ctrl: boolean };

/** What an input event was: a key (not part of a paste), a part of a paste (held), or a paste's end, whole. */
export type PasteStep = { kind: "key" } | { kind: "held" } | { kind: "pasted"; text: string };

const KEY: PasteStep = { kind: "key" };
const HELD: PasteStep = { kind: "held" };

/**
 * Reads bracketed pastes out of the terminal's input events, one event at a time. A paste arrives in many reads
 * and its end marker may be split between two ("[20", "1~", or a lone Escape first): pieces that could start the
 * marker are held until it is whole, and turn out to be pasted text if it is not. Inside a paste, Enter is a newline
 * and Tab a tab: nothing pasted is ever taken as a key. Pure: no I/O; the state lives in the instance, which the
 * editor keeps, so a key handler made anew mid-paste loses nothing.
 */
export class PasteReader {
	/** The chunks of the paste so far (null: not pasting); joined once, at its end. */
	private chunks: string[] | null = null;
	/** After a lone ESC or a piece of the end marker: what came of the marker so far. */
	private marker: string | null = null;

	/** Whether a paste has started and not ended. */
	get pasting(): boolean {
		return this.chunks !== null;
	}

	/** Feeds one input event (Ink's text and key). */
	read(text: string, key: PasteKey): PasteStep {
		if (text === START) {
			this.marker = null;
			this.chunks = [];
			return HELD;
		}
		const chunks = this.chunks;
		if (chunks === null) return KEY;
		let piece = text;
		if (this.marker !== null || (key.escape && text === "") || (text.startsWith("[") && END.startsWith(text))) {
			const candidate = (this.marker ?? "") + text;
			if (candidate !== END && END.startsWith(candidate)) {
				this.marker = candidate;
				return HELD;
			}
			// Not the marker after all: what was held is pasted text.
			if (candidate !== END) chunks.push(this.marker ?? "");
			this.marker = null;
			if (candidate === END) piece = END;
		}
		if (piece === END) {
			this.chunks = null;
			return { kind: "pasted", text: chunks.join("") };
		}
		if (key.return) chunks.push("\n");
		else if (key.tab) chunks.push("\t");
		else if (!key.ctrl) chunks.push(piece);
		return HELD;
	}
}
