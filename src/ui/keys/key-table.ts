import type { DocContext, KeyBinding, KeyContext } from "./keymap.js";

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
	{
		context: "chat",
		keys: ["Esc"],
		action: "stop",
		help: "stop the run; idle, on an empty input, twice: rewind (your prompts, to go back to before one)",
	},
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
	{
		context: "chat",
		keys: ["Alt+R"],
		action: "openRequest",
		help: "the exact request of the turn at the top of the screen (the latest when following)",
	},
	{
		context: "chat",
		keys: ["Alt+S"],
		action: "openSubagent",
		help: "the session of the sub-agent a bash block ran (read-only)",
	},

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
	{
		context: "approval",
		keys: ["p"],
		action: "allowPrefix",
		help: "allow commands starting with the prefix shown, from now on (a rule saved to the config)",
	},
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
	// Its search line after `/` is the `find` context, which it shares with the doc screen's (below).

	// Ctrl+R's history search (other keys: ↑ ↓ ← → Home End take the match, text filters).
	{ context: "search", keys: ["Esc", "Ctrl+G"], action: "searchCancel", help: "leave the input as it was" },
	{ context: "search", keys: ["Ctrl+R"], action: "searchOlder", help: "an older match" },
	{ context: "search", keys: ["Enter"], action: "searchAccept", help: "take the match" },
	{ context: "search", keys: ["Backspace"], action: "searchBackspace", help: "delete from the query" },

	// The session tree (/tree, t in the rewind list), a screen of its own: README's tree table names these keys.
	{ context: "tree", keys: ["↑", "↓"], action: "treeMove", help: "move", label: "↑ / ↓" },
	{
		context: "tree",
		keys: ["PgUp", "PgDn", "Home", "End"],
		action: "treePage",
		help: "a page up or down / the first or last row",
		label: "PgUp/PgDn, Home/End",
	},
	{ context: "tree", keys: ["←"], action: "treeFold", help: "fold the branch (folded: go to its branch point)" },
	{ context: "tree", keys: ["→"], action: "treeUnfold", help: "unfold (on a branch point: into its first branch)" },
	{
		context: "tree",
		keys: ["Tab", "Shift+Tab"],
		action: "treeBranch",
		help: "the next / previous branch point",
		label: "Tab / Shift+Tab",
	},
	{ context: "tree", keys: ["/"], action: "treeSearch", help: "search prompts and replies (Enter finds)" },
	{
		context: "tree",
		keys: ["n", "Shift+N"],
		action: "treeMatch",
		help: "the next / previous match",
		label: "n / Shift+N",
	},
	{ context: "tree", keys: ["v"], action: "treeFilter", help: "show all entries / user prompts only / labelled only" },
	{
		context: "tree",
		keys: ["Enter"],
		action: "treeLeaf",
		help: "make it the current leaf: the chat continues from it",
	},
	{
		context: "tree",
		keys: ["e"],
		action: "treeEdit",
		help: "on a prompt: edit and resend it (a new branch from its parent)",
	},
	{ context: "tree", keys: ["l"], action: "treeLabel", help: "label it (an empty label clears it)" },
	{ context: "tree", keys: ["f"], action: "treeFork", help: "fork: a new session of the path up to it" },
	{ context: "tree", keys: ["Esc", "q"], action: "treeClose", help: "back to the chat" },
	{ context: "treeField", keys: ["Enter"], action: "treeFieldSubmit", help: "search / set the label" },
	{ context: "treeField", keys: ["Esc"], action: "treeFieldCancel", help: "leave the field" },

	// The doc screen: the request viewer and a sub-agent's session (keys on its bottom line).
	{ context: "doc", keys: ["Esc", "q"], action: "docClose", help: "back to the chat" },
	{ context: "doc", keys: ["↑", "↓"], action: "docLine", help: "scroll a line" },
	{ context: "doc", keys: ["PgUp", "PgDn"], action: "docPage", help: "scroll a page" },
	{ context: "doc", keys: ["Home", "End"], action: "docEdge", help: "the top / the end" },
	{ context: "doc", keys: ["Shift+Tab"], action: "docPrevSection", help: "select the section before" },
	{ context: "doc", keys: ["Tab"], action: "docNextSection", help: "select the next section" },
	{ context: "doc", keys: ["Enter"], action: "docToggle", help: "open or close the selected section" },
	{
		context: "doc",
		keys: ["1", "2", "3", "4", "5", "6", "7", "8", "9"],
		action: "docToggleNth",
		help: "open or close section N",
	},
	{ context: "doc", keys: ["/"], action: "docFind", help: "search (the folded sections too)" },
	{ context: "doc", keys: ["n"], action: "docNextHit", help: "the next match" },
	{ context: "doc", keys: ["p"], action: "docPrevHit", help: "the match before" },
	{ context: "doc", keys: ["["], action: "docPrevCall", help: "the model call before" },
	{ context: "doc", keys: ["]"], action: "docNextCall", help: "the next model call" },
	{ context: "find", keys: ["Esc"], action: "findCancel", help: "stop searching" },
	{ context: "find", keys: ["Enter"], action: "findRun", help: "find the text typed" },
	{ context: "find", keys: ["Backspace"], action: "findBackspace", help: "delete from the text" },
] as const satisfies readonly KeyBinding[];

/** What a key of the picker can do. */
export type PickerAction = (typeof PICKER_KEYS)[number]["action"];

/** What a key of the app can do: the actions the table names. */
export type KeyAction = (typeof KEY_TABLE)[number]["action"];

type Binding = (typeof KEY_TABLE)[number];
type DocBinding = Extract<Binding, { context: DocContext }>;
/** The doc screen's keys (the request viewer, a sub-agent's session), with the table's global ones. */
export type DocKeyAction = DocBinding["action"] | "interrupt";
/** The bindings the doc screen reads: its own and the global ones. */
export const DOC_KEYS = KEY_TABLE.filter(
	(binding): binding is DocBinding | Extract<Binding, { context: "global" }> =>
		binding.context === "doc" || binding.context === "find" || binding.context === "global",
);

/** The contexts /help lists (the approval panel and the search line show their own keys). */
export const HELP_CONTEXTS: readonly KeyContext[] = ["global", "chat", "editor"];

/** The session tree's keys, which /help lists in a section of their own. */
export const TREE_CONTEXTS: readonly KeyContext[] = ["tree"];

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

/** The model picker's keys (/model with no name): its own context; other keys type into its filter. */
export const MODEL_PICKER_KEYS = [
	{ context: "models", keys: ["↑", "↓"], action: "modelsMove", help: "the row above / below", label: "↑ / ↓" },
	{ context: "models", keys: ["PgUp", "PgDn"], action: "modelsPage", help: "a page up / down", label: "PgUp / PgDn" },
	{ context: "models", keys: ["Enter"], action: "modelsChoose", help: "use this model (switches the provider too)" },
	{ context: "models", keys: ["Esc"], action: "modelsClose", help: "back to the chat, the model unchanged" },
	{ context: "models", keys: ["Backspace"], action: "modelsBackspace", help: "delete from the filter" },
] as const satisfies readonly KeyBinding<string, "models">[];

/** The /changes screen's keys: the list of changed files, and a file's diff. */
export const CHANGES_KEYS = [
	{
		context: "changes",
		keys: ["↑", "↓"],
		action: "changesMove",
		help: "the file above / below; in a diff, scroll",
		label: "↑ / ↓",
	},
	{ context: "changes", keys: ["PgUp", "PgDn"], action: "changesPage", help: "a page up / down", label: "PgUp / PgDn" },
	{
		context: "changes",
		keys: ["Enter"],
		action: "changesOpen",
		help: "the file's diff from before the session to now",
	},
	{
		context: "changes",
		keys: ["Esc", "q"],
		action: "changesBack",
		help: "from a diff to the list; from the list to the chat",
	},
] as const satisfies readonly KeyBinding<string, "changes">[];

/**
 * The rewind screen's keys (Esc Esc on an empty idle input, /rewind; README "Rewind" lists them): the list of your
 * prompts, then the choice of what goes back, with its preview.
 */
export const REWIND_KEYS = [
	{ context: "rewind", keys: ["↑", "↓"], action: "rewindMove", help: "the prompt / the choice above or below" },
	{ context: "rewind", keys: ["PgUp", "PgDn"], action: "rewindPage", help: "scroll the preview (in the list: a page)" },
	{
		context: "rewind",
		keys: ["Enter"],
		action: "rewindChoose",
		help: "choose this prompt; on a choice: do it (or cancel)",
	},
	{ context: "rewind", keys: ["t"], action: "rewindTree", help: "the whole session tree (every branch)" },
	{ context: "rewind", keys: ["Esc", "q"], action: "rewindBack", help: "from the choice to the list; then the chat" },
] as const satisfies readonly KeyBinding<string, "rewind">[];
