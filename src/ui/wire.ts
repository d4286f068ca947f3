import { homedir } from "node:os";
import type { UserInput } from "../agent/events.js";
import type { Setup } from "../modes/setup.js";
import { gitBranch } from "../prompt/system-prompt.js";
import { tildePath } from "../text/paths.js";
import { branchLabel } from "../view/format.js";
import type { Connected } from "./connect.js";
import type { AppInfo } from "./screens/App.js";
import type { SendMode } from "./screens/chat-keys.js";
import { type CommandContext, commandCompleter, lineKind, runCommand, runShellLine } from "./screens/commands.js";
import type { StartedApp, Submit } from "./start.js";
import type { InputModel } from "./state/input-model.js";

/**
 * The app's second stage, once connect.ts has built the conversation: the keys and the inspector reach it, the
 * status bar shows where it works, the editor completes /commands and recalls the project's history, and sent lines
 * (those typed while gar connected first) go to it. The first prompt (`gar "task"`, the demo's) is sent last.
 */
export async function wire(app: StartedApp, connected: Connected): Promise<void> {
	const { setup } = connected;
	app.link(setup);
	app.terminal.setMouse(setup.config.tui.mouse);
	app.store.onFocus = (focused) => setup.conversation.setFocused(focused);
	app.info.cwd = tildePath(connected.cwd, homedir());
	app.info.branch = gitBranch(connected.cwd);
	followBranch(app.info, setup);
	const { switchTheme, themeNames, userConfigDir } = await import("./theme/themes.js");
	const configDir = userConfigDir();
	await wireEditor(app.input, connected, () => themeNames(configDir));
	const attach = await fileContext(connected);
	const submit = submitter(setup, attach, {
		setup,
		store: app.store,
		input: app.input,
		exit: app.exit,
		columns: () => process.stdout.columns || 80,
		writeTerminal: (data) => process.stdout.write(data),
		setTheme: (name) => switchTheme(app.store, name, { configDir }),
	});
	app.store.changed();
	const first = connected.prompt?.trim();
	// The demo types its task after a moment, so the empty app is seen first.
	if (first) setTimeout(() => submit(first), connected.demo ? 800 : 0);
	app.sendTo(submit);
}

/** Which of the session's branches the conversation is on ("2 of 3"), for the inspector. */
function followBranch(info: AppInfo, { conversation, channel }: Setup): void {
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
}

/**
 * The editor: /command completion, the `@` finder over the project's files (listed now, in the background, and
 * again once a run ended), the project's prompt history, and queued messages a run left undelivered.
 */
async function wireEditor(input: InputModel, { setup, cwd }: Connected, themes: () => string[]): Promise<void> {
	const { conversation, channel } = setup;
	input.completer = commandCompleter({ models: () => setup.modelChoices(), themes });
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
function submitter(setup: Setup, attach: Attach, ctx: CommandContext): Submit {
	const { conversation, channel } = setup;
	const { store, input } = ctx;
	return (line: string, mode: SendMode = "send", pastes) => {
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
		const message = attach(moved?.length ? { text: sorted.text, pastes: moved } : { text: sorted.text });
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
