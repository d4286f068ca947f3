import { homedir } from "node:os";
import { render } from "ink";
import type { PastedRange } from "../agent/events.js";
import { saveCodeCache } from "../code-cache.js";
import type { RunFlags, Setup } from "../modes/setup.js";
import { gitBranch } from "../prompt/system-prompt.js";
import { tildePath } from "../text/paths.js";
import { branchLabel, resumeHint } from "../view/format.js";
import { initialView } from "../view/state.js";
import { App, type AppInfo } from "./App.js";
import { type CommandContext, commandCompleter, lineKind, runCommand, runShellLine } from "./commands.js";
import type { Connected } from "./connect.js";
import { InputModel } from "./input-model.js";
import type { SendMode } from "./keys.js";
import { UiStore } from "./store.js";
import { Screen } from "./terminal.js";
import type { Background } from "./terminal-background.js";
import { StoreTheme } from "./theme-context.js";
import { startTheme } from "./theme-start.js";

declare const GAR_VERSION: string;
const VERSION = typeof GAR_VERSION === "string" ? GAR_VERSION : "0.0.0-dev";

export type TuiOptions = RunFlags & {
	prompt?: string;
	/** gar demo: a temporary copy of a tiny project, driven by a scripted model at a human pace. */
	demo?: boolean;
	/** --theme NAME: overrides `[tui] theme` (and NO_COLOR, and the terminal's background). */
	theme?: string;
	/** The terminal's background, asked before this module loaded (terminal-background.ts earlyBackgroundQuery). */
	background?: Promise<Background | undefined>;
};

/**
 * What to do with a line the person sent: a /command, a !shell line, a steer (Enter) or follow-up (Alt+Enter)
 * while a run goes on, or a new run.
 */
function submitter(setup: Setup, ctx: CommandContext) {
	const { conversation, channel } = setup;
	const { store, input } = ctx;
	return (line: string, mode: SendMode = "send", pastes?: PastedRange[]) => {
		const fail = (error: unknown) =>
			channel.emit({ type: "notice", level: "error", message: error instanceof Error ? error.message : String(error) });
		const sorted = lineKind(line, input.offered);
		input.offered = null;
		if (sorted.kind === "command") {
			runCommand(line, ctx).catch(fail);
			return;
		}
		if (sorted.kind === "shell") {
			runShellLine(line, ctx)
				.catch(fail)
				.finally(() => store.changed());
			return;
		}
		// `//text` lost a character at the start: the pasted blocks moved with it.
		const shift = line.length - sorted.text.length;
		const moved = pastes?.map((p) => ({ start: p.start - shift, end: p.end - shift })).filter((p) => p.start >= 0);
		const message = moved?.length ? { text: sorted.text, pastes: moved } : { text: sorted.text };
		if (conversation.running) {
			if (mode === "follow_up") conversation.followUp(message);
			else conversation.steer(message);
			return;
		}
		// Redraw once the run is over: the input's hint changes from "steer" back to "send".
		conversation
			.run(message)
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
	// The terminal's answer (OSC 11, asked by cli.ts) is awaited before Ink reads stdin.
	const themed = startTheme(options.theme, process.env, options.background);
	const store = new UiStore(initialView({ provider: options.provider ?? "", model: options.model ?? "" }));
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
	let sessionBranch = "–";
	const info: AppInfo = {
		version: VERSION,
		cwd: tildePath(options.cwd, homedir()),
		branch: gitBranch(options.cwd),
		sessionId: () => setup?.conversation.session?.session.header.id ?? null,
		sessionName: () => setup?.conversation.session?.session.name,
		sessionBranch: () => sessionBranch,
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
	const early: [text: string, mode?: SendMode, pastes?: PastedRange[]][] = [];
	let submit = (text: string, mode?: SendMode, pastes?: PastedRange[]) => {
		early.push([text, mode, pastes]);
	};
	const actions = {
		submit: (text: string, mode?: SendMode, pastes?: PastedRange[]) => submit(text, mode, pastes),
		abort: () => setup?.conversation.abort(),
		exit,
		suspend,
		// Ctrl+G: node:child_process and the editor module load only when it is used.
		externalEditor: async () => {
			const { editExternally } = await import("./editor/external-editor.js");
			const result = editExternally(input.buffer.pastes.expand(input.text), {
				before: () => {
					screen.restore();
					process.stdin.setRawMode?.(false);
				},
				after: () => {
					process.stdin.setRawMode?.(true);
					screen.enter();
					ink.clear();
					store.changed();
				},
			});
			if ("text" in result) input.set(result.text);
			else setup?.channel.emit({ type: "notice", level: "warning", message: result.error });
		},
		pullQueued: () => setup?.conversation.queue.pullLast(),
	};
	const start = await themed;
	store.setTheme(start.theme);
	if (start.warning) pendingWarnings.push(start.warning);
	screen.enter();
	const onSignal = () => done(130);
	process.on("SIGTERM", onSignal);
	process.on("SIGHUP", onSignal);
	const ink = render(
		<StoreTheme store={store}>
			<App store={store} input={input} info={info} actions={actions} />
		</StoreTheme>,
		{ exitOnCtrlC: false, patchConsole: false, maxFps: 30, incrementalRendering: true },
	);
	// A render that throws ends the app like any crash: the screen restored and the error shown.
	ink.waitUntilExit().catch(crash);
	// The first frame is drawn: the code cache now holds just what it took (src/boot.ts); the rest loads after it.
	saveCodeCache();
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
		connected = await connect(options, store);
	} catch (error) {
		// A bad config or session: the person reads the error on the normal screen, as in `gar -p`.
		cleanup();
		throw error;
	}
	setup = connected.setup;
	const { conversation, channel } = setup;
	screen.setMouse(setup.config.tui.mouse);
	info.cwd = tildePath(connected.cwd, homedir());
	info.branch = gitBranch(connected.cwd);
	const whereInTree = () => {
		const writer = conversation.session;
		sessionBranch = writer
			? branchLabel(
					writer.session.leaves().map((leaf) => leaf.id),
					writer.leafId,
				)
			: "–";
	};
	whereInTree();
	channel.subscribe((event) => {
		// At the start too: the person's message may have started a new branch.
		if (event.type === "agent_start" || event.type === "agent_end") whereInTree();
	});
	for (const message of pendingWarnings) channel.emit({ type: "notice", level: "warning", message });
	// The editor: /command completion, the project's prompt history, and queued messages a run left undelivered.
	const { switchTheme, themeNames, userConfigDir } = await import("./themes.js");
	const configDir = userConfigDir();
	input.completer = commandCompleter({
		models: () => connected.setup.modelChoices(),
		themes: () => themeNames(configDir),
	});
	const [{ configPaths }, { historyFile, openHistory }] = await Promise.all([
		import("../config/paths.js"),
		import("./editor/history-file.js"),
	]);
	input.history = openHistory(historyFile(configPaths(homedir(), process.env).dataDir, connected.cwd));
	if (input.history.problem) channel.emit({ type: "notice", level: "warning", message: input.history.problem });
	channel.subscribe((event) => {
		if (event.type === "agent_end" && conversation.queue.size > 0)
			input.restore(conversation.queue.drain().join("\n\n"));
	});
	const commandContext: CommandContext = {
		setup,
		store,
		input,
		exit,
		columns: () => process.stdout.columns || 80,
		writeTerminal: (data) => process.stdout.write(data),
		setTheme: (name) => switchTheme(store, name, { configDir }),
	};
	submit = submitter(setup, commandContext);
	store.changed();
	const first = connected.prompt?.trim();
	// The demo types its task after a moment, so the empty app is seen first.
	if (first) setTimeout(() => submit(first), connected.demo ? 800 : 0);
	for (const args of early.splice(0)) submit(...args);
	const code = await finished;
	await conversation.close("prompt_input_exit");
	cleanup();
	const saved = conversation.session;
	const id = saved && saved.session.entries.length > 0 ? saved.session.header.id : undefined;
	process.stdout.write(`${resumeHint(id)}\n`);
	return code;
}
