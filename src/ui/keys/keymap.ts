import type { Key } from "ink";

/**
 * Where a key binding applies. A key is offered to the active contexts of the screen on top in order: `global` (over
 * every screen and dialog), then the open dialog (`approval`), the history `search`, the transcript mode's search
 * line (`find`) and the mode itself (`transcript`), the screen's own (`chat`; a screen to come brings its own context
 * and bindings, and its layers), and the `editor`. The session tree's screen has `tree`, and `treeField` while its
 * one-line field (search, label) is open; the rewind screen has `rewind`.
 */
export type KeyContext =
	| "global"
	| "approval"
	| "search"
	| "transcript"
	| "chat"
	| "editor"
	| "tree"
	| "treeField"
	| "rewind"
	| DocContext
	| PickerContext;
/**
 * The doc screen's contexts (the request viewer, a sub-agent's session): its keys, and its `/` search line (`find`,
 * which the chat's transcript mode shares).
 */
export type DocContext = "doc" | "find";
/** The resume picker's contexts: its list (typing filters) and its delete question. */
type PickerContext = "picker" | "picker_delete";

/**
 * One binding: in `context`, any of `keys` runs `action`. Keys are named as /help and README write them ("Ctrl+C",
 * "Shift+Enter", "PgUp", "↑", "y"). `help` is its line in /help ("" to leave it out); `label` is that line's key
 * column where it differs from the keys joined (bindings sharing a label share one line: "Home/End, Ctrl+A/E").
 */
export type KeyBinding<A extends string = string, C extends string = KeyContext> = {
	context: C;
	keys: readonly string[];
	action: A;
	help: string;
	label?: string;
};

/** What each action does with its key. One that returns `false` does not apply now: the key goes on to the next. */
export type KeyActions<A extends string> = Record<A, (text: string, key: Key) => unknown>;

/** A context as the dispatcher sees it: whether it is active now, and what to do with a key its bindings left. */
export type KeyLayer<C extends string = KeyContext> = {
	context: C;
	active?: () => boolean;
	/** True: the key was used (or swallowed) here; false: it goes on to the next context. */
	rest?: (text: string, key: Key) => boolean;
};

type Test = (text: string, key: Key) => boolean;
type Compiled<A extends string, C extends string> = { binding: KeyBinding<A, C>; test: Test; modifiers: number };

/** xterm's modifyOtherKeys form of a modified Enter: ESC [ 27 ; modifiers ; 13 ~ (Ink passes it on without ESC). */
const MODIFIED_ENTER = /^\[27;(\d+);13~$/;
/** The modifier bits of a modifyOtherKeys Enter (1 Shift, 2 Alt, 4 Ctrl), or null for any other input. */
function modifiedEnter(text: string): number | null {
	const match = MODIFIED_ENTER.exec(text);
	return match ? Number(match[1]) - 1 : null;
}

const NAMED: Readonly<Record<string, (key: Key) => boolean>> = {
	Enter: (k) => k.return,
	Esc: (k) => k.escape,
	Tab: (k) => k.tab,
	// Backspace arrives as `delete` in Ink 6.
	Backspace: (k) => k.backspace || k.delete,
	"↑": (k) => k.upArrow,
	"↓": (k) => k.downArrow,
	"←": (k) => k.leftArrow,
	"→": (k) => k.rightArrow,
	PgUp: (k) => k.pageUp,
	PgDn: (k) => k.pageDown,
	Home: (k) => k.home,
	End: (k) => k.end,
};

/** Keys Ink does not report as themselves: they are recognised by what arrives instead. */
const SPECIAL: Readonly<Record<string, Test>> = {
	// Space arrives as the text " ", with no flag of its own.
	Space: (text) => text === " ",
	// Ctrl+_ arrives as its byte, 0x1F, with no modifier.
	"Ctrl+_": (text) => text === "\x1f",
	// Ctrl+J arrives as "\n", which the editor reads as typed text (see `bytesOf`); under the kitty keyboard protocol
	// (kitty, WezTerm, ghostty) as Ctrl with "j".
	"Ctrl+J": (text, k) => k.ctrl && text === "j",
	// With modifyOtherKeys, Alt alone makes Alt+Enter and any other modifier a new line.
	"Alt+Enter": (text, k) => (k.return && k.meta) || modifiedEnter(text) === 2,
	"Shift+Enter": (text, k) => {
		const bits = modifiedEnter(text);
		return (k.return && k.shift) || (bits !== null && bits !== 2);
	},
};

/** The modifiers a key name requires, and its last part ("Ctrl+Alt+B" → ctrl, meta, "B"). */
function parse(name: string): { ctrl: boolean; meta: boolean; shift: boolean; base: string } {
	const parts = name.split("+");
	const base = parts.pop() ?? "";
	return { ctrl: parts.includes("Ctrl"), meta: parts.includes("Alt"), shift: parts.includes("Shift"), base };
}

/**
 * How a key name is recognised in an input event. The modifiers it names must be held; others are not looked at
 * (so bindings are tried most modifiers first). A letter alone ("y") is that letter in either case, also when the
 * Enter typed right after it came in the same read ("y\r"); "Shift+N" is the capital only (tried before "n").
 */
function compileKey(name: string): Test {
	const special = SPECIAL[name];
	if (special) return special;
	const { ctrl, meta, shift, base } = parse(name);
	const held = (k: Key) => (!ctrl || k.ctrl) && (!meta || k.meta) && (!shift || k.shift);
	const named = NAMED[base];
	if (named) return (_text, k) => named(k) && held(k);
	const letter = base.toLowerCase();
	if (ctrl || meta) return (text, k) => text === letter && held(k);
	// Ink reports a capital as the capital with Shift held; a test may send the small letter with Shift.
	if (shift) return (text, k) => text.toLowerCase() === letter && (k.shift || text !== letter);
	return (text) => (text.length === 2 && text.endsWith("\r") ? text.slice(0, 1) : text).toLowerCase() === letter;
}

/** How many modifiers a key name holds: a binding with more is tried first ("Ctrl+←" before "←"). */
function modifierCount(name: string): number {
	const { ctrl, meta, shift } = parse(name);
	return Number(ctrl) + Number(meta) + Number(shift);
}

/**
 * The control bytes a key sends inside a run of typed text (a chunk of several keys read at once): Enter "\r", Tab
 * "\t", Backspace DEL or BS, Ctrl+J "\n", Ctrl+A … Ctrl+Z their bytes 0x01 … 0x1A.
 */
function bytesOf(name: string): string[] {
	if (name === "Enter") return ["\r"];
	if (name === "Tab") return ["\t"];
	if (name === "Backspace") return ["\x7f", "\b"];
	const { ctrl, meta, shift, base } = parse(name);
	if (ctrl && !meta && !shift && /^[A-Z]$/.test(base)) return [String.fromCharCode(base.charCodeAt(0) - 64)];
	return [];
}

/**
 * The key handler of a table: offers each key to the active layers in order, each trying its context's bindings
 * (most modifiers first, then in table order) and then its `rest`. Returns whether some layer used the key.
 */
export function keyDispatcher<A extends string, C extends string = KeyContext>(
	table: readonly KeyBinding<A, C>[],
	layers: readonly KeyLayer<C>[],
	actions: KeyActions<A>,
): (text: string, key: Key) => boolean {
	const byContext = new Map<C, Compiled<A, C>[]>();
	for (const binding of table) {
		const list = byContext.get(binding.context) ?? [];
		for (const name of binding.keys) list.push({ binding, test: compileKey(name), modifiers: modifierCount(name) });
		byContext.set(binding.context, list);
	}
	for (const list of byContext.values()) list.sort((a, b) => b.modifiers - a.modifiers);
	return (text, key) => {
		for (const layer of layers) {
			if (layer.active && !layer.active()) continue;
			for (const { binding, test } of byContext.get(layer.context) ?? []) {
				if (test(text, key) && actions[binding.action](text, key) !== false) return true;
			}
			if (layer.rest?.(text, key)) return true;
		}
		return false;
	};
}

/** The actions of `context`'s keys by the control byte each sends inside typed text ("\r" → Enter's action). */
export function byteActions<A extends string, C extends string = KeyContext>(
	table: readonly KeyBinding<A, C>[],
	context: C,
): Map<string, A> {
	const map = new Map<string, A>();
	for (const binding of table) {
		if (binding.context !== context) continue;
		for (const name of binding.keys)
			for (const byte of bytesOf(name)) if (!map.has(byte)) map.set(byte, binding.action);
	}
	return map;
}

/** /help's key lines for `contexts`: one per label, in table order. */
export function keyHelp(
	table: readonly KeyBinding[],
	contexts: readonly KeyContext[],
): [label: string, help: string][] {
	const rows = new Map<string, string>();
	for (const binding of table) {
		if (binding.help === "" || !contexts.includes(binding.context)) continue;
		const label = binding.label ?? binding.keys.join(", ");
		if (!rows.has(label)) rows.set(label, binding.help);
	}
	return [...rows];
}

/** A key with nothing held: what a key read inside a chunk of typed text is dispatched with. */
export const NO_KEY: Key = {
	upArrow: false,
	downArrow: false,
	leftArrow: false,
	rightArrow: false,
	pageDown: false,
	pageUp: false,
	home: false,
	end: false,
	return: false,
	escape: false,
	ctrl: false,
	shift: false,
	tab: false,
	backspace: false,
	delete: false,
	meta: false,
	super: false,
	hyper: false,
	capsLock: false,
	numLock: false,
};

/** Keys that arrive as bytes inside a chunk of typed text: Enter, Tab, Backspace. */
const CHUNK_CONTROLS: Readonly<Record<string, Partial<Key>>> = {
	"\r": { return: true },
	"\t": { tab: true },
	"\x7f": { delete: true },
};

/**
 * A chunk of keys read at once ("/grammar\r", "j\r": fast typing, a terminal that batches) as the keys it holds, one
 * by one, for a screen whose letters are keys (not text); null for a single key or anything that is not typed text
 * (an escape sequence, or what Ink passes on of one: "[1;5A").
 */
export function keysOf(text: string, key: Key): [string, Key][] | null {
	if (key.ctrl || key.meta || Array.from(text).length < 2 || text.startsWith("[")) return null;
	const keys: [string, Key][] = [];
	for (const char of text) {
		const control = CHUNK_CONTROLS[char];
		if (control) keys.push(["", { ...NO_KEY, ...control }]);
		else if (char >= " ") keys.push([char, { ...NO_KEY, shift: /^[A-Z]$/.test(char) }]);
		else return null;
	}
	return keys;
}
