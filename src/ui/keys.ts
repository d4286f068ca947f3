import type { Key } from "ink";
import type { PastedRange } from "../agent/events.js";
import type { ApprovalDecision } from "../agent/loop.js";
import { mustReadAll, readAll } from "./approval-layout.js";
import { readyToRun } from "./commands.js";
import type { InputModel } from "./input-model.js";
import type { UiStore } from "./store.js";

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
	/** Rows of the chat pane, for PgUp/PgDn. */
	page: () => number;
	/** The terminal's width (Tab says when the inspector does not fit). */
	columns: () => number;
	now?: () => number;
};

/** Two Ctrl+C within this long exit. */
const DOUBLE_PRESS_MS = 1000;
const WHEEL_LINES = 3;
/** xterm's modifyOtherKeys form of a modified Enter: ESC [ 27 ; modifiers ; 13 ~ (Ink passes it on without ESC). */
const MODIFIED_ENTER = /^\[27;(\d+);13~$/;

/**
 * The one keyboard handler of the full-screen UI (Ink's useInput calls it): bracketed paste and SGR mouse wheel,
 * then approval keys while a question is open, the history search, then the global keys (Esc, Ctrl+C, Ctrl+D,
 * Ctrl+O, Tab, scrolling) and editing. Runs of plain bytes arrive as one string, so control characters inside a
 * chunk are applied one by one: `\r` sends, `\n` (Ctrl+J) is a new line.
 */
export function createKeyHandler(deps: KeyDeps): (input: string, key: Key) => void {
	const { store, input } = deps;
	const now = deps.now ?? Date.now;
	const memory = input.keys;

	const answer = (decision: ApprovalDecision) => {
		if (!store.approval) return;
		input.clear();
		store.answer(decision);
	};

	const interrupt = () => {
		if (input.search) return input.endSearch(false);
		if (store.approval) return answer({ approved: false, reason: "the user stopped the run", stop: true });
		if (!input.empty) return input.clear();
		if (deps.running()) return deps.abort();
		pressToQuit("c", "press Ctrl+C again to quit (or Ctrl+D)");
	};

	/** The first press of a quit key shows `hint`; the same key again within DOUBLE_PRESS_MS quits. */
	const pressToQuit = (name: string, hint: string) => {
		const t = now();
		const last = memory.quitKey;
		if (last?.key === name && t - last.at < DOUBLE_PRESS_MS) return deps.exit();
		memory.quitKey = { key: name, at: t };
		store.flashHint(hint, DOUBLE_PRESS_MS);
	};

	const approvalKey = (text: string, key: Key): boolean => {
		const pending = store.approval;
		if (!pending) return false;
		if (key.escape) {
			if (pending.stage === "reason") answer({ approved: false, reason: "the user said no" });
			else answer({ approved: false, reason: "the user stopped the run", stop: true });
			return true;
		}
		if (key.upArrow || key.downArrow || key.pageUp || key.pageDown) {
			// A page keeps one row of the last one in sight; the preview stops at its end (fit: as last drawn).
			const fit = pending.fit;
			const step = key.pageUp || key.pageDown ? Math.max(1, (fit?.rows ?? deps.page()) - 1) : 1;
			const end = fit ? Math.max(0, fit.total - fit.rows) : Number.MAX_SAFE_INTEGER;
			const next = Math.min(pending.scroll, end) + (key.upArrow || key.pageUp ? -step : step);
			pending.scroll = Math.max(0, Math.min(end, next));
			if (fit) pending.seen = Math.max(pending.seen ?? 0, pending.scroll + fit.rows);
			if (readAll(pending)) pending.early = false;
			store.changed();
			return true;
		}
		if (pending.stage === "reason") return false; // typing the reason: editing keys apply
		// A key and the Enter typed right after it can arrive in one read ("n\r"): the key, then Enter.
		const enter = text.length === 2 && text.endsWith("\r");
		const choice = (enter ? text.slice(0, 1) : text).toLowerCase();
		if ((choice === "y" || choice === "a") && mustReadAll(pending) && !readAll(pending)) {
			// A command runs at once: it is allowed only after all of it was on screen. n and Esc need no reading.
			pending.early = true;
			store.changed();
		} else if (choice === "y") answer({ approved: true });
		else if (choice === "a") answer({ approved: true, remember: true });
		else if (choice === "n") {
			pending.stage = "reason";
			store.changed();
			if (enter) submit();
		}
		return true;
	};

	const submit = (mode: SendMode = "send") => {
		const pending = store.approval;
		if (pending?.stage === "reason") {
			const reason = input.take().trim();
			return answer({ approved: false, reason: reason || "the user said no" });
		}
		// Enter on an open completion takes the selected item; a command that needs its argument waits for it.
		if (input.completions()) {
			const completed = input.accept();
			if (completed === undefined || !readyToRun(completed)) return;
		}
		const { text, pastes } = input.takeMessage();
		if (text.trim() === "") return;
		input.history.add(text);
		deps.submit(text, mode, pastes);
	};

	/** Alt+Enter: a follow-up while a run goes on, otherwise a new line. */
	const altEnter = () => {
		if (deps.running() && !store.approval && !input.empty) return submit("follow_up");
		input.newline();
	};

	/** Tab: completes; where nothing completes by itself (`/model `) lists the choices; else the inspector. */
	const tab = () => {
		if (input.completions()) return void input.accept();
		if (!input.listChoices()) store.toggleInspector(deps.columns());
	};

	/** Printable text and the control characters that arrive inside a chunk. */
	const type = (text: string) => {
		let plain = "";
		const flush = () => {
			if (plain) input.insert(plain);
			plain = "";
		};
		for (const char of text) {
			if (char === "\r") {
				flush();
				submit();
			} else if (char === "\n") {
				flush();
				input.newline();
			} else if (char === "\x7f" || char === "\b") {
				flush();
				input.backspace();
			} else if (char === "\t") {
				// "/mo" and Tab typed at once arrive as one chunk: the Tab still completes.
				flush();
				tab();
			} else if (char >= " ") plain += char;
			else {
				// Ctrl+U, Ctrl+W, … typed faster than they are read arrive in one chunk too.
				flush();
				ctrlKey(input, String.fromCharCode(char.charCodeAt(0) + 96));
			}
		}
		flush();
		store.toBottom();
	};

	/** Ctrl+R: typing filters, Ctrl+R finds an older match, Enter takes it, Esc leaves the input as it was. */
	const searchKey = (text: string, key: Key) => {
		if (key.escape || (key.ctrl && text === "g")) return input.endSearch(false);
		if (key.ctrl && text === "r") return input.searchOlder();
		if (key.return) return input.endSearch(true);
		if (key.backspace || key.delete) return input.searchBackspace();
		if (key.ctrl || key.meta) return;
		if (key.upArrow || key.downArrow || key.leftArrow || key.rightArrow || key.home || key.end) {
			return input.endSearch(true);
		}
		const printable = Array.from(text)
			.filter((c) => c >= " " && c !== "\x7f")
			.join("");
		if (printable) input.searchType(printable);
	};

	const verticalKey = (up: boolean) => {
		if (input.completions()) return input.select(up ? -1 : 1);
		if (up && input.empty) {
			const queued = deps.pullQueued?.();
			if (queued !== undefined) return input.set(queued);
		}
		if (up) input.up();
		else input.down();
	};

	return (chunk, key) => {
		const step = memory.paste.read(chunk, key);
		if (step.kind === "pasted") {
			input.paste(step.text);
			store.toBottom();
		}
		if (step.kind !== "key") return;
		const text = chunk;
		const wheel = /^\[<(\d+);\d+;\d+[Mm]$/.exec(text);
		if (wheel) {
			const button = Number(wheel[1]) & ~(4 | 8 | 16);
			if (button === 64) store.scrollBy(WHEEL_LINES);
			else if (button === 65) store.scrollBy(-WHEEL_LINES);
			return;
		}
		if (key.ctrl && text === "c") return interrupt();
		if (approvalKey(text, key)) return;
		if (input.search) return searchKey(text, key);
		if (key.escape) {
			if (deps.running()) deps.abort();
			else if (!input.dismiss()) store.toBottom();
			return;
		}
		if (key.ctrl && text === "d") {
			if (!input.empty) return input.deleteForward();
			if (!deps.running()) return deps.exit();
			return pressToQuit("d", "Esc stops the run; Ctrl+D again quits");
		}
		if (key.ctrl && text === "o") return toggleLatest(store);
		if (key.ctrl && text === "z") return deps.suspend?.();
		if (key.ctrl && text === "r") return store.approval ? undefined : input.startSearch();
		if (key.ctrl && text === "g") return deps.externalEditor?.();
		if (key.tab) return tab();
		if (key.pageUp || key.pageDown) return store.scrollBy((key.pageUp ? 1 : -1) * Math.max(1, deps.page() - 2));
		if (key.shift && (key.upArrow || key.downArrow)) return store.scrollBy(key.upArrow ? 1 : -1);
		if (key.home && input.empty) return store.toTop();
		if (key.end && input.empty) return store.toBottom();
		const modified = MODIFIED_ENTER.exec(text);
		if (modified) {
			const bits = Number(modified[1]) - 1;
			return bits === 2 ? altEnter() : input.newline();
		}
		if (key.return) {
			if (key.meta) return altEnter();
			if (key.shift || key.ctrl) return input.newline();
			return submit();
		}
		if (key.backspace || key.delete) return key.meta ? input.deleteWordLeft() : input.backspace();
		if (key.leftArrow) return key.ctrl || key.meta ? input.wordLeft() : input.left();
		if (key.rightArrow) return key.ctrl || key.meta ? input.wordRight() : input.right();
		if (key.upArrow || key.downArrow) return verticalKey(key.upArrow);
		if (key.home) return input.home();
		if (key.end) return input.end();
		if (text === "\x1f") return input.undo();
		if (key.ctrl) return ctrlKey(input, text);
		if (key.meta) return metaKey(input, text);
		type(text);
	};
}

/** Readline's Ctrl keys for editing. */
function ctrlKey(input: InputModel, text: string): void {
	if (text === "a") input.home();
	else if (text === "e") input.end();
	else if (text === "b") input.left();
	else if (text === "f") input.right();
	else if (text === "u") input.deleteToLineStart();
	else if (text === "k") input.deleteToLineEnd();
	else if (text === "w") input.deleteWordLeft();
	else if (text === "y") input.redo();
}

/** Alt+B / Alt+F move by word. */
function metaKey(input: InputModel, text: string): void {
	if (text === "b") input.wordLeft();
	else if (text === "f") input.wordRight();
}

/** Ctrl+O: expands or collapses the latest folded item: a tool call, thinking, a paste or a `!command`'s output. */
function toggleLatest(store: UiStore): void {
	const items = store.view.items;
	for (let i = items.length - 1; i >= 0; i--) {
		const item = items[i];
		const folds =
			item?.kind === "tool" ||
			item?.kind === "thinking" ||
			(item?.kind === "user" && (item.pastes !== undefined || item.source === "shell"));
		if (item && folds) {
			store.toggleExpanded(item.key);
			return;
		}
	}
}
