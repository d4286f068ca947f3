import type { Key } from "ink";
import type { ApprovalDecision } from "../agent/loop.js";
import type { InputModel } from "./input-model.js";
import type { UiStore } from "./store.js";

export type KeyDeps = {
	store: UiStore;
	input: InputModel;
	running: () => boolean;
	/** The person sent a line (a task, a steer while running, or a /command). */
	submit: (text: string) => void;
	abort: () => void;
	exit: () => void;
	/** Ctrl+Z: give the terminal back and stop the process until `fg`. */
	suspend?: () => void;
	/** Rows of the chat pane, for PgUp/PgDn. */
	page: () => number;
	now?: () => number;
};

/** Two Ctrl+C within this long exit. */
const DOUBLE_PRESS_MS = 1000;
const WHEEL_LINES = 3;

/**
 * The one keyboard handler of the full-screen UI (Ink's useInput calls it): bracketed paste and SGR mouse wheel,
 * then approval keys while a question is open, then the global keys (Esc, Ctrl+C, Ctrl+D, Ctrl+O, Tab, scrolling)
 * and editing. Runs of plain bytes arrive as one string, so control characters inside a chunk are applied one by one.
 */
export function createKeyHandler(deps: KeyDeps): (input: string, key: Key) => void {
	const { store, input } = deps;
	const now = deps.now ?? Date.now;
	let pasting: string | null = null;
	let lastInterrupt = Number.NEGATIVE_INFINITY;

	const answer = (decision: ApprovalDecision) => {
		const pending = store.approval;
		if (!pending) return;
		store.approval = null;
		input.clear();
		store.changed();
		pending.answer(decision);
	};

	const interrupt = () => {
		if (store.approval) return answer({ approved: false, reason: "the user stopped the run", stop: true });
		if (!input.empty) return input.clear();
		if (deps.running()) return deps.abort();
		const t = now();
		if (t - lastInterrupt < DOUBLE_PRESS_MS) return deps.exit();
		lastInterrupt = t;
		store.setHint("press Ctrl+C again to quit (or Ctrl+D)");
		setTimeout(() => store.setHint(null), DOUBLE_PRESS_MS).unref();
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
			const step = key.pageUp || key.pageDown ? Math.max(1, deps.page() - 2) : 1;
			pending.scroll = Math.max(0, pending.scroll + (key.upArrow || key.pageUp ? -step : step));
			store.changed();
			return true;
		}
		if (pending.stage === "reason") return false; // typing the reason: editing keys apply
		const choice = text.toLowerCase();
		if (choice === "y") answer({ approved: true });
		else if (choice === "a") answer({ approved: true, remember: true });
		else if (choice === "n") {
			pending.stage = "reason";
			store.changed();
		}
		return true;
	};

	const submit = () => {
		const pending = store.approval;
		if (pending?.stage === "reason") {
			const reason = input.take().trim();
			return answer({ approved: false, reason: reason || "the user said no" });
		}
		const text = input.take();
		if (text.trim() !== "") deps.submit(text);
	};

	/** Printable text and the control characters that arrive inside a chunk. */
	const type = (text: string) => {
		let plain = "";
		const flush = () => {
			if (plain) input.insert(plain);
			plain = "";
		};
		for (const char of text) {
			if (char === "\r" || char === "\n") {
				flush();
				submit();
			} else if (char === "\x7f" || char === "\b") {
				flush();
				input.backspace();
			} else if (char >= " " || char === "\t") plain += char;
		}
		flush();
		store.toBottom();
	};

	return (text, key) => {
		if (text === "[200~") {
			pasting = "";
			return;
		}
		if (pasting !== null) {
			if (text === "[201~") {
				const pasted = pasting.replace(/\r\n?/g, "\n");
				pasting = null;
				// One-line input for now: newlines of a paste are kept as spaces, never sent by accident.
				input.insert(pasted.replace(/\n/g, " "));
				return;
			}
			pasting += key.return ? "\n" : key.tab ? "\t" : text;
			return;
		}
		const wheel = /^\[<(\d+);\d+;\d+[Mm]$/.exec(text);
		if (wheel) {
			const button = Number(wheel[1]) & ~(4 | 8 | 16);
			if (button === 64) store.scrollBy(WHEEL_LINES);
			else if (button === 65) store.scrollBy(-WHEEL_LINES);
			return;
		}
		if (key.ctrl && text === "c") return interrupt();
		if (approvalKey(text, key)) return;
		if (key.escape) {
			if (deps.running()) deps.abort();
			else store.toBottom();
			return;
		}
		if (key.ctrl && text === "d") {
			if (input.empty && !deps.running()) deps.exit();
			return;
		}
		if (key.ctrl && text === "o") return toggleLatest(store);
		if (key.ctrl && text === "z") return deps.suspend?.();
		if (key.tab) {
			store.inspector = !store.inspector;
			store.changed();
			return;
		}
		if (key.pageUp || key.pageDown) return store.scrollBy((key.pageUp ? 1 : -1) * Math.max(1, deps.page() - 2));
		if (key.shift && (key.upArrow || key.downArrow)) return store.scrollBy(key.upArrow ? 1 : -1);
		if (key.home && input.empty) return store.scrollBy(Number.MAX_SAFE_INTEGER / 2);
		if (key.end && input.empty) return store.toBottom();
		if (key.return) return submit();
		if (key.backspace || key.delete) return input.backspace();
		if (key.leftArrow) return input.left();
		if (key.rightArrow) return input.right();
		if (key.home) return input.home();
		if (key.end) return input.end();
		if (key.ctrl && text === "u") return input.clear();
		if (key.ctrl || key.meta || key.upArrow || key.downArrow) return;
		type(text);
	};
}

/** Ctrl+O: expands or collapses the latest tool call or thinking block. */
function toggleLatest(store: UiStore): void {
	const items = store.view.items;
	for (let i = items.length - 1; i >= 0; i--) {
		const item = items[i];
		if (item && (item.kind === "tool" || item.kind === "thinking")) {
			store.toggleExpanded(item.key);
			return;
		}
	}
}
