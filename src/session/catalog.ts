import {
	closeSync,
	existsSync,
	openSync,
	readdirSync,
	readFileSync,
	readSync,
	renameSync,
	type Stats,
	statSync,
	unlinkSync,
	writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { SessionError } from "./format.js";
import { type SessionSummary, summarize } from "./summary.js";

/**
 * The index of one project's session folder: a summary per file with the size, modification time and inode it was
 * read at, and where its last whole line ends. Rebuilt from the files, never trusted over them: a file whose stat
 * differs is read again, from where the index stopped when it only grew (the bytes there still match), else whole.
 * A name or label appended far from the end is found so, however long the file. Kept beside the sessions; a folder
 * that cannot be written only costs the next listing the same work again.
 */
export const INDEX_FILE = ".index.json";
const INDEX_VERSION = 1;
/** Bytes compared at the start of a file and before where the index stopped, to tell growth from a new file. */
const CHECK_BYTES = 48;

type IndexRecord = {
	size: number;
	mtimeMs: number;
	ino: number;
	/** Where the last whole line read ends. */
	offset: number;
	/** The file's first bytes and those before `offset` (base64), as read. */
	check: string;
	summary?: SessionSummary;
	/** Why the file cannot be listed (not a session, a newer format, unreadable). */
	error?: { code: string; message: string };
};
type IndexData = { version: number; sessions: Record<string, IndexRecord> };

/** A session file of the folder, with what the index knows of it. */
export type ListedSession = { file: string; mtimeMs: number; summary: SessionSummary };
/** A file of the folder that cannot be listed, and why (a row says so; it is never skipped in silence). */
export type UnreadableSession = { file: string; mtimeMs: number; code: string; reason: string };
export type FolderListing = { sessions: ListedSession[]; unreadable: UnreadableSession[] };

function loadIndex(dir: string): Record<string, IndexRecord> {
	try {
		const data = JSON.parse(readFileSync(join(dir, INDEX_FILE), "utf8")) as IndexData;
		if (data?.version === INDEX_VERSION && typeof data.sessions === "object" && data.sessions !== null) {
			return data.sessions;
		}
	} catch {
		// Missing, damaged or being replaced: rebuilt from the files.
	}
	return {};
}

/** Written whole under a temporary name, then renamed: a reader sees the old index or the new one. */
function saveIndex(dir: string, sessions: Record<string, IndexRecord>): void {
	const target = join(dir, INDEX_FILE);
	const temporary = `${target}.${process.pid}.tmp`;
	try {
		writeFileSync(temporary, JSON.stringify({ version: INDEX_VERSION, sessions } satisfies IndexData), {
			mode: 0o600,
		});
		renameSync(temporary, target);
	} catch {
		// A folder that cannot be written (read-only, full): the next listing reads the files again.
		try {
			unlinkSync(temporary);
		} catch {
			// Never made.
		}
	}
}

function readAt(fd: number, position: number, length: number): Buffer {
	const buf = Buffer.alloc(Math.max(0, length));
	const n = length > 0 ? readSync(fd, buf, 0, length, position) : 0;
	return buf.subarray(0, n);
}

/** The check bytes of `file` for an index stopped at `offset`. */
function checkOf(file: string, offset: number): string {
	const fd = openSync(file, "r");
	try {
		const head = readAt(fd, 0, Math.min(CHECK_BYTES, offset));
		const before = readAt(fd, Math.max(0, offset - CHECK_BYTES), Math.min(CHECK_BYTES, offset));
		return `${head.toString("base64")}:${before.toString("base64")}`;
	} finally {
		closeSync(fd);
	}
}

/** Told of each file a listing reads, and from which byte (tests see that only what changed is read). */
export type ReadObserver = (file: string, from: number) => void;

/** Reads `file` anew, or on from `previous` when the file only grew since (same inode, same bytes where it stopped). */
function indexFile(file: string, stat: Stats, previous: IndexRecord | undefined, observe?: ReadObserver): IndexRecord {
	const base = { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino };
	try {
		// Only a file that grew is read on from where the index stopped; one changed otherwise is read whole.
		const grew =
			previous?.summary !== undefined &&
			previous.ino === stat.ino &&
			stat.size > previous.size &&
			previous.offset > 0 &&
			stat.size >= previous.offset &&
			checkOf(file, previous.offset) === previous.check;
		const resume = grew && previous?.summary ? { summary: previous.summary, offset: previous.offset } : undefined;
		observe?.(file, resume?.offset ?? 0);
		const { summary, offset } = summarize(file, resume);
		return { ...base, offset, check: checkOf(file, offset), summary };
	} catch (error) {
		const code = error instanceof SessionError ? error.code : ((error as NodeJS.ErrnoException).code ?? "io");
		const message = error instanceof Error ? error.message : String(error);
		return { ...base, offset: 0, check: "", error: { code, message } };
	}
}

/** The `.jsonl` files of a folder (none when it does not exist). */
export function sessionFiles(dir: string): string[] {
	if (!existsSync(dir)) return [];
	return readdirSync(dir, { withFileTypes: true })
		.filter((d) => d.isFile() && d.name.endsWith(".jsonl"))
		.map((d) => d.name);
}

/**
 * Every session file of one project folder, through its index: only files whose size, modification time or inode
 * changed are read (and of a file that grew, only what was appended). Unlisted files come with the reason. The index
 * is saved when something changed. Never writes a session file.
 */
export function listFolder(dir: string, observe?: ReadObserver): FolderListing {
	const names = sessionFiles(dir);
	const index = loadIndex(dir);
	const next: Record<string, IndexRecord> = {};
	let changed = Object.keys(index).length !== names.length;
	const listing: FolderListing = { sessions: [], unreadable: [] };
	for (const name of names) {
		const file = join(dir, name);
		let stat: Stats;
		try {
			stat = statSync(file);
		} catch {
			changed = true;
			continue; // removed meanwhile
		}
		const known = Object.hasOwn(index, name) ? index[name] : undefined;
		const same = known && known.size === stat.size && known.mtimeMs === stat.mtimeMs && known.ino === stat.ino;
		const entry = same ? known : indexFile(file, stat, known, observe);
		if (!same) changed = true;
		next[name] = entry;
		if (entry.summary) listing.sessions.push({ file, mtimeMs: stat.mtimeMs, summary: entry.summary });
		else {
			const { code, message } = entry.error ?? { code: "io", message: `${file} could not be read` };
			listing.unreadable.push({ file, mtimeMs: stat.mtimeMs, code, reason: message });
		}
	}
	if (changed) saveIndex(dir, next);
	return listing;
}
