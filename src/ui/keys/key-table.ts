import type { KeyBinding, KeyContext } from "./keymap.js";

const WORD = "move by word";
const LINE_EDGE = "start/end of the line";
const DELETE_TO_EDGE = "delete to the start / end of the line";
const UNDO = "undo / redo";
const SCROLL = "scroll the chat";

/**
 * The resume picker's keys (gar -r, /resume; README "The resume picker" lists them): a table of its own, since the
 * chat's handler runs every action of KEY_TABLE. What is typed filters the list; Ctrl+C (global) leaves it.
 */
export const PICKER_KEYS = [
	{ context: "picker", keys: ["↑", "↓"], action: "pickerMove", help: "choose a session", label: "↑ / ↓" },
	{ context: "picker", keys: ["PgUp", "PgDn"], action: "pickerPage", help: "a page up / down", label: "PgUp / PgDn" },
	{ context: "picker", keys: ["Enter"], action: "pickerOpen", help: "open it (while renaming: save the name)" },
	{ context: "picker", keys: ["Tab"], action: "pickerScope", help: "this project's sessions / every project's" },
	{ context: "picker", keys: ["Ctrl+R"], action: "pickerRename", help: "rename it" },
	{ context: "picker", keys: ["Ctrl+D"], action: "pickerDelete", help: "move it to the trash (asks first)" },
	{
		context: "picker",
		keys: ["Esc"],
		action: "pickerBack",
		help: "clear the filter, then back (while renaming: keep the old name)",
	},
	{ context: "picker_delete", keys: ["y"], action: "pickerConfirm", help: "move it to the trash" },
	{ context: "picker_delete", keys: ["n", "Esc"], action: "pickerBack", help: "keep it" },
] as const satisfies readonly KeyBinding[];

/**
 * Every key of the full-screen app, as data: screens/chat-keys.ts runs the actions, /help lists the lines in this
 * order, and a test checks that README.md and README_CN.md name the same keys. Within a context a key with more
 * modifiers is tried first ("Alt+Enter" before "Enter"); an action may pass a key on (`false`), as ↑ does to the
 * queued message.
 */
export const KEY_TABLE = [
	{
		context: "editor",
		keys: ["Enter"],
		action: "submit",
		help: "send (while a run goes on: steer after the current tool)",
	},
	{
		context: "editor",
		keys: ["Alt+Enter"],
		action: "followUp",
		help: "new line (while a run goes on: follow up when it ends)",
	},
	{ context: "editor", keys: ["Shift+Enter", "Ctrl+J"], action: "newline", help: "new line" },
	{
		context: "editor",
		keys: ["↑", "↓"],
		action: "vertical",
		help: "move between lines; on the first/last line walk the history",
		label: "↑ / ↓",
	},
	{
		context: "editor",
		keys: ["↑"],
		action: "pullQueued",
		help: "pull back the last queued message",
		label: "↑ on an empty input",
	},
	{ context: "chat", keys: ["Ctrl+R"], action: "search", help: "search the history (Enter takes it, Esc cancels)" },
	{ context: "chat", keys: ["Ctrl+G"], action: "externalEditor", help: "edit the message in $EDITOR" },
	{
		context: "editor",
		keys: ["Tab"],
		action: "complete",
		help: "complete a /command; after /model or /theme list the choices (else: the inspector)",
	},
	{ context: "editor", keys: ["Ctrl+←", "Alt+B"], action: "wordLeft", help: WORD, label: "Ctrl+←/→, Alt+B/F" },
	{ context: "editor", keys: ["Ctrl+→", "Alt+F"], action: "wordRight", help: WORD, label: "Ctrl+←/→, Alt+B/F" },
	{ context: "editor", keys: ["Home", "Ctrl+A"], action: "home", help: LINE_EDGE, label: "Home/End, Ctrl+A/E" },
	{ context: "editor", keys: ["End", "Ctrl+E"], action: "end", help: LINE_EDGE, label: "Home/End, Ctrl+A/E" },
	{
		context: "editor",
		keys: ["Ctrl+W", "Alt+Backspace"],
		action: "deleteWordLeft",
		help: "delete the word before the cursor",
	},
	{ context: "editor", keys: ["Ctrl+U"], action: "deleteToLineStart", help: DELETE_TO_EDGE, label: "Ctrl+U / Ctrl+K" },
	{ context: "editor", keys: ["Ctrl+K"], action: "deleteToLineEnd", help: DELETE_TO_EDGE, label: "Ctrl+U / Ctrl+K" },
	{ context: "editor", keys: ["Ctrl+_"], action: "undo", help: UNDO, label: "Ctrl+_ / Ctrl+Y" },
	{ context: "editor", keys: ["Ctrl+Y"], action: "redo", help: UNDO, label: "Ctrl+_ / Ctrl+Y" },
	{ context: "chat", keys: ["Esc"], action: "stop", help: "stop the run" },
	{ context: "global", keys: ["Ctrl+C"], action: "interrupt", help: "clear the input, stop the run; twice to quit" },
	{
		context: "chat",
		keys: ["Ctrl+D"],
		action: "quit",
		help: "quit on an empty input (twice while a run goes on; otherwise delete forward)",
	},
	{
		context: "chat",
		keys: ["Ctrl+O"],
		action: "expand",
		help: "expand the newest folded block (tool output, thinking, a paste)",
	},
	{ context: "chat", keys: ["PgUp", "PgDn"], action: "scrollPage", help: SCROLL, label: "PgUp/PgDn, Shift+↑/↓" },
	{ context: "chat", keys: ["Shift+↑", "Shift+↓"], action: "scrollLine", help: SCROLL, label: "PgUp/PgDn, Shift+↑/↓" },
	{ context: "chat", keys: ["Ctrl+Z"], action: "suspend", help: "suspend (fg resumes)" },

	// Not in /help (README names some of them).
	{ context: "chat", keys: ["Home", "End"], action: "scrollEdge", help: "" },
	{ context: "editor", keys: ["Ctrl+Enter"], action: "newline", help: "" },
	{ context: "editor", keys: ["Alt+←"], action: "wordLeft", help: "" },
	{ context: "editor", keys: ["Alt+→"], action: "wordRight", help: "" },
	{ context: "editor", keys: ["←", "Ctrl+B"], action: "left", help: "" },
	{ context: "editor", keys: ["→", "Ctrl+F"], action: "right", help: "" },
	{ context: "editor", keys: ["Backspace"], action: "backspace", help: "" },

	// While an approval question is open (its keys are on the panel).
	{ context: "approval", keys: ["Esc"], action: "approvalStop", help: "deny and stop (while typing why not: deny)" },
	{ context: "approval", keys: ["↑", "↓", "PgUp", "PgDn"], action: "approvalScroll", help: "scroll the preview" },
	{ context: "approval", keys: ["y"], action: "allowOnce", help: "allow once" },
	{ context: "approval", keys: ["a"], action: "allowAlways", help: "allow this tool for the session" },
	{ context: "approval", keys: ["n"], action: "deny", help: "deny, then say why (optional)" },

	// Ctrl+R's history search (other keys: ↑ ↓ ← → Home End take the match, text filters).
	{ context: "search", keys: ["Esc", "Ctrl+G"], action: "searchCancel", help: "leave the input as it was" },
	{ context: "search", keys: ["Ctrl+R"], action: "searchOlder", help: "an older match" },
	{ context: "search", keys: ["Enter"], action: "searchAccept", help: "take the match" },
	{ context: "search", keys: ["Backspace"], action: "searchBackspace", help: "delete from the query" },
] as const satisfies readonly KeyBinding[];

/** What a key of the picker can do. */
export type PickerAction = (typeof PICKER_KEYS)[number]["action"];

/** What a key of the app can do: the actions the table names. */
export type KeyAction = (typeof KEY_TABLE)[number]["action"];

/** The contexts /help lists (the approval panel and the search line show their own keys). */
export const HELP_CONTEXTS: readonly KeyContext[] = ["global", "chat", "editor"];
