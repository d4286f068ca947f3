import type { Session, SessionWriter } from "../session/index.js";
import { filePoint, lastRewind } from "./records.js";
import { prepareRewind, type RewindOptions, type RewindReport, type RewindTarget, reportOf, rewind } from "./rewind.js";
import { recordsOf, routeOf } from "./route.js";

/**
 * What rewinding to `target` would do now, against the disk, writing nothing (the app's preview): the files with
 * their action and +/− line counts (`restored`), the conflicts (`skipped`, each with its reason), `notRestorable`,
 * and `bashChanged`. `ok` false: something would be skipped. Throws SessionError for an entry not in the tree.
 */
export function previewRewind(session: Session, target: RewindTarget): RewindReport {
	const prepared = prepareRewind(session, target);
	return reportOf(prepared, prepared.files, true);
}

/**
 * Rewinds for real: the same as the preview, now done (each file checked again right before it is written). The
 * caller owns the session's writer; pass `moveLeaf` to move the leaf its own way (the app: the conversation rebuilds
 * its context), else a leaf record is appended. Two "rewind" records are written to the session (started, done), so
 * `redoTarget` can take it back after a restart. Never call it while a run is going.
 */
export function applyRewind(writer: SessionWriter, target: RewindTarget, options: RewindOptions = {}): RewindReport {
	return rewind(writer, target, options);
}

/**
 * The target that takes the last rewind back (/redo): the leaf and the files go back where that rewind found them.
 * `{ none }` with the reason in words when there is nothing to redo (no rewind yet, or the last one was a redo).
 */
export function redoTarget(session: Session): RewindTarget | { none: string } {
	const last = lastRewind(session);
	if ("none" in last) return last;
	const { record } = last;
	return {
		mode: record.mode,
		to: record.from,
		...(record.filesFrom === undefined ? {} : { filesTo: record.filesFrom }),
		undoes: record.id,
	};
}

/** redoTarget, then applyRewind; `{ none }` when there is nothing to redo. */
export function redoRewind(writer: SessionWriter, options: RewindOptions = {}): RewindReport | { none: string } {
	const target = redoTarget(writer.session);
	if ("none" in target) return target;
	return rewind(writer, target, options);
}

/**
 * The files moving the files to `to` would cross, without reading the disk (cheap: O(the two paths)): how many
 * distinct files writes and edits changed on the way, and how many bash changed. Both 0: a move of the leaf there
 * needs no question about the files (the tree view's "make this the leaf"). Throws SessionError for an unknown entry.
 */
export function filesOnTheWay(session: Session, to: string | null): { edited: number; bashChanged: number } {
	const route = routeOf(session, filePoint(session), to);
	return {
		edited: new Set(route.steps.map((s) => s.path)).size,
		bashChanged: new Set(route.bash.map((b) => b.path)).size,
	};
}

/**
 * A user prompt on the current path, with what a rewind to just before it would cross: the files that writes and
 * edits changed after it (`edited`) and those bash changed after it (`bashChanged`), each file counted once.
 * `parentId`: where the leaf goes to rewind to before this prompt (null: the start).
 */
export type PromptRow = {
	id: string;
	parentId: string | null;
	text: string;
	ts: string;
	edited: number;
	bashChanged: number;
};

/** Prompts a person typed (not the shell's `!cmd` context, a hook's or a schema retry's). */
const TYPED = new Set([undefined, "prompt", "steer", "follow_up"]);

/** The user prompts on the path to the current leaf, newest first, each with the files changed after it. O(path). */
export function promptsOnPath(session: Session): PromptRow[] {
	const path = session.pathTo(session.leafId);
	const edited = new Set<string>();
	const bash = new Set<string>();
	const rows: PromptRow[] = [];
	for (let i = path.length - 1; i >= 0; i--) {
		const node = path[i];
		if (!node) continue;
		for (const record of recordsOf(node)) (record.by === "bash" ? bash : edited).add(record.path);
		if (node.type !== "user" || !TYPED.has(node.source)) continue;
		rows.push({
			id: node.id,
			parentId: node.parentId,
			text: node.content,
			ts: node.ts,
			edited: edited.size,
			bashChanged: bash.size,
		});
	}
	return rows;
}

export type { RewindMode } from "./records.js";
export {
	type RestoredFile,
	RewindBusyError,
	type RewindOptions,
	type RewindReport,
	type RewindTarget,
	type SkippedFile,
	withRewindLock,
} from "./rewind.js";
