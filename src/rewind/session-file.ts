import { resolve } from "node:path";
import { UsageError } from "../errors.js";
import { loadSession, resolveEntry, type Session, SessionWriter } from "../session/index.js";
import type { RewindMode } from "./records.js";
import { prepareRewind, type RewindReport, reportOf, rewind, withRewindLock } from "./rewind.js";

/** Refuses a session recorded in another folder, as --session does: its paths are that folder's. */
export function checkSessionCwd(session: Session, cwd: string): void {
	const recorded = session.header.cwd;
	if (resolve(recorded) === resolve(cwd)) return;
	const id = session.header.id;
	throw new UsageError(
		`session ${id} was recorded in ${recorded}, not in ${cwd}: rewind it there (gar rewind --cwd ${recorded} ${id} …)`,
	);
}

/**
 * The entry `text` names: an id or a unique prefix of one, or either followed by `^` for its parent (`PROMPT^`: the
 * point before that prompt; the first prompt's parent is the start, null). Throws SessionError when none matches.
 */
export function resolveTarget(session: Session, text: string): string | null {
	const parent = text.trimEnd().endsWith("^");
	const id = resolveEntry(session, parent ? text.trimEnd().slice(0, -1) : text);
	return parent ? (session.node(id)?.parentId ?? null) : id;
}

/**
 * Rewinds the session's file at `file` to `entry` (an id or prefix), holding its lock: the leaf and/or the files,
 * per `mode`. Dry, it reads only (no lock, nothing written). Throws UsageError/SessionError for bad input and
 * RewindBusyError when another gar holds the lock.
 */
export function rewindFile(file: string, entry: string, mode: RewindMode, cwd: string, dryRun: boolean): RewindReport {
	if (dryRun) {
		const session = loadSession(file);
		checkSessionCwd(session, cwd);
		const prepared = prepareRewind(session, { mode, to: resolveTarget(session, entry) });
		return reportOf(prepared, prepared.files, true);
	}
	return withRewindLock(file, () => {
		const writer = SessionWriter.open(file);
		try {
			checkSessionCwd(writer.session, cwd);
			return rewind(writer, { mode, to: resolveTarget(writer.session, entry) });
		} finally {
			writer.close();
		}
	});
}
