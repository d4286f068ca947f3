import { readFileSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import type { ToolOutcome } from "../agent/events.js";
import type { ToolDetails } from "../tools/details.js";
import { toolDetailsOf } from "../tools/details-of.js";
import { changeDiff, type FileChange, previousBytes } from "../tools/file-change.js";
import type { SessionEntry } from "./format.js";

/**
 * One change of a file in a session, in the order it happened: by a `write` or an `edit` (its exact undo record
 * goes with it), or by a `bash` command (what the stat scan around it saw: no counts, no undo record; a file one of
 * them touched shows its recorded diffs, not one from before).
 */
export type FileChangeRecord = {
	path: string;
	by: "write" | "edit" | "bash";
	callId: string;
	added: number;
	removed: number;
	/** The write's or edit's undo record: what the file was before it can be computed back from what it is now. */
	change?: FileChange;
	/** The diff of this one change (a write's or edit's own). */
	diff?: string;
	/** A bash record's: whether the command created, changed or deleted the file. */
	how?: "created" | "changed" | "deleted";
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

const KIND_NAMES = { write: "write", edit: "edit", bash: "bash command" } as const;

/** "+42 −7 · 2 edits, 1 write, 1 bash command": a file's counts and what changed it. */
export function changeSummary(file: ChangedFile): string {
	const counts = new Map<FileChangeRecord["by"], number>();
	for (const change of file.changes) counts.set(change.by, (counts.get(change.by) ?? 0) + 1);
	const by = [...counts].map(([kind, n]) => `${n} ${KIND_NAMES[kind]}${n === 1 ? "" : "s"}`).join(", ");
	return `+${file.added} −${file.removed} · ${by}`;
}

/**
 * The changes the calls made to files, in order: every write and edit that ran (`done`), and the files each bash
 * command changed (whatever its exit: a failing command may have changed files too).
 */
export function changesOf(calls: Iterable<EndedCall>): FileChangeRecord[] {
	const out: FileChangeRecord[] = [];
	for (const call of calls) {
		const outcome = call.outcome ?? (call.isError ? "error" : "done");
		const details: ToolDetails | null = toolDetailsOf(call.name, call.details ?? null);
		if (details?.kind === "bash" && details.files && details.cwd !== "") {
			for (const { path, how } of details.files.paths) {
				out.push({ path: resolve(details.cwd, path), by: "bash", callId: call.callId, added: 0, removed: 0, how });
			}
			continue;
		}
		if (outcome !== "done" || (details?.kind !== "write" && details?.kind !== "edit")) continue;
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
		if (!record.change) return recorded(file, `${name} was ${record.how ?? "changed"} by a bash command too`);
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
	const own = file.changes.filter((record) => record.change).length;
	const what =
		own === 0
			? "gar has no diff of it"
			: own === 1
				? "this is gar's change as recorded"
				: `these are gar's ${own} changes as recorded`;
	return { diff, note: `${why}: ${what}` };
}

/** A path as the person reads it: relative to `cwd` when inside it. */
export function shownPath(path: string, cwd: string): string {
	const rel = relative(cwd, path);
	return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
}
