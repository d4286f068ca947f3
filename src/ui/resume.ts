import { existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { resolve } from "node:path";
import { configPaths, loadConfig } from "../config/index.js";
import type { RunFlags, Setup } from "../modes/setup.js";
import { SessionError } from "../session/format.js";
import { trashDirOf } from "../session/trash.js";
import { SessionWriter } from "../session/writer.js";
import { pickerSource } from "./picker-source.js";
import { PickerModel, type PickerRow } from "./state/picker.js";
import type { UiStore } from "./state/store.js";

const trashDir = () => trashDirOf(configPaths(homedir(), process.env).dataDir);

/** What the in-app picker uses of the app's setup. */
export type ResumeSetup = Pick<Setup, "conversation" | "channel" | "secrets"> & {
	config: { session: { dir: string } };
};

/** Opens the picker's screen over the one on top, with `picker` as its state. */
export function showPicker(store: UiStore, picker: PickerModel): void {
	store.picker = picker;
	store.openScreen("picker");
}

/** Closes the picker's screen (when it is on top). */
export function closePicker(store: UiStore): void {
	if (store.screen === "picker") store.closeScreen();
	store.picker = null;
	store.changed();
}

/** What the session's folder is now: there, or why it cannot be worked in. */
function folderProblem(cwd: string): string | null {
	try {
		if (statSync(cwd).isDirectory()) return null;
		return `its folder ${cwd} is not a directory now`;
	} catch {
		return `its folder ${cwd} is gone: it cannot be continued there`;
	}
}

/** What the person chose in `gar -r`'s picker: a session and the folder it was recorded in. */
export type Picked = { file: string; cwd: string };

/**
 * `gar -r`: the picker the app opened before its first frame, now listing (the configuration says where the sessions
 * are). Resolves with the chosen session's file and the folder it was recorded in (the app then works there, as
 * with `--cwd DIR --session ID`), or null when the person leaves the picker for a new session here. A chosen
 * session's picker stays on screen ("opening…") until `closePicker`: the chat then shows the session at once.
 */
export function pickAtStart(store: UiStore, flags: RunFlags, trash: string = trashDir()): Promise<Picked | null> {
	const { config } = loadConfig({ cwd: flags.cwd, env: process.env, flags });
	const picker = store.picker ?? new PickerModel("", () => store.changed());
	if (!store.picker) showPicker(store, picker);
	return new Promise((done) => {
		picker.attach(
			pickerSource({
				baseDir: config.session.dir,
				trashDir: trash,
				cwd: flags.cwd,
				current: () => null,
				back: () => {
					closePicker(store);
					done(null);
				},
				open: async (row) => {
					const problem = folderProblem(row.cwd);
					if (problem) return problem;
					done({ file: row.file, cwd: resolve(row.cwd) });
					return null;
				},
			}),
		);
	});
}

/**
 * `/resume [SEARCH]`: the picker over the running app. Enter switches the conversation to the chosen session at its
 * current leaf; a session recorded in another folder is not opened here (its history speaks of files there, its tools
 * would run here): the picker says how to open it there.
 */
export function resumeInApp(
	store: UiStore,
	setup: ResumeSetup,
	cwd: string,
	query: string,
	options: { trash?: string; onMoved?: () => void } = {},
): void {
	const { trash = trashDir(), onMoved } = options;
	const picker = new PickerModel(query, () => store.changed());
	showPicker(store, picker);
	picker.attach(
		pickerSource({
			baseDir: setup.config.session.dir,
			trashDir: trash,
			cwd,
			current: () => setup.conversation.session,
			back: () => closePicker(store),
			open: async (row) => switchTo(row, { store, setup, cwd, onMoved }),
		}),
	);
}

/** Switches the conversation to `row`'s session; null once done, else why not. */
async function switchTo(
	row: PickerRow,
	{ store, setup, cwd, onMoved }: { store: UiStore; setup: ResumeSetup; cwd: string; onMoved?: () => void },
): Promise<string | null> {
	const { conversation, channel } = setup;
	if (conversation.running) return "a run is going: leave the picker (Esc) and stop it first, or wait for it to end";
	if (resolve(row.cwd) !== resolve(cwd)) {
		return `it was recorded in ${row.cwd}, not here: quit, then run gar --cwd ${row.cwd} --session ${row.id}`;
	}
	if (conversation.session?.file === row.file) {
		closePicker(store);
		return null;
	}
	if (!existsSync(row.file)) return `its file is gone: ${row.file}`;
	let writer: SessionWriter;
	try {
		writer = SessionWriter.open(row.file, { secrets: setup.secrets });
	} catch (error) {
		if (error instanceof SessionError) return error.message;
		throw error;
	}
	// Loaded by now (the app is connected); kept out of this module so `gar -r` lists before it loads.
	const { pathView } = await import("./path-view.js");
	await conversation.switchSession(writer);
	store.view = pathView(conversation);
	store.toBottom();
	onMoved?.();
	closePicker(store);
	const { session } = writer;
	const name = session.name ? ` "${session.name}"` : "";
	const { model } = conversation.model;
	const other =
		row.model && row.model !== model ? `; it last used ${row.model}, the model stays ${model} (/model switches)` : "";
	channel.emit({ type: "notice", level: "info", message: `resumed session ${session.header.id}${name}${other}` });
	for (const warning of session.warnings) channel.emit({ type: "notice", level: "warning", message: warning });
	return null;
}
