import { homedir } from "node:os";
import { render } from "ink";
import type { EventChannel } from "../agent/channel.js";
import type { PastedRange } from "../agent/events.js";
import { bootFirstPaint, saveCodeCache } from "../code-cache.js";
import type { Setup } from "../modes/setup.js";
import { gitBranch } from "../prompt/system-prompt.js";
import type { Session } from "../session/index.js";
import { installInterrupts } from "../signals.js";
import { tildePath } from "../text/paths.js";
import { initialView } from "../view/state.js";
import { App, type AppActions, type AppInfo } from "./screens/App.js";
import type { SendMode } from "./screens/chat-keys.js";
import type { SessionIntents } from "./screens/screen.js";
import { InputEcho } from "./state/input-echo.js";
import { InputModel } from "./state/input-model.js";
import { PickerModel } from "./state/picker.js";
import { pathLabel, titleOf } from "./state/session-facts.js";
import { UiStore } from "./state/store.js";
import type { Background } from "./terminal/background.js";
import { Screen } from "./terminal/screen.js";
import { TerminalSession } from "./terminal/session.js";
import { renderOverPaint } from "./terminal/start-frame.js";
import { StoreTheme } from "./theme/context.js";
import { startTheme } from "./theme/start.js";

declare const GAR_VERSION: string;
const VERSION = typeof GAR_VERSION === "string" ? GAR_VERSION : "0.0.0-dev";

/** After the picker's rows are first drawn, `gar -r`'s code cache is written (src/boot.ts): by then they are on screen. */
const PICKER_CACHE_DELAY_MS = 100;

/** What the first frame needs of gar's options. */
export type StartOptions = {
	cwd: string;
	provider?: string;
	model?: string;
	/** --theme NAME: overrides `[tui] theme` (and NO_COLOR, and the terminal's background). */
	theme?: string;
	/** The terminal's background, asked before this module loaded (terminal/background.ts earlyTerminal). */
	background?: Promise<Background | undefined>;
	/** gar -r [SEARCH]: the first screen is the resume picker, filtered by SEARCH. */
	resume?: string;
	/** A screen to open over the chat before the first frame (`gar replay`: "replay"). */
	screen?: string;
	/** --session / -c: the launch's code cache is written once the session is drawn (resume-preview.ts, connect.ts). */
	session?: string;
	continue?: boolean;
};

/** Sends a line the person typed: a task, a steer or follow-up, a /command or a !shell line. */
export type Submit = (text: string, mode?: SendMode, pastes?: PastedRange[]) => void;

/** Messages for the chat's notices (Node's warnings, a theme that failed to load) kept until the channel exists. */
class Notices {
	private readonly kept: string[] = [];
	private channel: EventChannel | null = null;

	readonly warn = (message: string): void => {
		if (this.channel) this.channel.emit({ type: "notice", level: "warning", message });
		else this.kept.push(message);
	};

	/** From now on warnings go to `channel`; those kept go first, in order. */
	to(channel: EventChannel): void {
		this.channel = channel;
		for (const message of this.kept.splice(0)) this.warn(message);
	}
}

/** Lines sent before the conversation exists wait here, in order; then they go to it at once. */
class Lines {
	private readonly early: Parameters<Submit>[] = [];
	private target: Submit | null = null;

	readonly send: Submit = (...line) => {
		if (this.target) this.target(...line);
		else this.early.push(line);
	};

	/** From now on lines go to `submit`; those kept go first, in order. */
	to(submit: Submit): void {
		this.target = submit;
		for (const line of this.early.splice(0)) submit(...line);
	}
}

/** The app after its first frame, before the conversation exists (run.tsx connects and wires it). */
export type StartedApp = {
	store: UiStore;
	input: InputModel;
	/** What the status bar and the inspector show of the session; wire.ts fills in what the setup knows. */
	info: AppInfo;
	terminal: TerminalSession;
	/** Resolves with the exit code once the person quits. */
	finished: Promise<number>;
	exit: () => void;
	/** The conversation exists: the keys, the inspector and the session screens reach it, kept notices go to it. */
	link: (setup: Setup, intents?: SessionIntents) => void;
	/** The session's last screen is drawn from its file's tail (resume-preview.ts): the status bar shows its facts. */
	preview: (session: Session) => void;
	/** Kept notices (and those to come) go to `channel`: a replay's, which has no conversation to link. */
	notify: (channel: EventChannel) => void;
	/** Lines are sent through `submit` from now on; those typed while gar connected go first, in order. */
	sendTo: (submit: Submit) => void;
	/** Unmounts the app and gives the terminal back. */
	close: () => void;
};

/** gar -r: the picker is the first screen (its rows come once the sessions are read, after the first frame). */
function openPicker(store: UiStore, search: string): void {
	let rowsDrawn = false;
	store.picker = new PickerModel(search, () => {
		store.changed();
		if (rowsDrawn || store.picker?.loading !== false) return;
		rowsDrawn = true;
		setTimeout(saveCodeCache, PICKER_CACHE_DELAY_MS);
	});
	store.openScreen("picker");
}

/**
 * The full-screen app's first stage: the terminal taken (terminal/session.ts), the first frame drawn with the store,
 * the input and the start-up theme, before config, session, tools and the SDK load (connect.ts). What is typed
 * meanwhile waits for them; nothing is dropped.
 */
export async function startApp(options: StartOptions): Promise<StartedApp> {
	// The terminal's answer (OSC 11, asked by cli.ts) is awaited before Ink reads stdin.
	const themed = startTheme(options.theme, process.env, options.background);
	const store = new UiStore(initialView({ provider: options.provider ?? "", model: options.model ?? "" }));
	const notices = new Notices();
	// The start script may have painted the last launch's first frame (src/first-paint.ts): the alternate screen is on,
	// unless a message on stderr made it give the screen back meanwhile.
	const paint = bootFirstPaint();
	const terminal = new TerminalSession(process, {
		screen: new Screen({ mouse: false, entered: () => paint?.onScreen() !== undefined }),
		signals: installInterrupts(),
		warn: notices.warn,
	});
	if (options.resume !== undefined) openPicker(store, options.resume);
	const input = new InputModel();
	// A typed key's row goes to the terminal at once, its frame right after (state/input-echo.ts).
	input.echo = new InputEcho((bytes) => process.stdout.write(bytes));
	const linked: Linked = {};
	const lines = new Lines();
	let done: (code: number) => void = () => {};
	const finished = new Promise<number>((resolve) => {
		done = resolve;
	});
	const exit = () => done(0);
	const info = appInfo(options, linked);
	const actions = appActions({ store, input, terminal, linked, exit, submit: lines.send });
	const start = await themed;
	store.setTheme(start.theme);
	if (start.warning) notices.warn(start.warning);
	if (options.screen) store.openScreen(options.screen);
	terminal.enter();
	const ink = renderOverPaint(paint, () =>
		render(
			<StoreTheme store={store}>
				<App store={store} input={input} info={info} actions={actions} />
			</StoreTheme>,
			{ exitOnCtrlC: false, patchConsole: false, maxFps: 30, incrementalRendering: true },
		),
	);
	terminal.redrawWith(() => {
		ink.clear();
		store.changed();
	});
	// A render that throws ends the app like any crash: the screen restored and the error shown.
	ink.waitUntilExit().catch(terminal.crash);
	// The first frame is drawn: the code cache now holds just what it took (src/boot.ts); the rest loads after it.
	// `gar -r` keeps its own cache, written once the picker's rows are drawn (their code is what it waits for); so does
	// a continued session, once it is drawn.
	if (options.resume === undefined && options.session === undefined && !options.continue) saveCodeCache();
	return {
		store,
		input,
		info,
		terminal,
		finished,
		exit,
		link: (setup, intents) => {
			linked.setup = setup;
			if (intents) linked.intents = intents;
			delete linked.preview;
			notices.to(setup.channel);
		},
		preview: (session) => {
			linked.preview = session;
		},
		notify: (channel) => notices.to(channel),
		sendTo: (submit) => lines.to(submit),
		close: () => {
			ink.unmount();
			store.dispose();
			terminal.close();
		},
	};
}

/** The conversation and its session intents, once they exist; before, the tail of the session being opened. */
export type Linked = { setup?: Setup; intents?: SessionIntents; preview?: Session };

/**
 * The status bar's and the inspector's facts: the folder and branch now, the session once it exists (while it loads,
 * the preview's: its id, and its name and label only where the tail holds them).
 */
export function appInfo(options: StartOptions, linked: Linked): AppInfo {
	const session = () => (linked.setup ? linked.setup.conversation.session?.session : linked.preview);
	return {
		version: VERSION,
		cwd: tildePath(options.cwd, homedir()),
		branch: gitBranch(options.cwd),
		sessionId: () => session()?.header.id ?? null,
		// Unnamed, it is called by its first prompt (worked out when shown, never written); a tail's first prompt is not
		// the session's, so the preview shows a name only when the tail has the latest `name` entry.
		sessionName: () => {
			if (!linked.setup && linked.preview) return linked.preview.name;
			const saved = session();
			return saved && titleOf(saved);
		},
		sessionLabel: () => {
			const saved = session();
			return saved && pathLabel(saved);
		},
		sessionBranch: () => "–",
		running: () => linked.setup?.conversation.running ?? false,
	};
}

type ActionDeps = {
	store: UiStore;
	input: InputModel;
	terminal: TerminalSession;
	linked: Linked;
	exit: () => void;
	submit: Submit;
};

/** What the keys ask of the app beyond the store and the input. */
function appActions({ store, input, terminal, linked, exit, submit }: ActionDeps): AppActions {
	const warn = (message: string | undefined) => {
		if (message) linked.setup?.channel.emit({ type: "notice", level: "warning", message });
	};
	return {
		submit,
		get session() {
			return linked.intents;
		},
		// Nothing to show yet says so in the hint row, which clears itself: a stray Esc Esc leaves nothing in the chat.
		doubleEscape: () => {
			const why = linked.intents ? linked.intents.openRewind() : "the session is not ready yet: try again in a moment";
			if (why) store.flashHint(why);
		},
		abort: () => linked.setup?.conversation.abort(),
		exit,
		suspend: terminal.suspend,
		// Ctrl+G: node:child_process and the editor module load only when it is used.
		externalEditor: async () => {
			const { editExternally } = await import("./editor/external-editor.js");
			const text = input.buffer.pastes.expand(input.text);
			const result = editExternally(text, { before: terminal.leave, after: terminal.back });
			if ("text" in result) input.set(result.text);
			else linked.setup?.channel.emit({ type: "notice", level: "warning", message: result.error });
		},
		pullQueued: () => linked.setup?.conversation.queue.pullLast(),
		// The request viewer and a sub-agent's session: their modules load when first opened.
		openRequest: async (requestId) => {
			const setup = linked.setup;
			if (setup) warn((await import("./screens/inspect-open.js")).openRequest(store, setup, requestId));
		},
		openSubagent: async (file) => warn((await import("./screens/inspect-open.js")).openSession(store, file)),
	};
}
