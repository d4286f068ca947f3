import type { KeyBinding, KeyContext } from "./keymap.js";

const WORD = "move by word";
const LINE_EDGE = "start/end of the line";
const DELETE_TO_EDGE = "delete to the start / end of the line";
const UNDO = "undo / redo";
const SCROLL = "scroll the chat";

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
		action: "transcript",
		help: "the transcript: a cursor on the chat's blocks, from the newest folded one (opened; Ctrl+O folds it again)",
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

	// The transcript mode (Ctrl+O): a cursor on the chat's blocks; its bar shows these keys.
	{
		context: "transcript",
		keys: ["↑", "k"],
		action: "blockUp",
		help: "the block above / below",
		label: "↑ / ↓, k / j",
	},
	{
		context: "transcript",
		keys: ["↓", "j"],
		action: "blockDown",
		help: "the block above / below",
		label: "↑ / ↓, k / j",
	},
	{ context: "transcript", keys: ["Enter", "Ctrl+O"], action: "toggleBlock", help: "expand or fold the block" },
	{ context: "transcript", keys: ["/"], action: "find", help: "search the transcript (older blocks first)" },
	{ context: "transcript", keys: ["n"], action: "findOlder", help: "the next match, older", label: "n / N" },
	{ context: "transcript", keys: ["Shift+N"], action: "findNewer", help: "the next match, newer", label: "n / N" },
	{ context: "transcript", keys: ["Home", "End"], action: "blockEdge", help: "the first block / the newest" },
	{ context: "transcript", keys: ["Esc", "q"], action: "leaveTranscript", help: "back to the bottom and the input" },
	{ context: "transcript", keys: ["PgUp", "PgDn"], action: "scrollPage", help: SCROLL, label: "PgUp/PgDn, Shift+↑/↓" },
	{
		context: "transcript",
		keys: ["Shift+↑", "Shift+↓"],
		action: "scrollLine",
		help: SCROLL,
		label: "PgUp/PgDn, Shift+↑/↓",
	},
	{ context: "transcript", keys: ["Ctrl+Z"], action: "suspend", help: "" },
	// The transcript's search line (other keys type the query).
	{ context: "find", keys: ["Enter"], action: "findRun", help: "search" },
	{ context: "find", keys: ["Esc"], action: "findCancel", help: "close the search line" },
	{ context: "find", keys: ["Backspace"], action: "findBackspace", help: "delete from the query" },

	// Ctrl+R's history search (other keys: ↑ ↓ ← → Home End take the match, text filters).
	{ context: "search", keys: ["Esc", "Ctrl+G"], action: "searchCancel", help: "leave the input as it was" },
	{ context: "search", keys: ["Ctrl+R"], action: "searchOlder", help: "an older match" },
	{ context: "search", keys: ["Enter"], action: "searchAccept", help: "take the match" },
	{ context: "search", keys: ["Backspace"], action: "searchBackspace", help: "delete from the query" },
] as const satisfies readonly KeyBinding[];

/** What a key of the app can do: the actions the table names. */
export type KeyAction = (typeof KEY_TABLE)[number]["action"];

/** The contexts /help lists (the approval panel and the search line show their own keys). */
export const HELP_CONTEXTS: readonly KeyContext[] = ["global", "chat", "editor"];

/** A context of the replay screen's own (`gar replay` in a terminal): the replay's keys, over the global ones. */
export type ReplayContext = "global" | "replay";

/**
 * The replay screen's keys (screens/ReplayScreen.tsx): the global ones (Ctrl+C), then its own. Nothing typed is sent
 * during a replay; README's replay key table names these.
 */
export const REPLAY_KEYS = [
	...KEY_TABLE.filter((b): b is Extract<(typeof KEY_TABLE)[number], { context: "global" }> => b.context === "global"),
	{ context: "replay", keys: ["Space"], action: "replayToggle", help: "pause / play (at the end: play again)" },
	{ context: "replay", keys: ["→"], action: "replayStep", help: "the next event, then pause" },
	{ context: "replay", keys: ["End"], action: "replayEnd", help: "jump to the end" },
	{
		context: "replay",
		keys: ["PgUp", "PgDn"],
		action: "scrollPage",
		help: SCROLL,
		label: "PgUp/PgDn, Shift+↑/↓, Home",
	},
	{
		context: "replay",
		keys: ["Shift+↑", "Shift+↓"],
		action: "scrollLine",
		help: SCROLL,
		label: "PgUp/PgDn, Shift+↑/↓, Home",
	},
	{ context: "replay", keys: ["Home"], action: "scrollTop", help: SCROLL, label: "PgUp/PgDn, Shift+↑/↓, Home" },
	{ context: "replay", keys: ["Ctrl+O"], action: "expand", help: "expand the newest folded block" },
	{ context: "replay", keys: ["Tab"], action: "inspector", help: "show or hide the inspector" },
	{ context: "replay", keys: ["q", "Esc", "Ctrl+D"], action: "quit", help: "leave the replay" },
	{ context: "replay", keys: ["Ctrl+Z"], action: "suspend", help: "suspend (fg resumes)" },
] as const satisfies readonly KeyBinding<string, ReplayContext>[];

/** What a key of the replay screen can do. */
export type ReplayAction = (typeof REPLAY_KEYS)[number]["action"];
