import type { UserInput } from "../../agent/events.js";
import stringWidth from "../../term/string-width.js";
import { graphemeWidth } from "./graphemes.js";

/**
 * Large pastes as placeholders: the buffer holds one private-use character (plane 15) per paste, drawn as
 * `[pasted 5000 lines]` and expanded into the pasted text only when the message is sent. So a huge paste is one
 * grapheme to the editor: typing after it costs what typing costs in an empty buffer.
 */
const FIRST = 0xf0000;
const LAST = 0xffffd;
const TOKENS = /[\u{F0000}-\u{FFFFD}]/gu;
/** A paste with more lines or characters than this becomes a placeholder. */
export const COLLAPSE_LINES = 10;
export const COLLAPSE_CHARS = 2000;

type Pasted = { text: string; label: string; width: number };

/** `[pasted 5000 lines]` (or `[pasted 40000 chars]` for one long line). */
export function labelFor(text: string): string {
	let lines = 1;
	for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines++;
	if (text.endsWith("\n")) lines--; // a final newline ends the last line; it does not start another
	return lines > 1 ? `[pasted ${lines} lines]` : `[pasted ${text.length} chars]`;
}

/** Whether a paste is large enough to be shown as a placeholder. */
export function shouldCollapse(text: string): boolean {
	if (text.length > COLLAPSE_CHARS) return true;
	let lines = 1;
	for (let i = text.indexOf("\n"); i !== -1 && lines <= COLLAPSE_LINES; i = text.indexOf("\n", i + 1)) lines++;
	return lines > COLLAPSE_LINES;
}

/**
 * The placeholders of one editor buffer: what each stands for, and its label. It belongs to the buffer (TextBuffer
 * `pastes`), which frees them with the rest of its state. A placeholder character is never reused within one
 * registry (until 65,534 pastes wrap around), so rows wrapped with `measure` stay right for its text.
 */
export class PasteRegistry {
	private readonly pastes = new Map<string, Pasted>();
	private next = FIRST;

	/** Columns one grapheme of the buffer takes on screen (a placeholder: its label's). */
	readonly measure = (g: string): number => {
		if (g.length === 2 && isToken(g)) return this.pastes.get(g)?.width ?? 7;
		return graphemeWidth(g);
	};

	/** How many pastes are held. */
	get size(): number {
		return this.pastes.size;
	}

	/** A new placeholder character standing for `text`. */
	make(text: string): string {
		const token = String.fromCodePoint(this.next);
		this.next = this.next >= LAST ? FIRST : this.next + 1;
		const label = labelFor(text);
		this.pastes.set(token, { text, label, width: stringWidth(label) });
		return token;
	}

	/** What a placeholder is drawn as. */
	label(token: string): string {
		return this.pastes.get(token)?.label ?? "[paste]";
	}

	/** The text with every placeholder replaced by what was pasted. O(text + pastes). */
	expand(text: string): string {
		if (!hasTokens(text)) return text;
		return text.replace(TOKENS, (token) => this.pastes.get(token)?.text ?? "");
	}

	/** The message to send: the text with placeholders expanded, and where each of those pastes sits in it. */
	expandMessage(text: string): UserInput {
		if (!hasTokens(text)) return { text };
		const ranges: NonNullable<UserInput["pastes"]> = [];
		let grown = 0;
		const out = text.replace(TOKENS, (token: string, offset: number) => {
			const pasted = this.pastes.get(token)?.text ?? "";
			const start = offset + grown;
			if (pasted) ranges.push({ start, end: start + pasted.length });
			grown += pasted.length - token.length;
			return pasted;
		});
		return ranges.length > 0 ? { text: out, pastes: ranges } : { text: out };
	}

	/** The text with every placeholder replaced by its label (for showing a draft as plain text). */
	labelAll(text: string): string {
		if (!hasTokens(text)) return text;
		return text.replace(TOKENS, (token) => this.label(token));
	}

	/** Forgets every paste except those whose placeholders are in `keep` (text about to be put back). */
	release(keep = ""): void {
		if (this.pastes.size === 0) return;
		const kept = new Set(hasTokens(keep) ? keep.match(TOKENS) : []);
		for (const token of this.pastes.keys()) if (!kept.has(token)) this.pastes.delete(token);
	}
}

/** Whether a grapheme is a placeholder character. */
export function isToken(g: string): boolean {
	if (g.length !== 2) return false;
	const code = g.codePointAt(0) ?? 0;
	return code >= FIRST && code <= LAST;
}

/** Whether the text holds a placeholder character. */
export function hasTokens(text: string): boolean {
	TOKENS.lastIndex = 0;
	return TOKENS.test(text);
}

/** Removes placeholder characters from text that came from outside (typed or pasted), so none is forged. */
export function stripTokens(text: string): string {
	return hasTokens(text) ? text.replace(TOKENS, "") : text;
}
