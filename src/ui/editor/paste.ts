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
const pastes = new Map<string, Pasted>();
let next = FIRST;

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

/** A new placeholder character standing for `text`. */
export function makeToken(text: string): string {
	const token = String.fromCodePoint(next);
	next = next >= LAST ? FIRST : next + 1;
	const label = labelFor(text);
	pastes.set(token, { text, label, width: stringWidth(label) });
	return token;
}

export function isToken(g: string): boolean {
	if (g.length !== 2) return false;
	const code = g.codePointAt(0) ?? 0;
	return code >= FIRST && code <= LAST;
}

/** What a placeholder is drawn as. */
export function tokenLabel(token: string): string {
	return pastes.get(token)?.label ?? "[paste]";
}

/** Columns one grapheme of the buffer takes on screen (a placeholder: its label). */
export function cellWidth(g: string): number {
	if (g.length === 2 && isToken(g)) return pastes.get(g)?.width ?? 7;
	return graphemeWidth(g);
}

/** The text with every placeholder replaced by what was pasted. O(text + pastes). */
export function expandPastes(text: string): string {
	if (!hasTokens(text)) return text;
	return text.replace(TOKENS, (token) => pastes.get(token)?.text ?? "");
}

/** The message to send: the text with placeholders expanded, and where each of those pastes sits in it. */
export function expandMessage(text: string): UserInput {
	if (!hasTokens(text)) return { text };
	const ranges: NonNullable<UserInput["pastes"]> = [];
	let grown = 0;
	const out = text.replace(TOKENS, (token: string, offset: number) => {
		const pasted = pastes.get(token)?.text ?? "";
		const start = offset + grown;
		if (pasted) ranges.push({ start, end: start + pasted.length });
		grown += pasted.length - token.length;
		return pasted;
	});
	return ranges.length > 0 ? { text: out, pastes: ranges } : { text: out };
}

/** The text with every placeholder replaced by its label (for showing a draft as plain text). */
export function labelPastes(text: string): string {
	if (!hasTokens(text)) return text;
	return text.replace(TOKENS, (token) => tokenLabel(token));
}

export function hasTokens(text: string): boolean {
	TOKENS.lastIndex = 0;
	return TOKENS.test(text);
}

/** Removes placeholder characters from text that came from outside (typed or pasted), so none is forged. */
export function stripTokens(text: string): string {
	return hasTokens(text) ? text.replace(TOKENS, "") : text;
}

/** Forgets the pastes of `text` (after it was sent). */
export function releasePastes(text: string): void {
	if (!hasTokens(text)) return;
	for (const token of text.match(TOKENS) ?? []) pastes.delete(token);
}
