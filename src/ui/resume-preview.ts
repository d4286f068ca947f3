import { resolve } from "node:path";
import { saveCodeCache } from "../code-cache.js";
import { readSessionTail, type Session } from "../session/index.js";
import { initialView } from "../view/state.js";
import { loadMarked } from "./chat/markdown.js";
import { replayedView } from "./path-view.js";
import { closePicker } from "./resume.js";
import type { UiStore } from "./state/store.js";
import { drawNow } from "./terminal/draw-now.js";

/** After the commit, where Ink draws throttled: long enough for its frame (maxFps 30: one per 34 ms) to be written. */
const FRAME_MS = 40;
/** The longest wait for the commit (the first render of a chat is ~30 ms; a loaded machine takes longer). */
const COMMIT_LIMIT_MS = 500;

/** The tail read first: a screen of a usual session (its entries are parsed before the screen is drawn). */
const FIRST_TAIL_BYTES = 64 << 10;
/** A path shorter than this in the first read (large tool results) reads the longer tail (session/tail.ts). */
const SCREEN_ENTRIES = 16;

const delay = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

export type PreviewDeps = {
	store: UiStore;
	/** The run's folder: a session recorded elsewhere gets no preview (the load refuses it). */
	cwd: string;
	/** The tail's session, for the status bar's facts until the setup exists (start.tsx). */
	show: (session: Session) => void;
	/** How long to leave the event loop to a throttled Ink after the frame's commit, before the load (tests: 0). */
	frameMs?: number;
};

/**
 * `gar --session`, `-c` and `gar -r` in the app (setupRun's beforeSessionLoad): the session's last screen, drawn from
 * the file's tail (session/tail.ts) before the whole file is read; resolves once that frame is on the terminal. The
 * inspector holds its figures until the full view replaces this one (`endPreview`): the tail's totals are not the
 * session's. Does nothing (false) when the tail is not trustworthy, or the session was recorded in another folder.
 */
export async function showPreview(
	file: string,
	{ store, cwd, show, frameMs = FRAME_MS }: PreviewDeps,
): Promise<boolean> {
	const first = readSessionTail(file, FIRST_TAIL_BYTES);
	const tail = first && first.pathTo(first.leafId).length >= SCREEN_ENTRIES ? first : readSessionTail(file);
	if (!tail || resolve(tail.header.cwd) !== resolve(cwd)) return false;
	// Replies are laid out as markdown, as the full view lays them out: nothing moves when it replaces this one. Code
	// blocks take their colours with it (lowlight loads after this frame).
	await loadMarked();
	const { provider, model } = store.view;
	const view = replayedView(tail, initialView({ provider, model }));
	// A model named on the command line is the run's; else the session's own, as the load will find it.
	if (model) Object.assign(view, { provider, model });
	store.view = view;
	store.previewing = true;
	show(tail);
	const committed = store.nextCommit();
	// Written at once, as a key's frame is, not when Ink's frame throttle next allows (~35 ms sooner).
	const atOnce = drawNow(() => {
		// gar -r: the picker ("opening…") gives way to the session now, not after the load.
		if (store.picker) closePicker(store);
		store.changed();
	});
	await Promise.race([committed, delay(COMMIT_LIMIT_MS)]);
	await delay(atOnce ? 1 : frameMs);
	// `gar --session`/`-c`'s code cache (src/boot.ts) holds what it took to draw this frame.
	saveCodeCache();
	return true;
}

/** The full view replaces the preview, shown from its bottom (a scroll made meanwhile counted the preview's items). */
export function endPreview(store: UiStore): void {
	if (!store.previewing) return;
	store.previewing = false;
	store.toBottom();
}
