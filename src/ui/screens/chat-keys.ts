import type { Key } from "ink";
import type { PastedRange } from "../../agent/events.js";
import type { ApprovalDecision } from "../../agent/loop.js";
import { startsFolded } from "../chat/folds.js";
import { KEY_TABLE } from "../keys/key-table.js";
import { byteActions, type KeyActions, type KeyLayer, keyDispatcher, keysOf, NO_KEY } from "../keys/keymap.js";
import { mustReadAll, type PreviewFit, readAll, seenBefore } from "../state/approval-layout.js";
import type { InputModel } from "../state/input-model.js";
import type { UiStore } from "../state/store.js";
import { cancelFind, enterTranscript, leaveTranscript } from "../state/transcript.js";
import { readyToRun } from "./commands.js";
import {
	type FindAction,
	findActions,
	findRest,
	pasted,
	type TranscriptAction,
	transcriptActions,
} from "./transcript-keys.js";

/** How a sent line is delivered while a run goes on: a steer (Enter) or a follow-up (Alt+Enter). */
export type SendMode = "send" | "follow_up";

export type KeyDeps = {
	store: UiStore;
	input: InputModel;
	running: () => boolean;
	/**
	 * The person sent a line (a task, a steer or follow-up while running, a /command or a !shell line); `pastes`:
	 * where large pastes sit in it (the chat folds them).
	 */
	submit: (text: string, mode?: SendMode, pastes?: PastedRange[]) => void;
	abort: () => void;
	exit: () => void;
	/** Ctrl+Z: give the terminal back and stop the process until `fg`. */
	suspend?: () => void;
	/** Ctrl+G: edit the text in $EDITOR. */
	externalEditor?: () => void;
	/** ↑ on an empty input: the newest queued message, taken back out of the queue. */
	pullQueued?: () => string | undefined;
	/** Alt+R: open the request viewer on this call (the turn chosen by the chat's position). */
	openRequest?: (requestId: string) => void;
	/** Alt+S: open the session a sub-agent wrote (a session file), read-only. */
	openSubagent?: (file: string) => void;
	/** Esc twice on an empty input while idle: the session tree (what it opens is the app's to say). */
	doubleEscape?: () => void;
	/** Rows of the chat pane, for PgUp/PgDn. */
	page: () => number;
	/** The approval preview's rows on screen and in all, as last drawn (absent or null: not drawn). */
	approvalFit?: () => PreviewFit | null;
	/** The terminal's width (Tab says when the inspector does not fit). */
	columns: () => number;
	now?: () => number;
};

/** Two Ctrl+C within this long exit. */
const DOUBLE_PRESS_MS = 1000;
/** Two Esc within this long (on an empty input, while idle) open the session tree. */
const DOUBLE_ESCAPE_MS = 600;
const WHEEL_LINES = 3;
/** A focus report, as Ink passes it on (without its ESC): the window gained (I) or lost (O) focus. */
const FOCUS = /^\[([IO])$/;
/** An SGR mouse report, as Ink passes it on (without its ESC): button; column; row; press or release. */
const WHEEL = /^\[<(\d+);\d+;\d+[Mm]$/;

/** What every group of actions works with: the deps, and the steps several keys share. */
type Ctx = {
	deps: KeyDeps;
	store: UiStore;
	input: InputModel;
	/** Sends the input (or, while a reason is typed, denies with it). */
	submit: (mode?: SendMode) => void;
	/** Answers the open approval question; what was being typed before it stays (a reason typed goes). */
	answer: (decision: ApprovalDecision) => void;
	/** The first press of a quit key shows `hint`; the same key again within DOUBLE_PRESS_MS quits. */
	pressToQuit: (name: string, hint: string) => void;
	/** Tab: completes; where nothing completes by itself (`/model `) lists the choices; else the inspector. */
	tab: () => void;
	now: () => number;
};

/**
 * The chat's keys: every binding but the other screens' (the tree's, the doc screen's); the `/` search line (`find`)
 * is the transcript mode's here.
 */
type ChatBinding = Exclude<(typeof KEY_TABLE)[number], { context: "tree" | "treeField" | "doc" }>;
const OTHER_SCREENS = new Set<string>(["tree", "treeField", "doc"]);
const CHAT_KEYS = KEY_TABLE.filter((binding): binding is ChatBinding => !OTHER_SCREENS.has(binding.context));
type KeyAction = ChatBinding["action"];

type Actions<A extends KeyAction> = Pick<KeyActions<KeyAction>, A>;

/**
 * The one keyboard handler of the full-screen UI (Ink's useInput calls it): a bracketed paste (editor/paste-reader)
 * and the SGR mouse wheel, then the keys of KEY_TABLE by context — Ctrl+C over everything, the approval question
 * while one is open, the history search, the chat's keys and the editor's. Runs of plain bytes arrive as one
 * string, so control characters inside a chunk are applied one by one: `\r` sends, `\n` (Ctrl+J) is a new line.
 */
export function createKeyHandler(deps: KeyDeps): (input: string, key: Key) => void {
	const ctx = context(deps);
	const { store, input } = ctx;
	const actions: KeyActions<KeyAction> = {
		...globalActions(ctx),
		...approvalActions(ctx),
		...searchActions(ctx),
		...transcriptActions(store),
		...findActions(store),
		...chatActions(ctx),
		...editorActions(ctx),
	};
	const bytes = byteActions(CHAT_KEYS, "editor");
	/** Printable text and the control characters that arrive inside a chunk (as the editor's keys). */
	const type = (text: string) => {
		input.keys.typedAt = ctx.now();
		let plain = "";
		for (const char of text) {
			if (char >= " " && char !== "\x7f") {
				plain += char;
				continue;
			}
			if (plain) input.insert(plain);
			plain = "";
			const action = bytes.get(char);
			if (action) actions[action](char, NO_KEY);
		}
		if (plain) input.insert(plain);
		store.toBottom();
	};
	/** A key no binding took is typed; Ctrl and Alt keys that are not bound do nothing. */
	const typed = (text: string, key: Key) => {
		if (!key.ctrl && !key.meta) type(text);
		return true;
	};
	const layers: KeyLayer[] = [
		{ context: "global" },
		// While asking, other keys are ignored so typing cannot approve by accident; typing the reason edits.
		{ context: "approval", active: () => store.approval !== null, rest: () => store.approval?.stage === "ask" },
		{ context: "search", active: () => input.search !== null, rest: (text, key) => searchRest(input, text, key) },
		// The transcript mode takes every key: the input is out of sight (its draft stays as it was).
		{
			context: "find",
			active: () => store.transcript?.typing != null,
			rest: (text, key) => findRest(store, text, key),
		},
		{ context: "transcript", active: () => store.transcript !== null, rest: () => true },
		{ context: "chat" },
		{ context: "editor", rest: typed },
	];
	const dispatch = keyDispatcher(CHAT_KEYS, layers, actions);
	/** In the transcript mode a chunk of several keys ("/grammar\r", "j\r") is dispatched key by key (`keysOf`). */
	const press = (text: string, key: Key) => {
		const keys = store.transcript && !store.approval ? keysOf(text, key) : null;
		if (!keys) return dispatch(text, key);
		for (const [char, k] of keys) dispatch(char, k);
		return true;
	};
	return (text, key) => {
		// A focus report is not a key: it neither types nor counts as typing.
		const focus = FOCUS.exec(text);
		if (focus) return store.onFocus(focus[1] === "I");
		keyPressed(input, ctx.now());
		// The run ended while a reason was typed: the draft set aside for it comes back.
		if (!store.approval) input.bringBack();
		const step = input.keys.paste.read(text, key);
		if (step.kind === "pasted") pasted(store, input, step.text);
		if (step.kind === "key" && !wheel(store, text)) press(text, key);
	};
}

/** A pause longer than this between keys ends a run of typing. */
const TYPING_PAUSE_MS = 500;

/** Counts a key into the run of keys pressed without a pause, or starts a new run. */
function keyPressed(input: InputModel, at: number): void {
	const { streak } = input.keys;
	if (at - streak.last >= TYPING_PAUSE_MS) streak.start = at;
	streak.last = at;
}

/**
 * Whether the person was typing into the editor when the question opened at `since`, has not sent it and has not
 * paused since: then a y or an a is a letter of what they were writing (a steer, a word), not an answer to a
 * question they have not read. Keys that answered an earlier question, or a message sent, are no typing.
 */
function typingThrough(input: InputModel, since: number): boolean {
	const { streak, typedAt } = input.keys;
	return !input.empty && typedAt <= since && streak.start <= typedAt;
}

/** The steps several keys share, over the deps. */
function context(deps: KeyDeps): Ctx {
	const { store, input } = deps;
	const now = deps.now ?? Date.now;
	/** Answers the question; a reason typed is dropped and the draft it stood in for comes back. */
	const answer = (decision: ApprovalDecision) => {
		if (!store.approval) return;
		input.bringBack();
		store.answer(decision);
	};
	const submit = (mode: SendMode = "send") => {
		if (store.approval?.stage === "reason") {
			const reason = input.take().trim();
			return answer({ approved: false, reason: reason || "the user said no" });
		}
		// Enter on an open completion takes the selected item; a command that needs its argument waits for it, and a
		// path put in for an `@` mention is only put in.
		const completion = input.completions();
		if (completion) {
			const completed = input.accept();
			if (completion.mention || completed === undefined || !readyToRun(completed)) return;
		}
		const { text, pastes } = input.takeMessage();
		if (text.trim() === "") return;
		input.history.add(text);
		deps.submit(text, mode, pastes);
	};
	const pressToQuit = (name: string, hint: string) => {
		const t = now();
		const last = input.keys.quitKey;
		if (last?.key === name && t - last.at < DOUBLE_PRESS_MS) return deps.exit();
		input.keys.quitKey = { key: name, at: t };
		store.flashHint(hint, DOUBLE_PRESS_MS);
	};
	const tab = () => {
		if (input.completions()) return void input.accept();
		if (!input.listChoices()) store.toggleInspector(deps.columns());
	};
	return { deps, store, input, submit, answer, pressToQuit, tab, now };
}

/**
 * Ctrl+C, over everything: ends the search (the history's, the transcript's) or the transcript mode, denies the
 * question and stops, clears the input, stops the run, quits.
 */
function globalActions({ deps, store, input, answer, pressToQuit }: Ctx): Actions<"interrupt"> {
	return {
		interrupt: () => {
			if (input.search) return input.endSearch(false);
			if (store.transcript?.typing != null) return cancelFind(store);
			if (store.transcript) return leaveTranscript(store);
			if (store.approval) return answer({ approved: false, reason: "the user stopped the run", stop: true });
			if (!input.empty) return input.clear();
			if (deps.running()) return deps.abort();
			pressToQuit("c", "press Ctrl+C again to quit (or Ctrl+D)");
		},
	};
}

type ApprovalAction = "approvalStop" | "approvalScroll" | "allowOnce" | "allowAlways" | "allowPrefix" | "deny";

/**
 * The approval question: y once, a always, p commands starting with the prefix shown, n no (then a reason), Esc
 * stops; ↑/↓/PgUp/PgDn scroll the preview.
 */
function approvalActions({ deps, store, input, answer, submit }: Ctx): Actions<ApprovalAction> {
	/** y, a or p: allowed at once, except a command not yet read to its end (it runs as the person). */
	const allow = (decision: ApprovalDecision) => {
		const pending = store.approval;
		if (pending?.stage !== "ask") return false;
		if (typingThrough(input, store.view.pending?.since ?? Number.NEGATIVE_INFINITY)) {
			store.flashHint("the question opened while you were typing: pause, read it, then press y or a");
			return;
		}
		if (mustReadAll(pending) && !readAll(pending, deps.approvalFit?.() ?? null)) {
			pending.early = true;
			store.changed();
		} else answer(decision);
	};
	return {
		approvalStop: () => {
			if (store.approval?.stage === "reason") answer({ approved: false, reason: "the user said no" });
			else answer({ approved: false, reason: "the user stopped the run", stop: true });
		},
		approvalScroll: (_text, key) => {
			const pending = store.approval;
			if (!pending) return false;
			// A page keeps one row of the last one in sight; the preview stops at its end (fit: as last drawn).
			const fit = deps.approvalFit?.() ?? null;
			const step = key.pageUp || key.pageDown ? Math.max(1, (fit?.rows ?? deps.page()) - 1) : 1;
			const end = fit ? Math.max(0, fit.total - fit.rows) : Number.MAX_SAFE_INTEGER;
			const next = Math.min(pending.scroll, end) + (key.upArrow || key.pageUp ? -step : step);
			pending.scroll = Math.max(0, Math.min(end, next));
			if (fit) pending.seen = { rows: Math.max(seenBefore(pending, fit), pending.scroll + fit.rows), total: fit.total };
			if (readAll(pending, fit)) pending.early = false;
			store.changed();
		},
		allowOnce: () => allow({ approved: true }),
		allowAlways: () => allow({ approved: true, remember: true }),
		allowPrefix: () => {
			const request = store.approval?.request;
			if (!request) return false;
			// Only what the panel shows is saved: the prefixes of this question, never one typed.
			if (!request.prefixes?.length) {
				const why = request.ruleNote ? `: ${request.ruleNote}` : "";
				return store.flashHint(`no "commands starting with" rule is offered for this call${why}`);
			}
			allow({ approved: true, prefixes: [...request.prefixes] });
		},
		deny: (text) => {
			const pending = store.approval;
			if (pending?.stage !== "ask") return false;
			pending.stage = "reason";
			// A message being typed when the question came waits aside while the reason is typed.
			input.putAside();
			store.changed();
			// "n" and the Enter typed right after it, in one read: deny with no reason.
			if (text.endsWith("\r")) submit();
		},
	};
}

type SearchAction = "searchCancel" | "searchOlder" | "searchAccept" | "searchBackspace";

/** Ctrl+R: typing filters, Ctrl+R finds an older match, Enter takes it, Esc leaves the input as it was. */
function searchActions({ input }: Ctx): Actions<SearchAction> {
	return {
		searchCancel: () => input.endSearch(false),
		searchOlder: () => input.searchOlder(),
		searchAccept: () => input.endSearch(true),
		searchBackspace: () => input.searchBackspace(),
	};
}

/** The search's other keys: a move takes the match, text filters, anything else is ignored. */
function searchRest(input: InputModel, text: string, key: Key): boolean {
	if (key.ctrl || key.meta) return true;
	if (key.upArrow || key.downArrow || key.leftArrow || key.rightArrow || key.home || key.end) {
		input.endSearch(true);
		return true;
	}
	const printable = Array.from(text)
		.filter((c) => c >= " " && c !== "\x7f")
		.join("");
	if (printable) input.searchType(printable);
	return true;
}

type ChatAction =
	| "openRequest"
	| "openSubagent"
	| "stop"
	| "quit"
	| "transcript"
	| "suspend"
	| "search"
	| "externalEditor"
	| "scrollPage"
	| "scrollLine"
	| "scrollEdge";

/** The chat screen: stop, quit, fold, suspend, search, $EDITOR, and scrolling. */
function chatActions({ deps, store, input, pressToQuit, now }: Ctx): Actions<ChatAction> {
	return {
		stop: () => {
			if (deps.running()) return deps.abort();
			if (input.dismiss()) return;
			store.toBottom();
			if (!input.empty || !deps.doubleEscape) return;
			const at = now();
			if (at - input.keys.escapeAt < DOUBLE_ESCAPE_MS) {
				input.keys.escapeAt = Number.NEGATIVE_INFINITY;
				deps.doubleEscape();
			} else input.keys.escapeAt = at;
		},
		quit: () => {
			if (!input.empty) return input.deleteForward();
			if (!deps.running()) return deps.exit();
			pressToQuit("d", "Esc stops the run; Ctrl+D again quits");
		},
		transcript: () => enterTranscript(store),
		openRequest: () => {
			const call = focusedCall(store);
			if (call && deps.openRequest) deps.openRequest(call);
			else store.flashHint("no model call yet: the request viewer opens on one (or /request N)");
		},
		openSubagent: () => {
			const file = focusedSubagent(store);
			if (file && deps.openSubagent) deps.openSubagent(file);
			else store.flashHint("no bash block ran a sub-agent that saved a session (gar -p under gar reports it)");
		},
		suspend: () => deps.suspend?.(),
		// Not while a question is open (typing its reason).
		search: () => (store.approval ? undefined : input.startSearch()),
		externalEditor: () => deps.externalEditor?.(),
		scrollPage: (_text, key) => store.scrollBy((key.pageUp ? 1 : -1) * Math.max(1, deps.page() - 2)),
		scrollLine: (_text, key) => store.scrollBy(key.upArrow ? 1 : -1),
		// Home/End on an empty input: the chat's top and bottom (with text: the line's, below).
		scrollEdge: (_text, key) => {
			if (!input.empty) return false;
			if (key.home) store.toTop();
			else store.toBottom();
		},
	};
}

type EditorAction = Exclude<
	KeyAction,
	"interrupt" | ApprovalAction | SearchAction | ChatAction | TranscriptAction | FindAction
>;

/** The editor: sending, new lines, moving, deleting, undo; ↑/↓ also walk the history and completions. */
function editorActions({ deps, store, input, submit, tab }: Ctx): Actions<EditorAction> {
	return {
		submit: () => submit(),
		// A follow-up while a run goes on, otherwise a new line.
		followUp: () => {
			if (deps.running() && !store.approval && !input.empty) return submit("follow_up");
			input.newline();
		},
		newline: () => input.newline(),
		vertical: (_text, key) => {
			if (input.completions()) return input.select(key.upArrow ? -1 : 1);
			// ↑ on an empty input: the queued message's turn (pullQueued).
			if (key.upArrow && input.empty && deps.pullQueued) return false;
			if (key.upArrow) input.up();
			else input.down();
		},
		pullQueued: () => {
			const queued = deps.pullQueued?.();
			if (queued !== undefined) input.set(queued);
			else input.up();
		},
		complete: () => tab(),
		wordLeft: () => input.wordLeft(),
		wordRight: () => input.wordRight(),
		home: () => input.home(),
		end: () => input.end(),
		left: () => input.left(),
		right: () => input.right(),
		backspace: () => input.backspace(),
		deleteWordLeft: () => input.deleteWordLeft(),
		deleteToLineStart: () => input.deleteToLineStart(),
		deleteToLineEnd: () => input.deleteToLineEnd(),
		undo: () => input.undo(),
		redo: () => input.redo(),
	};
}

/** The mouse wheel scrolls the chat; true when `text` was a mouse report (a click is ignored). */
function wheel(store: UiStore, text: string): boolean {
	const report = WHEEL.exec(text);
	if (!report) return false;
	const button = Number(report[1]) & ~(4 | 8 | 16);
	if (button === 64) store.scrollBy(WHEEL_LINES);
	else if (button === 65) store.scrollBy(-WHEEL_LINES);
	return true;
}

/**
 * Ctrl+O where there is no transcript mode (the replay screen): expands or collapses the newest item that starts
 * folded (chat/folds.ts): a tool call, thinking, a paste, a `!command`'s output, a hook's context.
 */
export function toggleLatest(store: UiStore): void {
	const items = store.view.items;
	for (let i = items.length - 1; i >= 0; i--) {
		const item = items[i];
		if (item && startsFolded(item)) {
			store.toggleExpanded(item.key);
			return;
		}
	}
}

/** The first chat item on screen: the top line's item while scrolled up, else none (the view follows the end). */
function topItem(store: UiStore): number | null {
	return store.top?.index ?? null;
}

/** Alt+R's call: the one whose reply is at the top of the screen (or the last above it); following: the latest. */
function focusedCall(store: UiStore): string | undefined {
	const { calls } = store.view;
	const top = topItem(store);
	if (top === null) return calls.at(-1)?.requestId;
	let found = calls[0];
	for (const call of calls) if (call.item <= top) found = call;
	return found?.requestId;
}

/** Alt+S's session: of the newest bash block with a sub-agent's session at or above the bottom of what is shown. */
function focusedSubagent(store: UiStore): string | undefined {
	const { items } = store.view;
	const top = topItem(store);
	const from = top === null ? items.length - 1 : Math.min(items.length - 1, top + 40);
	for (let i = from; i >= 0; i--) {
		const item = items[i];
		if (item?.kind !== "tool" || item.details?.kind !== "bash") continue;
		const runs = item.details.subagents?.runs ?? [];
		for (let r = runs.length - 1; r >= 0; r--) {
			const file = runs[r]?.sessionFile;
			if (file) return file;
		}
	}
	return undefined;
}
