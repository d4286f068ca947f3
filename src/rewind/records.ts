import { isNode, type RewindEntry, type Session } from "../session/index.js";

/** What a rewind moves: the conversation and the files, the conversation only, or the files only. */
export type RewindMode = "both" | "files" | "conversation";

export const movesFiles = (mode: RewindMode) => mode !== "conversation";
export const movesLeaf = (mode: RewindMode) => mode !== "files";

/**
 * Where the files are in the tree: the node whose path's changes the disk holds (as far as gar knows; every step is
 * checked against the disk anyway). They follow the conversation as it grows (each new node), and a rewind that moved
 * them takes them to its `filesTo`; a move of the leaf alone leaves them where they were. O(entries).
 */
export function filePoint(session: Session): string | null {
	return lastFileMove(session).point;
}

/** The file point, and the rewind that set it when the last thing that moved the files was a rewind. */
function lastFileMove(session: Session): { point: string | null; by?: RewindEntry } {
	let last: { point: string | null; by?: RewindEntry } = { point: null };
	for (const entry of session.entries) {
		if (isNode(entry)) last = { point: entry.id };
		else if (entry.type === "rewind" && entry.status === "done" && entry.filesTo !== undefined) {
			last = { point: entry.filesTo, by: entry };
		}
	}
	return last;
}

/**
 * Where a rewind of the files to `to` starts from: the file point; but when the last rewind already went to `to` and
 * skipped files (a conflict since resolved, a disk that was full), where that one started, so the same rewind run
 * again tries the skipped steps once more (the files it did are found already so).
 */
export function fileOrigin(session: Session, to: string | null): string | null {
	const { point, by } = lastFileMove(session);
	const partial = (by?.skipped?.length ?? 0) + (by?.notRestorable?.length ?? 0) > 0;
	return by && partial && point === to && by.filesFrom !== undefined ? by.filesFrom : point;
}

/**
 * The mode a file had when a rewind removed it with these bytes (`hash`), so making it again gives it back; undefined
 * when no rewind removed it (it is made with the default mode).
 */
export function removedMode(session: Session, path: string, hash: string): number | undefined {
	for (let i = session.rewinds.length - 1; i >= 0; i--) {
		const record = session.rewinds[i] as RewindEntry;
		const started = record.removing?.find((r) => r.path === path && r.hash === hash);
		if (started) return started.fileMode;
		const done = record.restored?.find((r) => r.path === path && r.action === "removed" && r.hash === hash);
		if (done?.fileMode !== undefined) return done.fileMode;
	}
	return undefined;
}

/** What /redo takes back: the last rewind, unless it was itself a redo (then why not). */
export function lastRewind(session: Session): { record: RewindEntry } | { none: string } {
	const done = session.rewinds.filter((r) => r.status === "done");
	const last = done.at(-1);
	if (!last) return { none: "nothing to redo: no rewind in this session yet" };
	if (last.undoes !== undefined)
		return { none: "nothing to redo: the last rewind was a redo (/rewind goes back again)" };
	return { record: last };
}

/** Rewinds that started and never finished (gar was killed): running the same rewind again finishes them. */
export function interrupted(session: Session): RewindEntry[] {
	const out: RewindEntry[] = [];
	for (const record of session.rewinds) {
		if (record.status === "started") out.push(record);
		else if (record.status === "done") out.length = 0;
	}
	return out;
}
