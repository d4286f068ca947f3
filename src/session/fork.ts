import { resolve } from "node:path";
import { SessionError } from "./format.js";
import { loadSession } from "./load.js";
import { resolveEntry } from "./resolve-entry.js";
import { type Clock, SessionWriter } from "./writer.js";

/** `dir` is the sessions base folder; `cwd` defaults to the source session's. */
export type ForkOptions = { dir: string; cwd?: string; now?: Clock };

/**
 * Copies the path from the root to `atEntry` (an id or id prefix; default: the current leaf) into a new session
 * whose header names its parent (`{session, entry, path}`). Entries keep their ids and times; labels on copied
 * entries are re-emitted after them. The source file is only read. Returns the new file's path.
 */
export function forkSession(file: string, atEntry: string | undefined, options: ForkOptions): string {
	const source = loadSession(file);
	const at = atEntry === undefined ? source.leafId : resolveEntry(source, atEntry);
	if (at === null) throw new SessionError(`nothing to fork: ${file} has no conversation yet`, "invalid");
	const path = source.pathTo(at);
	const writer = SessionWriter.create({
		dir: options.dir,
		cwd: options.cwd ?? source.header.cwd,
		parent: { session: source.header.id, entry: at, path: resolve(file) },
		...(options.now ? { now: options.now } : {}),
	});
	try {
		for (const entry of path) writer.append({ ...entry });
		// The copy's leaf is its last conversation entry; a fork at an unknown entry says so explicitly.
		if (writer.leafId !== at) writer.moveTo(at);
		for (const entry of path) {
			const label = source.labels.get(entry.id);
			if (label !== undefined) writer.label(entry.id, label);
		}
	} finally {
		writer.close();
	}
	return writer.file;
}
