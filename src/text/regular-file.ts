import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from "node:fs";

/** The path names a directory, FIFO, socket or device: reading it could block forever or never end. */
export class NotRegularFileError extends Error {
	readonly code = "ENOTREG";
	/** What is there instead, in words: "a folder", "not a regular file (a FIFO, socket or device)". */
	readonly what: string;
	constructor(
		readonly path: string,
		readonly isDirectory: boolean,
	) {
		const what = isDirectory ? "a folder" : "not a regular file (a FIFO, socket or device)";
		super(`${path} is ${what}`);
		this.what = what;
	}
}

/**
 * Opens `path` without ever blocking on a FIFO or device: stat first, open non-blocking, and check the open file
 * again (it may have been swapped meanwhile). `flags` add to O_NONBLOCK (default: read only); `mode` is for a file
 * O_CREAT makes. Returns the open fd (the caller closes it) and its stats. Throws the fs error (ENOENT, EACCES…) or
 * a NotRegularFileError.
 */
export function openRegularFile(path: string, flags = constants.O_RDONLY, mode = 0o666): { fd: number; stats: Stats } {
	try {
		const first = statSync(path);
		if (!first.isFile()) throw new NotRegularFileError(path, first.isDirectory());
	} catch (error) {
		// A file that O_CREAT is about to make need not exist yet.
		if ((error as NodeJS.ErrnoException).code !== "ENOENT" || !(flags & constants.O_CREAT)) throw error;
	}
	const fd = openSync(path, flags | constants.O_NONBLOCK, mode);
	const stats = fstatSync(fd);
	if (!stats.isFile()) {
		closeSync(fd);
		throw new NotRegularFileError(path, stats.isDirectory());
	}
	return { fd, stats };
}

/**
 * The bytes of an open file to EOF, or null past `max` bytes. Reads to EOF rather than trusting the size, which may
 * be stale or 0 (files in /proc); starts from a buffer of the reported size.
 */
export function readUpTo(fd: number, size: number, max: number): Buffer | null {
	let bytes = Buffer.alloc(Math.min(size, max) + 1);
	let at = 0;
	for (;;) {
		if (at === bytes.length) {
			if (at > max) return null;
			const bigger = Buffer.alloc(Math.min(bytes.length * 2, max + 1));
			bytes.copy(bigger);
			bytes = bigger;
		}
		const n = readSync(fd, bytes, at, bytes.length - at, at);
		if (n === 0) return bytes.subarray(0, at);
		at += n;
	}
}

/**
 * The whole regular file at `path`, at most `maxBytes` (null past that): never blocks on a FIFO or device. Throws
 * the fs error or a NotRegularFileError.
 */
export function readRegularFile(path: string, maxBytes: number): Buffer | null {
	const { fd, stats } = openRegularFile(path);
	try {
		return readUpTo(fd, stats.size, maxBytes);
	} finally {
		closeSync(fd);
	}
}
