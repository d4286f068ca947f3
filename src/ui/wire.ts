import { homedir } from "node:os";
import type { PastedRange, UserInput } from "../agent/events.js";
import type { Setup } from "../modes/setup.js";
import { gitBranch } from "../prompt/system-prompt.js";
import { tildePath } from "../text/paths.js";
import { branchLabel } from "../view/format.js";
import type { Connected } from "./connect.js";
import type { AppInfo } from "./screens/App.js";
import type { SendMode } from "./screens/chat-keys.js";
import {
	type CommandContext,
	commandCompleter,
	commandNames,
	lineKind,
	runCommand,
	runShellLine,
	type TemplateCommand,
} from "./screens/commands.js";
import type { StartedApp, Submit } from "./start.js";
import type { InputModel } from "./state/input-model.js";
import { treeModelOf } from "./state/tree-model.js";

/** How long after start-up a resumed session's tree is built (after the first screen and the first keys). */
const TREE_WARM_MS = 1500;

/**
 * The app's second stage, once connect.ts has built the conversation: the keys and the inspector reach it, the
 * status bar shows where it works, the editor completes /commands and recalls the project's history, and sent lines
 * (those typed while gar connected first) go to it. The first prompt (`gar "task"`, the demo's) is sent last.
 */
export async function wire(app: StartedApp, connected: Connected): Promise<void> {
	const { setup } = connected;
	const onMoved = followBranch(app.info, setup);
	const intents = connected.intents({ store: app.store, input: app.input, onMoved });
	app.link(setup, intents);
	app.terminal.setMouse(setup.config.tui.mouse);
	app.store.onFocus = (focused) => setup.conversation.setFocused(focused);
	app.info.cwd = tildePath(connected.cwd, homedir());
	app.info.branch = gitBranch(connected.cwd);
	const { switchTheme, themeNames, userConfigDir } = await import("./theme/themes.js");
	const configDir = userConfigDir();
	const { promptTemplates } = await import("./prompt-templates.js");
	const templates = promptTemplates(connected.cwd, process.env, homedir(), commandNames());
	if (templates.skipped) setup.channel.emit({ type: "notice", level: "warning", message: templates.skipped });
	await wireEditor(app.input, connected, () => themeNames(configDir), templates.list);
	const attach = await fileContext(connected);
	const submit = submitter(setup, attach, {
		setup,
		store: app.store,
		input: app.input,
		exit: app.exit,
		columns: () => process.stdout.columns || 80,
		writeTerminal: (data) => process.stdout.write(data),
		setTheme: (name) => switchTheme(app.store, name, { configDir }),
		templates: templates.list,
		cwd: connected.cwd,
		session: intents,
		openPicker: (query) => {
			import("./resume.js")
				.then(({ resumeInApp }) => resumeInApp(app.store, setup, connected.cwd, query, { onMoved }))
				.catch((error: unknown) => {
					const message = error instanceof Error ? error.message : String(error);
					setup.channel.emit({ type: "notice", level: "error", message });
				});
		},
	});
	app.store.changed();
	const first = connected.prompt?.trim();
	// The demo types its task after a moment, so the empty app is seen first.
	if (first) setTimeout(() => submit(first), connected.demo ? 800 : 0);
	app.sendTo(submit);
	// A resumed session's tree is built while the app is idle, so the first /tree opens as fast as the next ones.
	setTimeout(() => {
		const session = setup.conversation.session?.session;
		if (session && session.entries.length > 0 && !setup.conversation.running) treeModelOf(session);
	}, TREE_WARM_MS).unref();
}

/**
 * Which of the session's branches the conversation is on ("2 of 3"), for the inspector; returns what updates it
 * (a run starts or ends, the leaf moves, another session is switched to).
 */
function followBranch(info: AppInfo, { conversation, channel }: Setup): () => void {
	let label = "–";
	const update = () => {
		const writer = conversation.session;
		label = writer
			? branchLabel(
					writer.session.leaves().map((leaf) => leaf.id),
					writer.leafId,
				)
			: "–";
	};
	update();
	info.sessionBranch = () => label;
	channel.subscribe((event) => {
		// At the start too: the person's message may have started a new branch.
		if (event.type === "agent_start" || event.type === "agent_end") update();
	});
	return update;
}

/**
 * The editor: /command completion, the `@` finder over the project's files (listed now, in the background, and
 * again once a run ended), the project's prompt history, and queued messages a run left undelivered.
 */
async function wireEditor(
	input: InputModel,
	{ setup, cwd }: Connected,
	themes: () => string[],
	templates: () => readonly TemplateCommand[],
): Promise<void> {
	const { conversation, channel } = setup;
	input.completer = commandCompleter({ models: () => setup.modelChoices(), themes, templates });
	const [{ configPaths }, { historyFile, openHistory }, { FileFinder }] = await Promise.all([
		import("../config/paths.js"),
		import("./editor/history-file.js"),
		import("../files/finder.js"),
	]);
	const finder = new FileFinder({ cwd });
	input.finder = finder;
	finder.warm();
	input.history = openHistory(historyFile(configPaths(homedir(), process.env).dataDir, cwd));
	if (input.history.problem) channel.emit({ type: "notice", level: "warning", message: input.history.problem });
	channel.subscribe((event) => {
		if (event.type !== "agent_end") return;
		finder.stale();
		if (conversation.queue.size > 0) input.restore(conversation.queue.drain().join("\n\n"));
	});
}

type Attach = (message: UserInput) => UserInput;

/** What a message carries of the files it mentions with `@` (`[tui] file_context`; off: nothing but the text). */
async function fileContext({ setup, cwd }: Connected): Promise<Attach> {
	if (!setup.config.tui.fileContext) return (message) => message;
	const { withMentionedFiles } = await import("../files/mention-context.js");
	return (message) => withMentionedFiles(message, cwd);
}

/**
 * What to do with a line the person sent: a /command, a !shell line, a steer (Enter) or follow-up (Alt+Enter)
 * while a run goes on, or a new run; a message carries the files it mentions (`attach`).
 */
function submitter(setup: Setup, attach: Attach, context: CommandContext): Submit {
	const { conversation, channel } = setup;
	const { store, input } = context;
	const fail = (error: unknown) =>
		channel.emit({ type: "notice", level: "error", message: error instanceof Error ? error.message : String(error) });
	/** A message: a steer (Enter) or follow-up (Alt+Enter) while a run goes on, else a new run. */
	const send = (typed: { text: string; pastes?: PastedRange[] }, mode: SendMode) => {
		// The files it mentions go along (`attach`: [tui] file_context).
		const message = attach(typed);
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
	// A prompt template's text goes as the person's message, as typed.
	const ctx: CommandContext = { ...context, send: (text) => send({ text }, "send") };
	return (line: string, mode: SendMode = "send", pastes) => {
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
		send(moved?.length ? { text: sorted.text, pastes: moved } : { text: sorted.text }, mode);
	};
}
