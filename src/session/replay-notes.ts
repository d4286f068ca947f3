import { plural } from "../text/plural.js";
import { isConversation } from "./format.js";
import type { Session } from "./session.js";

/** What a replay of a damaged file says: where its path starts when the start was lost, and where it stopped. */
export type ReplayNotes = { start?: string; end?: string };

/**
 * Where the replay of the path to `leafId` begins and ends when the file is damaged: a path whose first entry lost its
 * parent (a damaged or missing line) does not show what came before it (and names the entry that ends the path
 * before the break, for `--at`); a file with lines that could not be read ends the replay of its current path at the
 * last entry that could. Empty for a whole file. O(entries).
 */
export function replayNotes(session: Session, leafId: string | null): ReplayNotes {
	const notes: ReplayNotes = {};
	const path = session.pathTo(leafId);
	const first = path[0];
	const lost = first ? session.orphans.get(first.id) : undefined;
	if (first && lost !== undefined) {
		const before = nodeBefore(session, first.id);
		const how = before ? `; gar replay ${session.file} --at ${before} plays the path before it` : "";
		notes.start = `this path starts at entry ${first.id}: its parent ${lost} is not in the file (a damaged or missing line), so what came before it is not replayed${how}`;
	}
	const skipped = session.skippedLines;
	const last = path.at(-1);
	// A path chosen with --at stops where it was asked to.
	if (skipped.length > 0 && last && leafId === session.leafId) {
		const lines = `${plural(skipped.length, "line")} (${skipped.slice(0, 10).join(", ")}${skipped.length > 10 ? ", …" : ""})`;
		notes.end = `the replay stopped at entry ${last.id} (${last.ts}), the last of this path that could be read: ${lines} of ${session.file} could not be read`;
	}
	return notes;
}

/** The conversation entry just before `id` in file order (where the path before a break ends). */
function nodeBefore(session: Session, id: string): string | undefined {
	let before: string | undefined;
	for (const entry of session.entries) {
		if (entry.id === id) return before;
		if (isConversation(entry)) before = entry.id;
	}
	return before;
}
