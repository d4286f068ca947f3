import {
	constants,
	copyFileSync,
	existsSync,
	readdirSync,
	readFileSync,
	renameSync,
	unlinkSync,
	writeFileSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { makeDirs } from "../tools/make-dirs.js";
import { SessionError } from "./format.js";
import { idFromFileName } from "./paths.js";

/**
 * The trash: a session deleted from the picker is moved here whole, beside a note of where it came from, and
 * `gar sessions restore ID` moves it back. gar never empties it and never deletes a session by age: emptying it is
 * the person's (rm).
 */
export type TrashedSession = {
	id: string;
	/** The file in the trash. */
	file: string;
	/** Where it was, and goes back to. */
	from: string;
	/** When it was moved to the trash (ISO). */
	deletedAt: string;
};

const ORIGIN = ".origin.json";

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Moves a file, copying then removing it when the two folders are on different file systems. */
function move(from: string, to: string): void {
	try {
		renameSync(from, to);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
		copyFileSync(from, to, constants.COPYFILE_EXCL);
		unlinkSync(from);
	}
}

/**
 * Moves a session file to `trashDir` (made when missing, 0700), its origin noted beside it. Throws SessionError
 * ("io") naming the folder and the cause when the trash cannot be written: then nothing was moved or deleted.
 */
export function moveToTrash(file: string, trashDir: string, now: Date = new Date()): TrashedSession {
	const id = idFromFileName(file) ?? basename(file, ".jsonl");
	const deletedAt = now.toISOString();
	// The moment first: the same session may be deleted again after a restore.
	const target = join(trashDir, `${deletedAt.replace(/[:.]/g, "-")}~${basename(file)}`);
	const note = `${target}${ORIGIN}`;
	try {
		makeDirs(trashDir, 0o700);
		writeFileSync(note, JSON.stringify({ id, from: file, deletedAt }), { flag: "wx", mode: 0o600 });
	} catch (error) {
		throw new SessionError(
			`cannot move the session to the trash: ${trashDir} cannot be written (${reasonOf(error)}); nothing was deleted`,
			"io",
		);
	}
	try {
		move(file, target);
	} catch (error) {
		unlinkSync(note);
		throw new SessionError(`cannot move ${file} to the trash: ${reasonOf(error)}; nothing was deleted`, "io");
	}
	return { id, file: target, from: file, deletedAt };
}

/** The sessions in the trash, the latest deleted first. */
export function listTrash(trashDir: string): TrashedSession[] {
	if (!existsSync(trashDir)) return [];
	const found: TrashedSession[] = [];
	for (const name of readdirSync(trashDir)) {
		if (!name.endsWith(".jsonl")) continue;
		const file = join(trashDir, name);
		try {
			const note = JSON.parse(readFileSync(`${file}${ORIGIN}`, "utf8")) as Partial<TrashedSession>;
			if (typeof note.from !== "string" || typeof note.deletedAt !== "string") continue;
			found.push({ id: note.id ?? idFromFileName(file) ?? name, file, from: note.from, deletedAt: note.deletedAt });
		} catch {
			// A file put here by hand, without a note of where it came from: left alone.
		}
	}
	return found.sort((a, b) => (a.deletedAt < b.deletedAt ? 1 : a.deletedAt > b.deletedAt ? -1 : 0));
}

/**
 * Moves a session back from the trash to where it was: `id` is its id or a unique prefix of it. Throws SessionError:
 * "not_found", "ambiguous" (listing the candidates), or "io" when a file is at its old place now or the folder
 * cannot be written (the trashed file stays where it is).
 */
export function restoreFromTrash(id: string, trashDir: string): TrashedSession {
	const wanted = id.trim().toLowerCase();
	if (wanted === "") throw new SessionError("a session id is empty", "invalid");
	const all = listTrash(trashDir);
	const exact = all.filter((t) => t.id === wanted);
	const matches = exact.length > 0 ? exact : all.filter((t) => t.id.startsWith(wanted));
	const [only, ...others] = matches;
	if (!only) {
		const what = all.length === 0 ? "the trash is empty" : "gar sessions restore lists what it holds";
		throw new SessionError(`no session "${id}" in the trash (${trashDir}): ${what}`, "not_found");
	}
	// The same session deleted twice (restored in between) is one id: the latest deletion is the one to restore.
	if (others.some((t) => t.id !== only.id)) {
		const listed = matches.slice(0, 10).map((t) => `  ${t.id}  ${t.from}`);
		throw new SessionError(
			`"${id}" matches ${matches.length} sessions in the trash — type more characters\n${listed.join("\n")}`,
			"ambiguous",
		);
	}
	if (existsSync(only.from)) {
		throw new SessionError(`cannot restore ${only.id}: a file is at ${only.from} now; move it away first`, "io");
	}
	try {
		makeDirs(dirname(only.from), 0o700);
		move(only.file, only.from);
	} catch (error) {
		throw new SessionError(`cannot restore ${only.id} to ${only.from}: ${reasonOf(error)}`, "io");
	}
	unlinkSync(`${only.file}${ORIGIN}`);
	return only;
}

/** The trash folder under gar's data folder (`~/.local/share/gar/trash`). */
export function trashDirOf(dataDir: string): string {
	return join(dataDir, "trash");
}
