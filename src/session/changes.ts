import { readFileSync } from "node:fs";
import { isAbsolute, relative } from "node:path";
import type { ToolOutcome } from "../agent/events.js";
import type { ToolDetails } from "../tools/details.js";
import { toolDetailsOf } from "../tools/details-of.js";
import { changeDiff, type FileChange, previousBytes } from "../tools/file-change.js";
import type { SessionEntry } from "./format.js";

/**
 * One change of a file in a session, in the order it happened: by a `write` or an `edit` (its exact undo record
 * goes with it), or by a `bash` command. Bash changes come from the records "Rewind" will write (a later issue): they
 * carry counts and no undo record, and a file one of them touched shows its recorded diffs, not one from before.
 */
export type FileChangeRecord = {
	path: string;
	by: "write" | "edit" | "bash";
	callId: string;
	added: number;
	removed: number;
	/** The write's or edit's undo record: what the file was before it can be computed back from what it is now. */
	change?: FileChange;
	/** The diff of this one change (a write's or edit's own; a bash record's when Rewind gives one). */
	diff?: string;
};

/** A file the session changed: its changes in order, and their added and removed lines summed. */
export type ChangedFile = { path: string; added: number; removed: number; changes: FileChangeRecord[] };

/** A tool call's end, from a live run's event or a session's tool_result entry. */
export type EndedCall = { callId: string; name: string; outcome?: ToolOutcome; isError: boolean; details: unknown };

/** Every tool call of a session that ended, in file order (all branches: each one ran on the same disk). */
export function endedCalls(entries: readonly SessionEntry[]): EndedCall[] {
	return entries.flatMap((entry) =>
		entry.type === "tool_result"
			? [
					{
						callId: entry.callId,
						name: entry.name,
						isError: entry.isError,
						details: entry.details,
						...(entry.outcome === undefined ? {} : { outcome: entry.outcome }),
					},
				]
			: [],
	);
}

/** "+42 −7 · 2 edits, 1 write": a file's counts and what changed it. */
export function changeSummary(file: ChangedFile): string {
	const counts = new Map<string, number>();
	for (const change of file.changes) counts.set(change.by, (counts.get(change.by) ?? 0) + 1);
	const by = [...counts].map(([kind, n]) => `${n} ${kind}${n === 1 ? "" : "s"}`).join(", ");
	return `+${file.added} −${file.removed} · ${by}`;
}

/** The changes the calls made to files: every write and edit that ran (`done`), in order. */
export function changesOf(calls: Iterable<EndedCall>): FileChangeRecord[] {
	const out: FileChangeRecord[] = [];
	for (const call of calls) {
		const outcome = call.outcome ?? (call.isError ? "error" : "done");
		if (outcome !== "done") continue;
		const details: ToolDetails | null = toolDetailsOf(call.name, call.details ?? null);
		if (details?.kind !== "write" && details?.kind !== "edit") continue;
		const { path, added, removed, diff } = details;
		const change: FileChange = { ...details };
		out.push({ path, by: details.kind, callId: call.callId, added, removed, change, diff });
	}
	return out;
}

/** The records by file, in the order each file was first changed; counts are the sums of its changes'. */
export function changedFiles(records: readonly FileChangeRecord[]): ChangedFile[] {
	const files = new Map<string, ChangedFile>();
	for (const record of records) {
		const file = files.get(record.path) ?? { path: record.path, added: 0, removed: 0, changes: [] };
		file.added += record.added;
		file.removed += record.removed;
		file.changes.push(record);
		files.set(record.path, file);
	}
	return [...files.values()];
}

/** Totals of a session's changes: files, and lines added and removed. */
export function changeTotals(files: readonly ChangedFile[]): { files: number; added: number; removed: number } {
	return files.reduce((t, f) => ({ files: t.files + 1, added: t.added + f.added, removed: t.removed + f.removed }), {
		files: 0,
		added: 0,
		removed: 0,
	});
}

/** The file's bytes now; null when it is gone. */
export function readNow(path: string): Buffer | null {
	try {
		return readFileSync(path);
	} catch {
		return null;
	}
}

/**
 * The file's diff from before the session to now: its bytes now, undone change by change back to before the
 * first (each undo checks the bytes are the ones that change left). When something else changed the file between
 * or after (a command, a person), or a bash command did, that cannot be known: then each recorded change's own
 * diff, with a note saying why. `name`: the path as the diff shows it.
 */
export function fileDiff(
	file: ChangedFile,
	name: string,
	read: (path: string) => Buffer | null = readNow,
): { diff: string; note?: string } {
	const now = read(file.path);
	let bytes: Buffer | null = now;
	for (const record of [...file.changes].reverse()) {
		if (!record.change) return recorded(file, `${name} was changed by a command too`);
		if (bytes === null) return recorded(file, `${name} is gone: it was removed after gar's last change`);
		try {
			bytes = previousBytes(record.change, bytes);
		} catch {
			const when = record === file.changes.at(-1) ? "after gar's last change" : "between gar's changes";
			return recorded(file, `${name} was changed ${when} (by a command or by hand)`);
		}
	}
	return { diff: changeDiff(name, bytes, now ?? Buffer.alloc(0)).diff };
}

function recorded(file: ChangedFile, why: string): { diff: string; note: string } {
	const diff = file.changes.map((record) => record.diff ?? "").join("");
	const what = file.changes.length === 1 ? "this is gar's change" : `these are gar's ${file.changes.length} changes`;
	return { diff, note: `${why}: ${what} as recorded` };
}

/** A path as the person reads it: relative to `cwd` when inside it. */
export function shownPath(path: string, cwd: string): string {
	const rel = relative(cwd, path);
	return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
}
