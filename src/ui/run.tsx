import { homedir } from "node:os";
import { render } from "ink";
import type { ApprovalDecision, ApprovalRequest } from "../agent/loop.js";
import type { RunFlags, Setup } from "../modes/setup.js";
import { gitBranch } from "../prompt/system-prompt.js";
import { initialView } from "../view/state.js";
import { App, type AppInfo } from "./App.js";
import type { Connected } from "./connect.js";
import { InputModel } from "./input-model.js";
import { UiStore } from "./store.js";
import { Screen } from "./terminal.js";
import { darkTheme } from "./theme.js";
import { ThemeContext } from "./theme-context.js";

declare const GAR_VERSION: string;
const VERSION = typeof GAR_VERSION === "string" ? GAR_VERSION : "0.0.0-dev";

export type TuiOptions = RunFlags & {
	prompt?: string;
	/** gar demo: a temporary copy of a tiny project, driven by a scripted model at a human pace. */
	demo?: boolean;
};

function shownPath(path: string): string {
	const home = homedir();
	return path === home || path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

/** `/quit`, `/new`, `/model NAME`, `/inspector`: plain parsing until the editor brings completion. */
async function command(text: string, setup: Setup, store: UiStore, exit: () => void): Promise<void> {
	const { conversation, channel } = setup;
	const [name = "", ...rest] = text.trim().slice(1).split(/\s+/);
	const arg = rest.join(" ");
	const notice = (message: string, level: "info" | "warning" | "error" = "info") =>
		channel.emit({ type: "notice", level, message });
	if (name === "quit" || name === "exit") return exit();
	if (name === "inspector") {
		store.inspector = !store.inspector;
		return store.changed();
	}
	if (conversation.running) return notice(`/${name} waits until the run ends (Esc stops it)`, "warning");
	if (name === "new") {
		conversation.newSession();
		store.view = initialView(conversation.model);
		store.toBottom();
		store.changed();
		return notice(`new session ${conversation.session?.session.header.id ?? "(not saved)"}`);
	}
	if (name === "model") {
		if (!arg)
			return notice(`the model is ${conversation.model.provider}/${conversation.model.model}; /model NAME switches`);
		const next = await setup.providerFor(arg);
		conversation.setModel(next.provider, next.model, next.contextWindow);
		return notice(`model: ${next.provider.name}/${next.model} from the next message on`);
	}
	notice(`unknown command /${name}; try /quit, /new, /model NAME, /inspector`, "warning");
}

/** What to do with a line the person sent: a /command, a steer while a run goes on, or a new run. */
function submitter(setup: Setup, store: UiStore, exit: () => void) {
	const { conversation, channel } = setup;
	return (text: string) => {
		const fail = (error: unknown) =>
			channel.emit({ type: "notice", level: "error", message: error instanceof Error ? error.message : String(error) });
		if (text.startsWith("/") && !text.startsWith("//")) {
			command(text, setup, store, exit).catch(fail);
			return;
		}
		if (conversation.running) {
			conversation.steer(text);
			return;
		}
		// Redraw once the run is over: the input's hint changes from "steer" back to "send".
		conversation
			.run(text)
			.catch(fail)
			.finally(() => store.changed());
	};
}

/**
 * `gar` in a terminal: the full-screen app. Owns the terminal while it runs (alternate screen, paste and mouse
 * modes, restored on exit, on a crash, on SIGTERM/SIGHUP and around Ctrl+Z); everything it shows comes from the
 * conversation's events through the store. The first frame is drawn before config, session, tools and the SDK
 * load (connect.ts): what is typed meanwhile waits for them. Returns the exit code once the person quits.
 */
export async function runTui(options: TuiOptions): Promise<number> {
	const store = new UiStore(initialView({ provider: options.provider ?? "", model: options.model ?? "" }));
	const ask = (request: ApprovalRequest): Promise<ApprovalDecision> =>
		new Promise((resolve) => {
			store.approval = { request, since: Date.now(), answer: resolve, stage: "ask", scroll: 0 };
			store.changed();
		});
	let setup: Setup | undefined;
	const screen = new Screen({ mouse: false });
	const restore = () => screen.restore();
	process.on("exit", restore);
	const crash = (error: unknown) => {
		screen.restore();
		process.stderr.write(
			`gar: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : error}\n`,
		);
		process.exit(1);
	};
	process.on("uncaughtException", crash);
	// Node's own warnings would print across the frame: they become notices inside the app instead.
	const warningListeners = process.listeners("warning");
	process.removeAllListeners("warning");
	const pendingWarnings: string[] = [];
	const onWarning = (warning: Error) => {
		const message = `node: ${warning.message}`;
		if (setup) setup.channel.emit({ type: "notice", level: "warning", message });
		else pendingWarnings.push(message);
	};
	process.on("warning", onWarning);
	const input = new InputModel();
	let branches = 0;
	const info: AppInfo = {
		version: VERSION,
		cwd: shownPath(options.cwd),
		branch: gitBranch(options.cwd),
		sessionId: () => setup?.conversation.session?.session.header.id ?? null,
		sessionName: () => setup?.conversation.session?.session.name,
		branches: () => branches,
		running: () => setup?.conversation.running ?? false,
	};

	let done: (code: number) => void = () => {};
	const finished = new Promise<number>((resolve) => {
		done = resolve;
	});
	const exit = () => done(0);
	const suspend = () => {
		screen.restore();
		process.stdin.setRawMode?.(false);
		process.kill(process.pid, "SIGTSTP");
	};
	// Until the conversation exists, sent lines wait for it (in order); nothing typed is dropped.
	const early: string[] = [];
	let submit = (text: string) => {
		early.push(text);
	};
	const actions = {
		submit: (text: string) => submit(text),
		abort: () => setup?.conversation.abort(),
		exit,
		suspend,
	};
	screen.enter();
	const onSignal = () => done(130);
	process.on("SIGTERM", onSignal);
	process.on("SIGHUP", onSignal);
	const ink = render(
		<ThemeContext.Provider value={darkTheme}>
			<App store={store} input={input} info={info} actions={actions} />
		</ThemeContext.Provider>,
		{ exitOnCtrlC: false, patchConsole: false, maxFps: 30, incrementalRendering: true },
	);
	// A render that throws ends the app like any crash: the screen restored and the error shown.
	ink.waitUntilExit().catch(crash);
	const onContinue = () => {
		process.stdin.setRawMode?.(true);
		screen.enter();
		ink.clear();
		store.changed();
	};
	process.on("SIGCONT", onContinue);
	const cleanup = () => {
		ink.unmount();
		store.dispose();
		screen.restore();
		process.off("exit", restore);
		process.off("uncaughtException", crash);
		process.off("warning", onWarning);
		for (const listener of warningListeners) process.on("warning", listener);
		process.off("SIGTERM", onSignal);
		process.off("SIGHUP", onSignal);
		process.off("SIGCONT", onContinue);
	};

	let connected: Connected;
	try {
		const { connect } = await import("./connect.js");
		connected = await connect(options, store, ask);
	} catch (error) {
		// A bad config or session: the person reads the error on the normal screen, as in `gar -p`.
		cleanup();
		throw error;
	}
	setup = connected.setup;
	const { conversation, channel } = setup;
	screen.setMouse(setup.config.tui.mouse);
	info.cwd = shownPath(connected.cwd);
	info.branch = gitBranch(connected.cwd);
	branches = conversation.session?.session.leaves().length ?? 0;
	channel.subscribe((event) => {
		if (event.type === "agent_end") branches = conversation.session?.session.leaves().length ?? 0;
	});
	for (const message of pendingWarnings) channel.emit({ type: "notice", level: "warning", message });
	submit = submitter(setup, store, exit);
	store.changed();
	const first = connected.prompt?.trim();
	// The demo types its task after a moment, so the empty app is seen first.
	if (first) setTimeout(() => submit(first), connected.demo ? 800 : 0);
	for (const text of early.splice(0)) submit(text);
	const code = await finished;
	conversation.close();
	cleanup();
	const saved = conversation.session;
	const id = saved && saved.session.entries.length > 0 ? saved.session.header.id : undefined;
	process.stdout.write(
		id ? `gar: session ${id} · continue it with: gar -c   (or gar --session ${id})\n` : "gar: nothing was saved\n",
	);
	return code;
}
