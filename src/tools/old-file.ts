import { closeSync, readSync } from "node:fs";
import { newSha256 } from "../text/digest.js";
import { NotRegularFileError, openRegularFile, readUpTo } from "../text/regular-file.js";
import { describeFsError } from "./paths.js";

/** Old content above this size is not read for the undo record (hashes only, undo "none"); edit refuses it. */
export const MAX_UNDO_BYTES = 10 * 1024 * 1024;

/** What is at a path before write or edit replaces it. "large": over the limit, so only hashed while streamed. */
export type OldFile =
	| { kind: "missing" }
	| { kind: "file"; bytes: Buffer }
	| { kind: "large"; size: number; hash: string; lines: number };

export type ReadOldOptions = {
	/** How the path is shown in messages. */
	shown: string;
	verb: "write" | "edit";
	/** Over this many bytes the file is not read into memory (MAX_UNDO_BYTES). */
	maxBytes?: number;
	/** "hash": stream it for its hash and line count; "refuse": throw without reading it. */
	large: "hash" | "refuse";
};

const CHUNK = 1024 * 1024;

function notRegular(shown: string, verb: "write" | "edit", isDirectory: boolean): Error {
	if (isDirectory) {
		return new Error(
			verb === "write"
				? `${shown} is a directory; give the path of a file inside it.`
				: `${shown} is a directory, not a file.`,
		);
	}
	return new Error(
		`${shown} is not a regular file (a device, FIFO or socket); ${verb} only changes regular files. Use bash instead (e.g. \`printf '%s' … > ${shown}\`).`,
	);
}

/** sha256 and line count of the whole file, in bounded memory. */
function hashStream(fd: number): { size: number; hash: string; lines: number } {
	const hash = newSha256();
	const chunk = Buffer.alloc(CHUNK);
	let size = 0;
	let lines = 0;
	let last = 10;
	for (;;) {
		const n = readSync(fd, chunk, 0, CHUNK, size);
		if (n === 0) break;
		const part = chunk.subarray(0, n);
		hash.update(part);
		for (let i = part.indexOf(10); i !== -1; i = part.indexOf(10, i + 1)) lines++;
		last = part[n - 1] ?? 10;
		size += n;
	}
	return { size, hash: hash.digest("hex"), lines: lines + (last === 10 ? 0 : 1) };
}

/**
 * The current content of `abs`, for write and edit. Never blocks on a FIFO or device and never reads a large
 * file whole: opened through openRegularFile (stat, non-blocking open, the open file checked again), and only
 * regular files are read, up to `maxBytes`. Throws an Error with a message for the model.
 */
export function readOldFile(abs: string, options: ReadOldOptions): OldFile {
	const { shown, verb } = options;
	const maxBytes = options.maxBytes ?? MAX_UNDO_BYTES;
	let fd: number | null = null;
	try {
		const opened = openRegularFile(abs);
		fd = opened.fd;
		const { size } = opened.stats;
		if (size > maxBytes && options.large === "refuse") throw tooLarge(shown, size, maxBytes);
		const bytes = size <= maxBytes ? readUpTo(fd, size, maxBytes) : null;
		if (bytes) return { kind: "file", bytes };
		if (options.large === "refuse") throw tooLarge(shown, Math.max(size, maxBytes + 1), maxBytes);
		return { kind: "large", ...hashStream(fd) };
	} catch (error) {
		if (error instanceof NotRegularFileError) throw notRegular(shown, verb, error.isDirectory);
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT") return { kind: "missing" };
		if (!code) throw error;
		throw new Error(describeFsError(error, shown, verb));
	} finally {
		if (fd !== null) closeSync(fd);
	}
}

function tooLarge(shown: string, size: number, maxBytes: number): Error {
	const mb = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;
	return new Error(
		`${shown} is ${mb(size)}, over edit's ${mb(maxBytes)} limit; change it with bash instead (e.g. sed -i).`,
	);
}
