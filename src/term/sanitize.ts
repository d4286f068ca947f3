/**
 * Text from models, tools, files and session files is shown to a person in a terminal. A terminal interprets
 * control characters: ESC starts sequences that move the cursor, erase the screen, set the window title
 * (OSC 0/2), write the clipboard (OSC 52) or hide a link target (OSC 8); `\r` lets later text overwrite earlier
 * text; bidi controls reorder what is displayed. Everything here makes such characters visible instead.
 */

// Controls a terminal acts on: C0 except tab and newline, a `\r` not ending a line (a `\r\n` cannot hide
// anything), DEL, C1, and the bidi marks, embeddings, overrides and isolates.
const CONTROL_SOURCE =
	"\\r(?!\\n)|[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f-\\x9f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069]";
// A surrogate half without its partner: text decoded from invalid UTF-8 or cut mid-character.
const LONE_SURROGATE_SOURCE = "[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]";

const CONTROL = new RegExp(CONTROL_SOURCE);
const ANY = new RegExp(`${CONTROL_SOURCE}|${LONE_SURROGATE_SOURCE}`);
const ANY_GLOBAL = new RegExp(ANY.source, "g");

/** How one hostile code unit is shown: `␛` for ESC, caret notation (`^G`, `^M`) for C0, `⟨U+202E⟩` otherwise. */
function visible(char: string): string {
	const code = char.charCodeAt(0);
	if (code === 0x1b) return "␛";
	if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
	if (code === 0x7f) return "^?";
	if (code >= 0xd800 && code <= 0xdfff) return "\ufffd";
	return codePoint(char);
}

/**
 * Text safe to write to a terminal: every control character, escape sequence introducer and bidi control is
 * replaced by a visible stand-in (so `\x1b[2J` shows as `␛[2J`), lone surrogates become U+FFFD; newline, tab
 * and `\r\n` stay. O(n); clean text is returned as is.
 */
export function sanitizeForTerminal(text: string): string {
	if (!ANY.test(text)) return text;
	return text.replace(ANY_GLOBAL, visible);
}

/**
 * JSON text of `value` that a terminal cannot act on yet reads back as exactly `value`: the characters
 * `sanitizeForTerminal` would replace (C1 controls and bidi marks, which JSON.stringify leaves raw) are written as
 * `\uXXXX` escapes instead. They can only occur inside strings, where the escape means the same character.
 * `indent`: spaces per level, as JSON.stringify's (none: one line).
 */
export function jsonForTerminal(value: unknown, indent?: number): string {
	const json = JSON.stringify(value, null, indent) ?? "null";
	if (!ANY.test(json)) return json;
	return json.replace(ANY_GLOBAL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** `sanitizeForTerminal` for raw bytes: invalid UTF-8 sequences become U+FFFD. */
export function sanitizeBytesForTerminal(bytes: Uint8Array): string {
	return sanitizeForTerminal(new TextDecoder("utf-8").decode(bytes));
}

/**
 * True when `text` holds a character `sanitizeForTerminal` would show as a stand-in (controls and bidi
 * marks; not invalid UTF-8), so a question about a command can say it contains terminal control characters.
 */
export function hasHostileControls(text: string): boolean {
	return CONTROL.test(text);
}

// Characters that take no column, so a word can hide one (`/tmp/build` + U+200B is another path): zero-width
// space, non-joiner and joiner, word joiner and the invisible operators, the BOM, and tag characters (text that
// shows as nothing). Left alone where they are part of a picture: a joiner between two emoji (👩‍👩‍👧) and the tags
// of a subdivision flag (🏴 + tags).
const ZERO_WIDTH_SOURCE = [
	"[\\u200b\\u200c\\u2060-\\u2064\\ufeff]",
	"(?<!\\p{Extended_Pictographic}[\\u{1f3fb}-\\u{1f3ff}\\ufe0f]?)\\u200d",
	"\\u200d(?!\\p{Extended_Pictographic})",
	"(?<!\\u{1f3f4}[\\u{e0020}-\\u{e007e}]*)[\\u{e0000}-\\u{e007f}]",
].join("|");
const ZERO_WIDTH = new RegExp(ZERO_WIDTH_SOURCE, "u");
const ZERO_WIDTH_GLOBAL = new RegExp(ZERO_WIDTH_SOURCE, "gu");

/** True when `text` holds a zero-width character (U+200B–U+200D, U+2060–U+2064, U+FEFF, tags) outside an emoji. */
export function hasZeroWidth(text: string): boolean {
	return ZERO_WIDTH.test(text);
}

/**
 * `sanitizeForTerminal` for text a person must read exactly (an approval question): zero-width characters are
 * shown too, as `⟨U+200B⟩`. O(n).
 */
export function revealHidden(text: string): string {
	const safe = sanitizeForTerminal(text);
	return ZERO_WIDTH.test(safe) ? safe.replace(ZERO_WIDTH_GLOBAL, (char) => codePoint(char)) : safe;
}

/** `⟨U+200B⟩`, `⟨U+E0041⟩`. */
function codePoint(char: string): string {
	return `⟨U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}⟩`;
}

/**
 * `sanitizeForTerminal` for text that arrives in pieces (streamed deltas): a piece ending in `\r` or in the
 * first half of a surrogate pair is held back until the next one shows whether it was `\r\n` or a whole
 * character. O(piece); call `end()` for what is left.
 */
export class TerminalSanitizer {
	private held = "";

	/** The printable text of `piece`, possibly without its last code unit (kept for the next call). */
	push(piece: string): string {
		const text = this.held + piece;
		const last = text.charCodeAt(text.length - 1);
		const hold = last === 0x0d || (last >= 0xd800 && last <= 0xdbff);
		this.held = hold ? text.slice(-1) : "";
		return sanitizeForTerminal(hold ? text.slice(0, -1) : text);
	}

	/** Whatever was held back, shown as it stands (a lone `\r` as `^M`). */
	end(): string {
		const rest = this.held;
		this.held = "";
		return sanitizeForTerminal(rest);
	}
}
