import type { RunFlags } from "../modes/setup.js";
import { nextTurn } from "../text/steps.js";
import { resumeHint } from "../view/format.js";
import type { Connected } from "./connect.js";
import { type StartedApp, type StartOptions, startApp } from "./start.js";
import { wire } from "./wire.js";

export type TuiOptions = RunFlags &
	StartOptions & {
		prompt?: string;
		/** gar demo: a temporary copy of a tiny project, driven by a scripted model at a human pace. */
		demo?: boolean;
	};

/**
 * gar -r: the options once the person chose in the picker: the session's file, worked on in the folder it was recorded
 * in; unchanged (a new session here) when they left the picker without one.
 */
async function resumeFlags(store: StartedApp["store"], options: TuiOptions): Promise<TuiOptions> {
	const { pickAtStart } = await import("./resume.js");
	const picked = await pickAtStart(store, options);
	return picked ? { ...options, session: picked.file, cwd: picked.cwd } : options;
}

/** gar -r: the picker stayed up ("opening…") while the chosen session loaded; the chat shows it now. */
async function closePickerAfterConnect(store: StartedApp["store"]): Promise<void> {
	if (!store.picker) return;
	const { closePicker } = await import("./resume.js");
	closePicker(store);
}

/**
 * The code connect.ts needs, in pieces from the bottom up, most of it not yet compiled (the code cache holds what the
 * first frame took): each import runs the modules it is the first to reach, then keys typed meanwhile are answered.
 * As one import, the second stage kept a key typed at the first frame off the screen for ~110 ms; in pieces, ~25 ms.
 */
async function loadSecondStage(): Promise<void> {
	const pieces = [
		() => import("../config/schema.js"),
		() => import("../config/index.js"),
		() => import("../session/index.js"),
		() => import("../tools/index.js"),
		() => import("../agent/loop.js"),
		() => import("../conversation/conversation.js"),
		() => import("../modes/setup.js"),
	];
	for (const piece of pieces) {
		await piece();
		await nextTurn();
	}
}

/**
 * `gar` in a terminal: the full-screen app. Owns the terminal while it runs (terminal/session.ts: the alternate
 * screen, paste and mouse modes, restored on exit, on a crash, on SIGTERM/SIGHUP and around Ctrl+Z); everything it
 * shows comes from the conversation's events through the store. The first frame is drawn before config, session,
 * tools and the SDK load (start.tsx, then connect.ts and wire.ts): what is typed meanwhile waits for them. Returns the
 * exit code once the person quits, after the hint that resumes the session.
 */
export async function runTui(options: TuiOptions): Promise<number> {
	const app = await startApp(options);
	let connected: Connected;
	try {
		const flags = options.resume === undefined ? options : await resumeFlags(app.store, options);
		await loadSecondStage();
		const { connect } = await import("./connect.js");
		connected = await connect(flags, app);
		await closePickerAfterConnect(app.store);
	} catch (error) {
		// A bad config or session: the person reads the error on the normal screen, as in `gar -p`.
		app.close();
		throw error;
	}
	await wire(app, connected);
	const code = await app.finished;
	const { conversation } = connected.setup;
	// SessionEnd hooks run (and are waited for) before the terminal is given back.
	await conversation.close("prompt_input_exit");
	app.close();
	const saved = conversation.session;
	const id = saved && saved.session.entries.length > 0 ? saved.session.header.id : undefined;
	process.stdout.write(`${resumeHint(id)}\n`);
	return code;
}
