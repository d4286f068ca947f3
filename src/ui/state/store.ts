import type { AgentEvent } from "../../agent/events.js";
import type { ApprovalDecision, ApprovalRequest } from "../../agent/loop.js";
import { reduce } from "../../view/reducer.js";
import type { ChatItem, PendingQuestion, ViewState } from "../../view/state.js";
import { startsFolded } from "../chat/folds.js";
import type { ChatPosition } from "../chat/window.js";
import { darkTheme, type Theme } from "../theme/theme.js";
import type { OpenDoc } from "./doc-view.js";
import type { PickerModel } from "./picker.js";
import type { ReplayControls } from "./replay-controls.js";
import type { Transcript } from "./transcript.js";

/**
 * The open approval question as this screen shows it: the view's question (`request`, the same object as
 * `view.pending`, never a copy) and what only the screen knows about it. `stage` "reason": the person is typing
 * why not.
 */
export type PendingApproval = {
	request: ApprovalRequest;
	stage: "ask" | "reason";
	/** Rows scrolled down in a long preview. */
	scroll: number;
	/**
	 * Rows from the top that have been on screen, in a wrapping of `total` rows: a command is allowed only once all of
	 * it was. Another width wraps the preview anew, and rows seen in the old wrapping no longer say what was read.
	 */
	seen?: { rows: number; total: number };
	/** y or a came before the whole command was on screen: the panel says to read on. */
	early?: boolean;
};

/** The answer to a question that closed before anyone answered it (the run ended while it asked). */
const CLOSED: ApprovalDecision = { approved: false, reason: "the question was closed" };

/** Events that only grow what is already on screen: drawn at most ~30 times a second. */
const STREAMING = new Set<AgentEvent["type"]>(["text_delta", "thinking_delta", "toolcall_delta", "tool_update"]);

/** Below this many columns the inspector hides itself and a summary goes to the status bar. */
export const INSPECTOR_MIN_COLUMNS = 100;
/** How long a hint such as "the inspector needs a wider terminal" stays. */
const HINT_MS = 3000;

export type StoreOptions = { now?: () => number; intervalMs?: number };

/**
 * The UI's one store, outside React: the conversation's view (folded by the shared reducer) plus what only the
 * screen has (scroll position, expanded items, the inspector toggle, and how the open approval question is answered
 * and scrolled; the question itself is the view's `pending`). Components read
 * it through `useSyncExternalStore(store.subscribe, store.getVersion)`. Streaming events notify at most every
 * `intervalMs` (leading and trailing edge); everything else notifies at once. No timers run while idle.
 */
export class UiStore {
	view: ViewState;
	/** While scrolled up: the chat line at the top of the screen; null while following the conversation. */
	top: ChatPosition | null = null;
	/** Lines to scroll up (negative: down) that the chat applies at its next frame: only it knows the lines. */
	scroll = 0;
	/** While scrolled up: the number of items shown, so new output does not move the view. */
	anchor: number | null = null;
	/** Item keys whose tool output or thinking is expanded (Ctrl+O). */
	readonly expanded = new Set<string>();
	/** Keys of long messages folded by hand (they start whole; chat/folds.ts). */
	readonly folded = new Set<string>();
	/** The transcript mode (Ctrl+O): a cursor on the chat's blocks, moved by state/transcript.ts; null while off. */
	transcript: Transcript | null = null;
	inspector = true;
	/** A line for the status area: hints, the exit prompt ("press Ctrl+C again to quit"). */
	hint: string | null = null;
	/** The provider's idle timeout (config), so a stalled reply can say when gar gives up; null: not yet known. */
	idleTimeoutMs: () => number | null = () => null;
	/** The document the doc screen shows (the request viewer, a sub-agent's session); null: none open. */
	doc: OpenDoc | null = null;
	/** The colours everything is drawn in; `setTheme` switches them live (themes.ts `loadTheme` finds one by name). */
	theme: Theme = darkTheme;
	/** The resume picker's state while its screen ("picker") is open. */
	picker: PickerModel | null = null;
	/**
	 * The chat is the session's last screen drawn from its file's tail (ui/resume-preview.ts) while the whole file
	 * loads: the inspector and the status bar's summary hold the figures, which would be the tail's, not the session's.
	 */
	previewing = false;
	/** The replay playing on the replay screen (`gar replay` in a terminal); null in a live conversation. */
	replay: ReplayControls | null = null;
	/** Told when the terminal reports a focus change (the conversation: a run that ends unseen notifies). */
	onFocus: (focused: boolean) => void = () => {};
	private version = 0;
	private readonly listeners = new Set<() => void>();
	private timer: NodeJS.Timeout | null = null;
	private last = 0;
	private readonly now: () => number;
	private readonly intervalMs: number;
	/** Who waits for the answer to each open question, by call id (`ask`). */
	private readonly answers = new Map<string, (decision: ApprovalDecision) => void>();
	/** The screen's side of the open question; made anew for each question. */
	private dialog: PendingApproval | null = null;
	/** The screens open, the chat first: the one on top is drawn and takes the keys. */
	private readonly screens: string[] = ["chat"];
	/** Who waits for the chat panes' next commit (`nextCommit`). */
	private readonly commits: (() => void)[] = [];

	constructor(view: ViewState, options: StoreOptions = {}) {
		this.view = view;
		this.now = options.now ?? Date.now;
		this.intervalMs = options.intervalMs ?? 33;
	}

	readonly subscribe = (listener: () => void): (() => void) => {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	};

	readonly getVersion = (): number => this.version;

	/**
	 * Resolves once the chat panes commit their next frame: Ink has it then, and writes it within its throttle
	 * (maxFps 30). Only while they are on screen: a caller waits with a limit of its own.
	 */
	nextCommit(): Promise<void> {
		return new Promise((resolve) => this.commits.push(resolve));
	}

	/** The chat panes committed a frame (their layout effect). */
	committed(): void {
		for (const resolve of this.commits.splice(0)) resolve();
	}

	/** The channel listener: folds the event into the view and schedules a redraw. O(event). */
	readonly onEvent = (event: AgentEvent): void => {
		this.view = reduce(this.view, event, this.now());
		if (this.answers.size > 0) {
			this.dropClosed(this.view.pending);
			this.openDialog();
		}
		this.changed(!STREAMING.has(event.type));
	};

	/**
	 * The approval policy's `ask` in the app: waits for the person's answer to the question the view holds (the
	 * tool runner emits `approval_request` before it asks).
	 */
	readonly ask = (request: ApprovalRequest): Promise<ApprovalDecision> =>
		new Promise((resolve) => this.awaitAnswer(request.callId, resolve));

	/** Delivers the answer to question `callId` to `deliver` once the person gives it. */
	awaitAnswer(callId: string, deliver: (decision: ApprovalDecision) => void): void {
		this.answers.set(callId, deliver);
		this.openDialog();
		this.changed();
	}

	/** The question on screen: the view's open question, while this screen can answer it; else null. */
	get approval(): PendingApproval | null {
		const dialog = this.dialog;
		return dialog && dialog.request === this.view.pending && this.answers.has(dialog.request.callId) ? dialog : null;
	}

	/** Answers the open question. The view closes it when the answer comes back as `approval_result`. */
	answer(decision: ApprovalDecision): void {
		const callId = this.view.pending?.callId;
		const deliver = callId === undefined ? undefined : this.answers.get(callId);
		if (callId === undefined || !deliver) return;
		this.answers.delete(callId);
		this.dialog = null;
		this.changed();
		deliver(decision);
	}

	/** The screen on top (drawn, taking the keys): "chat", or one opened over it. */
	get screen(): string {
		return this.screens.at(-1) ?? "chat";
	}

	/** Opens screen `name` over the one on top. */
	openScreen(name: string): void {
		this.screens.push(name);
		this.changed();
	}

	/** Closes the screen on top, back to the one under it; the chat stays. */
	closeScreen(): void {
		if (this.screens.length === 1) return;
		this.screens.pop();
		this.changed();
	}

	/** Something changed: redraw now (`urgent`, e.g. a keypress) or within the frame interval. */
	changed(urgent = true): void {
		this.version++;
		const wait = this.intervalMs - (this.now() - this.last);
		if (urgent || (!this.timer && wait <= 0)) this.flush();
		else this.timer ??= setTimeout(() => this.flush(), wait);
	}

	/** Scrolls by `lines` (positive: up); back at the bottom the view follows the conversation again. */
	scrollBy(lines: number): void {
		if (lines === 0) return;
		if (this.top === null && this.scroll + lines <= 0) {
			this.toBottom();
			return;
		}
		this.anchor ??= this.view.items.length;
		this.scroll += lines;
		this.changed();
	}

	/** To the chat's first line (Home): costs what a page does, however long the chat. */
	toTop(): void {
		this.anchor ??= this.view.items.length;
		this.top = { index: 0, line: 0 };
		this.scroll = 0;
		this.changed();
	}

	/** Back to the bottom, following new output. */
	toBottom(): void {
		if (this.top === null && this.scroll === 0 && this.anchor === null) return;
		this.top = null;
		this.scroll = 0;
		this.anchor = null;
		this.changed();
	}

	/**
	 * The chat drew the view from `top` (null: at the bottom, following again); the pending scroll is done. The chat
	 * says so once the frame is drawn (a layout effect), never while drawing it.
	 */
	scrolledTo(top: ChatPosition | null): void {
		this.top = top;
		this.scroll = 0;
		if (this.transcript) this.transcript.reveal = null;
		if (top === null) this.anchor = null;
	}

	toggleExpanded(key: string): void {
		if (this.expanded.has(key)) this.expanded.delete(key);
		else this.expanded.add(key);
		this.changed();
	}

	/** Opens or folds `item`: what starts folded (tool output, thinking, a paste) opens, a long message folds. */
	toggleItem(item: ChatItem): void {
		if (startsFolded(item)) {
			this.toggleExpanded(item.key);
			return;
		}
		if (this.folded.has(item.key)) this.folded.delete(item.key);
		else this.folded.add(item.key);
		this.changed();
	}

	/** Redraws everything in `theme`, chat lines already on screen included (their cache is keyed by theme). */
	setTheme(theme: Theme): void {
		if (this.theme === theme) return;
		this.theme = theme;
		this.changed();
	}

	setHint(text: string | null): void {
		if (this.hint === text) return;
		this.hint = text;
		this.changed();
	}

	/** Shows `text` in the hint row for `ms`, unless another hint has taken its place by then. */
	flashHint(text: string, ms = HINT_MS): void {
		this.setHint(text);
		setTimeout(() => {
			if (this.hint === text) this.setHint(null);
		}, ms).unref();
	}

	/** Tab and /inspector: shows or hides the inspector; where it cannot fit, says so instead. */
	toggleInspector(columns: number): void {
		if (columns < INSPECTOR_MIN_COLUMNS) {
			const why = `the inspector needs ${INSPECTOR_MIN_COLUMNS} columns, this terminal has ${columns}`;
			this.flashHint(`${why}; its summary is in the status bar`);
		} else {
			this.inspector = !this.inspector;
			this.changed();
		}
	}

	/** Stops pending redraws (on exit). */
	dispose(): void {
		if (this.timer) clearTimeout(this.timer);
		this.timer = null;
		this.listeners.clear();
	}

	/** The view's open question, once this screen can answer it, gets the screen's side (asking, at the top). */
	private openDialog(): void {
		const question = this.view.pending;
		if (!question || !this.answers.has(question.callId) || this.dialog?.request === question) return;
		this.dialog = { request: question, stage: "ask", scroll: 0 };
		// The question takes the keys: the transcript mode ends (the view stays where it is).
		this.transcript = null;
	}

	/** Questions the view no longer holds (the run ended while asking) are answered "no": no one is waiting. */
	private dropClosed(open: PendingQuestion | null): void {
		for (const [callId, deliver] of this.answers) {
			if (callId === open?.callId) continue;
			this.answers.delete(callId);
			deliver(CLOSED);
		}
	}

	private flush(): void {
		if (this.timer) clearTimeout(this.timer);
		this.timer = null;
		this.last = this.now();
		for (const listener of this.listeners) listener();
	}
}
