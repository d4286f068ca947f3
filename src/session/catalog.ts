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
 * A name or label appended far from the end is found so, however long the file. Kept beside the sessions, in two
 * files: the summaries (`.index.json`, all a listing reads) and the prompts' text a filter searches (`.search.json`,
 * read only by a search, or when something changed). A folder that cannot be written only costs the next listing the
 * same work again.
 */
export const INDEX_FILE = ".index.json";
export const SEARCH_FILE = ".search.json";
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
	/** Without its prompts (they are in the search file). */
	summary?: SessionSummary;
	/** Why the file cannot be listed (not a session, a newer format, unreadable). */
	error?: { code: string; message: string };
};
type IndexData = { version: number; sessions: Record<string, IndexRecord> };
type SearchData = { version: number; prompts: Record<string, string[]> };

/**
 * A session file of the folder, with what the index knows of it. `summary.prompts` is empty: the prompts' text is
 * read by `folderPrompts`, when a search needs it.
 */
export type ListedSession = { file: string; mtimeMs: number; summary: SessionSummary };
/** A file of the folder that cannot be listed, and why (a row says so; it is never skipped in silence). */
export type UnreadableSession = { file: string; mtimeMs: number; code: string; reason: string };
export type FolderListing = { sessions: ListedSession[]; unreadable: UnreadableSession[] };

/** A JSON file of the folder with the right version, or undefined (missing, damaged or being replaced: rebuilt). */
function loadData<T extends { version: number }>(file: string): T | undefined {
	try {
		const data = JSON.parse(readFileSync(file, "utf8")) as T;
		return data?.version === INDEX_VERSION ? data : undefined;
	} catch {
		return undefined;
	}
}

/** Written whole under a temporary name, then renamed: a reader sees the old file or the new one. */
function saveData(file: string, data: object): void {
	const temporary = `${file}.${process.pid}.tmp`;
	try {
		writeFileSync(temporary, JSON.stringify(data), { mode: 0o600 });
		renameSync(temporary, file);
	} catch {
		// A folder that cannot be written (read-only, full): the next listing reads the files again.
		try {
			unlinkSync(temporary);
		} catch {
			// Never made.
		}
	}
}

/** The prompts' text of each session file of `dir` (by path), as the last listing stored it. */
export function folderPrompts(dir: string): Map<string, string[]> {
	const prompts = loadData<SearchData>(join(dir, SEARCH_FILE))?.prompts ?? {};
	return new Map(Object.entries(prompts).map(([name, texts]) => [join(dir, name), texts]));
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
	const index = loadData<IndexData>(join(dir, INDEX_FILE))?.sessions ?? {};
	let stored: Record<string, string[]> | undefined;
	const promptsOf = (name: string) => {
		stored ??= loadData<SearchData>(join(dir, SEARCH_FILE))?.prompts ?? {};
		return Object.hasOwn(stored, name) ? (stored[name] ?? []) : [];
	};
	const next: Record<string, IndexRecord> = {};
	const scanned = new Map<string, string[]>();
	let changed = Object.keys(index).length !== names.length;
	const listing: FolderListing = { sessions: [], unreadable: [] };
	const prefix = join(dir, "/");
	for (const name of names) {
		// Not join(): normalizing a thousand paths is a fifth of a listing's time.
		const file = `${prefix}${name}`;
		let stat: Stats;
		try {
			stat = statSync(file);
		} catch {
			changed = true;
			continue; // removed meanwhile
		}
		let entry = Object.hasOwn(index, name) ? index[name] : undefined;
		if (!entry || entry.size !== stat.size || entry.mtimeMs !== stat.mtimeMs || entry.ino !== stat.ino) {
			const known = entry?.summary ? { ...entry, summary: { ...entry.summary, prompts: promptsOf(name) } } : entry;
			entry = indexFile(file, stat, known, observe);
			if (entry.summary) {
				scanned.set(name, entry.summary.prompts);
				entry.summary = { ...entry.summary, prompts: [] };
			}
			changed = true;
		}
		next[name] = entry;
		if (entry.summary) listing.sessions.push({ file, mtimeMs: stat.mtimeMs, summary: entry.summary });
		else {
			const { code, message } = entry.error ?? { code: "io", message: `${file} could not be read` };
			listing.unreadable.push({ file, mtimeMs: stat.mtimeMs, code, reason: message });
		}
	}
	if (changed) {
		const prompts = Object.fromEntries(
			Object.keys(next)
				.filter((name) => next[name]?.summary)
				.map((name) => [name, scanned.get(name) ?? promptsOf(name)] as const),
		);
		// The prompts first: an index never names a file whose prompts were not saved with it.
		saveData(join(dir, SEARCH_FILE), { version: INDEX_VERSION, prompts } satisfies SearchData);
		saveData(join(dir, INDEX_FILE), { version: INDEX_VERSION, sessions: next } satisfies IndexData);
	}
	return listing;
}
