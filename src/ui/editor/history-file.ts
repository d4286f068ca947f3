import { chmodSync, closeSync, constants, fchmodSync, readSync, statSync, writeSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { sha256Hex } from "../../text/digest.js";
import { tildePath } from "../../text/paths.js";
import { NotRegularFileError, openRegularFile } from "../../text/regular-file.js";
import { writeFileAtomic } from "../../tools/atomic-write.js";
import { makeDirs } from "../../tools/make-dirs.js";
import { type HistoryStore, KEEP, PromptHistory } from "./history.js";

/** Only the end of a long file is read. */
const READ_LIMIT = 2 * 1024 * 1024;
/** Everything typed and pasted (secrets too, sometimes) is the user's alone. */
const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

/**
 * The history file of a project: one per working directory, under the data dir (`…/gar/history/`). This module is
 * loaded after the app's first frame (the fs helpers).
 */
export function historyFile(dataDir: string, cwd: string): string {
	const key = sha256Hex(resolve(cwd)).slice(0, 16);
	return join(dataDir, "history", `${key}.jsonl`);
}

/** The history folder, made 0700 (and tightened when an older gar made it readable by others). */
function makeFolder(dir: string): void {
	makeDirs(dir, DIR_MODE);
	if (statSync(dir).mode & 0o077) chmodSync(dir, DIR_MODE);
}

/** The last entries of the open file, tightened to 0600 if it was readable by others. */
function readTail(fd: number, size: number, mode: number): { entries: string[]; lines: number } {
	if (mode & 0o077) fchmodSync(fd, FILE_MODE);
	const length = Math.min(size, READ_LIMIT);
	const buffer = Buffer.alloc(length);
	for (let at = 0; at < length; ) {
		const n = readSync(fd, buffer, at, length - at, size - length + at);
		if (n === 0) break;
		at += n;
	}
	const all = buffer.toString("utf8").split("\n");
	if (length < size) all.shift(); // a partial first line
	const entries: string[] = [];
	let lines = 0;
	for (const line of all) {
		if (!line) continue;
		lines++;
		try {
			const value: unknown = JSON.parse(line);
			if (typeof value === "string") entries.push(value);
		} catch {
			// A torn line (a crash mid-write) is skipped.
		}
	}
	return { entries, lines };
}

/** Appends and rewrites never block on a FIFO put where the file was, and never throw. */
function fileStore(file: string): HistoryStore {
	return {
		append(text) {
			try {
				makeFolder(dirname(file));
				const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT;
				const { fd } = openRegularFile(file, flags, FILE_MODE);
				try {
					writeSync(fd, `${JSON.stringify(text)}\n`);
				} finally {
					closeSync(fd);
				}
			} catch {
				// Not saved; the entry stays for this session.
			}
		},
		rewrite(entries) {
			try {
				const text = entries.map((e) => `${JSON.stringify(e)}\n`).join("");
				writeFileAtomic(file, Buffer.from(text, "utf8"), undefined, FILE_MODE);
			} catch {
				// Left as it was.
			}
		},
	};
}

/**
 * The project's prompt history from `file` (its last 1,000 entries; a missing or broken file is an empty history).
 * The file is 0600 in a 0700 folder, appended one line per message, and rewritten atomically when it has grown to
 * twice what is kept. A FIFO, socket, device or folder where the file should be is refused at once: nothing is read
 * or saved, and `problem` says why. Never throws.
 */
export function openHistory(file: string): PromptHistory {
	const store = fileStore(file);
	let found = { entries: [] as string[], lines: 0 };
	try {
		makeFolder(dirname(file));
		const { fd, stats } = openRegularFile(file);
		try {
			found = readTail(fd, stats.size, stats.mode);
		} finally {
			closeSync(fd);
		}
	} catch (error) {
		if (error instanceof NotRegularFileError) {
			const problem = `the prompt history ${tildePath(file, homedir())} is ${error.what}; what you send is not kept this session`;
			return new PromptHistory([], null, problem);
		}
		// Missing (the first message creates it) or unreadable: an empty history.
	}
	const history = new PromptHistory(found.entries.slice(-KEEP), store);
	if (found.lines > 2 * KEEP) store.rewrite(history.entries);
	return history;
}
