// The full-screen app over a real conversation saved to a real session file, with its session intents (tree, fork,
// clone, labels): what test/ui-tree*.test.tsx drive with ink-testing-library.
import { render } from "ink-testing-library";
import { EventChannel } from "../../src/agent/channel.js";
import { Conversation } from "../../src/conversation/conversation.js";
import type { Provider } from "../../src/llm/types.js";
import { SessionWriter } from "../../src/session/writer.js";
import { createTools } from "../../src/tools/index.js";
import { pathView } from "../../src/ui/path-view.js";
import { App, type AppActions, type AppInfo } from "../../src/ui/screens/App.js";
import { type CommandContext, runCommand } from "../../src/ui/screens/commands.js";
import { sessionIntents } from "../../src/ui/session-intents.js";
import { InputModel } from "../../src/ui/state/input-model.js";
import { pathLabel, titleOf } from "../../src/ui/state/session-facts.js";
import { UiStore } from "../../src/ui/state/store.js";
import { initialView } from "../../src/view/state.js";
import { tick, until } from "./ui-app.js";

export { tick, until };

/**
 * ink-text-input reads a key with the state of its last frame (its listener is set again after each frame): keys
 * for a field go a frame apart, as a person types them; a terminal sends a word typed at once as one read.
 */
export const frameApart = () => new Promise((resolve) => setTimeout(resolve, 25));

export const KEYS = {
	up: "\u001b[A",
	down: "\u001b[B",
	right: "\u001b[C",
	left: "\u001b[D",
	home: "\u001b[H",
	end: "\u001b[F",
	esc: "\u001b",
	enter: "\r",
	tab: "\t",
	shiftTab: "\u001b[Z",
	ctrlC: "\u0003",
} as const;

export type TreeAppOptions = {
	provider: Provider;
	/** The session base folder and the project folder. */
	dir: string;
	cwd: string;
	/** Continue this session file (default: a new session). */
	file?: string;
	size?: { columns: number; rows: number };
};

/**
 * The app as run.tsx wires it, but in ink-testing-library: a Conversation on a session writer, the store subscribed,
 * the session intents, sent lines going to conversation.run (commands to runCommand).
 */
export function treeApp(options: TreeAppOptions) {
	const { dir, cwd } = options;
	const writer = options.file ? SessionWriter.open(options.file) : SessionWriter.create({ dir, cwd });
	const channel = new EventChannel();
	const store = new UiStore(initialView({ provider: options.provider.name, model: "m" }));
	const conversation = new Conversation({
		channel,
		provider: options.provider,
		model: "m",
		contextWindow: null,
		system: { text: "You are a test.", parts: [] },
		tools: createTools({ cwd }),
		session: writer,
		approval: { required: false, autoApprove: [] },
	});
	channel.subscribe(store.onEvent);
	const notices: string[] = [];
	channel.subscribe((event) => {
		if (event.type === "notice") notices.push(event.message);
	});
	const input = new InputModel();
	const setup = { conversation, channel, secrets: [], config: { session: { dir } } };
	const intents = sessionIntents({ setup, store, input });
	// What connect.ts shows at start: the current path.
	store.view = pathView(conversation);
	const runs: Promise<unknown>[] = [];
	const ctx: CommandContext = {
		setup: { ...setup, providerFor: async () => ({ error: "no other models here" }) },
		store,
		input,
		exit: () => {},
		columns: () => 120,
		writeTerminal: () => {},
		session: intents,
	};
	const actions: AppActions = {
		submit: (text) => {
			if (text.startsWith("/")) runs.push(runCommand(text, ctx));
			else runs.push(conversation.run(text));
		},
		abort: () => conversation.abort(),
		exit: () => {},
		session: intents,
		doubleEscape: () => {
			const why = intents.openRewind();
			if (why) store.flashHint(why);
		},
	};
	const session = () => conversation.session?.session;
	const info: AppInfo = {
		version: "0.1.0",
		cwd: "~/project",
		branch: null,
		sessionId: () => session()?.header.id ?? null,
		sessionName: () => {
			const s = session();
			return s && titleOf(s);
		},
		sessionLabel: () => {
			const s = session();
			return s && pathLabel(s);
		},
		sessionBranch: () => "–",
		running: () => conversation.running,
	};
	const drawn = render(
		<App store={store} input={input} info={info} actions={actions} size={options.size ?? { columns: 100, rows: 24 }} />,
	);
	const frame = () => drawn.lastFrame() ?? "";
	return {
		store,
		input,
		conversation,
		channel,
		intents,
		ctx,
		/** The notices said so far, in order. */
		notices,
		frame,
		/** The rows of the frame. */
		lines: () => frame().split("\n"),
		press: async (...keys: string[]) => {
			for (const key of keys) {
				drawn.stdin.write(key);
				await tick();
			}
		},
		/** Types `text` (one read) into the open field, once the field listens, and waits until it shows. */
		typeInField: async (text: string) => {
			await frameApart();
			const before = frame().split("\n").at(-1) ?? "";
			drawn.stdin.write(text);
			await until(() => (frame().split("\n").at(-1) ?? "") !== before);
			await frameApart();
		},
		/** Waits for every line sent so far (runs and commands) to finish. */
		settle: () => Promise.all(runs),
		unmount: () => {
			drawn.unmount();
			store.dispose();
			conversation.close();
		},
	};
}
