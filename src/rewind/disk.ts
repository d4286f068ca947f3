import { closeSync, lstatSync, readSync, type Stats } from "node:fs";
import { newSha256, sha256Hex } from "../text/digest.js";
import { openRegularFile, readUpTo } from "../text/regular-file.js";

/** Files up to this size are held in memory to be restored; a larger one is only hashed (and never restored). */
export const MAX_HELD_BYTES = 64 * 1024 * 1024;

/**
 * What is at a path now, for a rewind: nothing, a regular file (its hash, its bytes unless too large to hold, its
 * mode), or something a rewind never touches (a folder, a link, a device; or a path it cannot read), with why.
 */
export type Disk =
	| { kind: "missing" }
	| { kind: "file"; hash: string; bytes: Buffer | null; mode: number }
	| { kind: "other"; why: string };

/** The hash the chain compares: null for no file. */
export const hashOf = (disk: Disk): string | null | undefined =>
	disk.kind === "missing" ? null : disk.kind === "file" ? disk.hash : undefined;

const CHUNK = 1024 * 1024;

/** The sha256 of an open file from its start, in bounded memory. */
function hashFd(fd: number): string {
	const hash = newSha256();
	const chunk = Buffer.alloc(CHUNK);
	for (let at = 0, n = readSync(fd, chunk, 0, CHUNK, 0); n > 0; n = readSync(fd, chunk, 0, CHUNK, at)) {
		hash.update(chunk.subarray(0, n));
		at += n;
	}
	return hash.digest("hex");
}

/** A regular file's hash, and its bytes when they fit in MAX_HELD_BYTES (never blocks on a FIFO swapped in). */
function readFile(path: string): { hash: string; bytes: Buffer | null; mode: number } {
	const { fd, stats } = openRegularFile(path);
	try {
		const bytes = stats.size <= MAX_HELD_BYTES ? readUpTo(fd, stats.size, MAX_HELD_BYTES) : null;
		return { hash: bytes ? sha256Hex(bytes) : hashFd(fd), bytes, mode: stats.mode & 0o7777 };
	} finally {
		closeSync(fd);
	}
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** What is at `path` now (lstat: a link is reported as one, never followed). */
export function readDisk(path: string): Disk {
	let stats: Stats;
	try {
		stats = lstatSync(path);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT") return { kind: "missing" };
		if (code === "ENOTDIR") return { kind: "other", why: "a folder on its path is a file now" };
		return { kind: "other", why: `cannot be read: ${reasonOf(error)}` };
	}
	if (stats.isSymbolicLink())
		return { kind: "other", why: "is a symbolic link now: a rewind never writes through a link" };
	if (stats.isDirectory()) return { kind: "other", why: "is a folder now" };
	if (!stats.isFile()) return { kind: "other", why: "is not a regular file now (a FIFO, socket or device)" };
	try {
		return { kind: "file", ...readFile(path) };
	} catch (error) {
		return { kind: "other", why: `cannot be read: ${reasonOf(error)}` };
	}
}

/** The hash of bytes that may be absent (null: no file). */
export const hashOfBytes = (bytes: Buffer | null): string | null => (bytes === null ? null : sha256Hex(bytes));
