// The start script's code cache files (src/boot.ts). In a release build V8 checks no checksum of cached data and, of
// the source, only its length: a damaged cache (a flipped bit, the zeroed tail a power loss can leave) crashes every
// launch of its kind with SIGSEGV or SIGTRAP, and a cache made from other code of the same length runs that code. So
// a cache file is V8's data behind a header of our own: the build's hash of the bundle's content and a checksum of the
// data, checked before V8 sees a byte. It is used only from a folder and a file that are the user's own and that no
// one else may write (another user must not choose the code gar runs), and only from a regular file (a FIFO would
// block the read forever). A cache that fails a check is deleted and made again; one that cannot be read or written
// only costs speed.
import {
	closeSync,
	constants,
	fstatSync,
	fsyncSync,
	lstatSync,
	openSync,
	readdirSync,
	readSync,
	renameSync,
	rmSync,
	type Stats,
	writeSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { makeDirs } from "./tools/make-dirs.js";

/** Every cache file's name starts so (the names of other builds' caches too, and their temporary files). */
export const CACHE_PREFIX = "code-";
/**
 * "gar V8 code, format 2"; then the bundle's hash (16 hex digits), the lengths of the data and of its tags, and the
 * checksum of both (u32 LE each), 4 zero bytes. The tags (UTF-8, one per line) follow the data.
 */
const MAGIC = "garv8c02";
/** 40 bytes keep V8's data 8-byte aligned in the buffer read, so V8 uses it without a copy. */
const HEADER = 40;
/** A cache is ~1 MB; anything much larger is not one, and is not read into memory. */
const MAX_BYTES = 64 * 1024 * 1024;
const DAY_MS = 86_400_000;

/** A short hash for a file name (FNV-1a, 32 bits). */
export function fnv1a(text: string): string {
	let hash = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
	return hash.toString(16).padStart(8, "0");
}

/** What a cache must belong to, and the checksum of its data (given, so `gar --version` loads no hash module). */
export type CacheCheck = { hash: string; checksum: (data: Uint8Array) => number };

/** Whether `stats` belong to this user and no one else may write there (POSIX only: Windows has no such modes). */
function ownPrivate(stats: Stats): boolean {
	if (process.platform === "win32") return true;
	return stats.uid === process.getuid?.() && (stats.mode & 0o022) === 0;
}

/**
 * "ok": `dir` is a folder (not a link to one) of the user's own that no one else may write to; "missing"; "refused":
 * anything else, where no cache is read or written.
 */
export function cacheFolder(dir: string): "ok" | "missing" | "refused" {
	try {
		const stats = lstatSync(dir);
		return stats.isDirectory() && ownPrivate(stats) ? "ok" : "refused";
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "ENOENT" ? "missing" : "refused";
	}
}

/** A cache as read: V8's data, and the tags it was written with (what the launches that made it ran). */
export type CacheRead = { data: Buffer; tags: string[] };

/** The cache in `bytes` if their header names the bundle and the data and tags match their lengths and checksum. */
function verified(bytes: Buffer, { hash, checksum }: CacheCheck): CacheRead | undefined {
	if (bytes.length <= HEADER || bytes.toString("latin1", 0, 8) !== MAGIC || bytes.toString("latin1", 8, 24) !== hash)
		return undefined;
	const [length, tagsLength] = [bytes.readUInt32LE(24), bytes.readUInt32LE(28)];
	if (HEADER + length + tagsLength !== bytes.length || bytes.readUInt32LE(36) !== 0) return undefined;
	if (bytes.readUInt32LE(32) !== checksum(bytes.subarray(HEADER))) return undefined;
	const tags = bytes.toString("utf8", HEADER + length);
	return { data: bytes.subarray(HEADER, HEADER + length), tags: tags === "" ? [] : tags.split("\n") };
}

/** Up to `size` bytes of `fd` from its start (fewer if the file is shorter now). */
function readUpTo(fd: number, size: number): Buffer {
	const bytes = Buffer.allocUnsafe(size);
	let at = 0;
	for (let n = 1; at < size && n > 0; at += n) n = readSync(fd, bytes, at, size - at, at);
	return bytes.subarray(0, at);
}

/** Deletes what is at `file`, whatever it is but a folder; failing that, leaves it. */
function remove(file: string): void {
	try {
		rmSync(file, { force: true });
	} catch {
		// A folder, or a folder we may not change: the write that follows fails too, which only costs speed.
	}
}

/**
 * The cache in `file`; undefined when there is none or it fails a check, and then the file is deleted. The caller
 * checks the folder first (cacheFolder). Never throws, never blocks.
 */
export function readCache(file: string, check: CacheCheck): CacheRead | undefined {
	let fd: number;
	try {
		// O_NOFOLLOW: a link fails (ELOOP). O_NONBLOCK: a FIFO opens at once rather than waiting for a writer.
		fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "ENOENT") remove(file);
		return undefined;
	}
	let data: CacheRead | undefined;
	try {
		const stats = fstatSync(fd);
		if (stats.isFile() && ownPrivate(stats) && stats.size <= MAX_BYTES)
			data = verified(readUpTo(fd, stats.size), check);
	} catch {
		data = undefined;
	} finally {
		closeSync(fd);
	}
	if (data === undefined) remove(file);
	return data;
}

function writeAll(fd: number, bytes: Uint8Array): void {
	for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
}

/**
 * Writes V8's `data`, with `tags`, to `file` as a cache that passes `check`: its folder made (0700) if missing and
 * checked, through a temporary file synced to disk before the rename, so a launch meanwhile or after a power loss finds
 * a whole cache or none. Caches of other builds are removed once a day old (two installs used in turn then remake
 * theirs at most daily). Never throws.
 */
export function writeCache(file: string, check: CacheCheck, data: Buffer, tags: readonly string[] = []): void {
	const dir = dirname(file);
	const temporary = `${file}.${process.pid}.tmp`;
	try {
		makeDirs(dir, 0o700);
		if (cacheFolder(dir) !== "ok") return;
		const tagBytes = Buffer.from(tags.join("\n"), "utf8");
		const header = Buffer.alloc(HEADER);
		header.write(MAGIC, 0, "latin1");
		header.write(check.hash, 8, "latin1");
		header.writeUInt32LE(data.length, 24);
		header.writeUInt32LE(tagBytes.length, 28);
		header.writeUInt32LE(check.checksum(Buffer.concat([data, tagBytes])), 32);
		const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
		const fd = openSync(temporary, flags, 0o600);
		try {
			writeAll(fd, header);
			writeAll(fd, data);
			writeAll(fd, tagBytes);
			fsyncSync(fd);
		} finally {
			closeSync(fd);
		}
		renameSync(temporary, file);
		const dayAgo = Date.now() - DAY_MS;
		for (const name of readdirSync(dir)) {
			const other = join(dir, name);
			if (name.startsWith(CACHE_PREFIX) && other !== file && lstatSync(other).mtimeMs < dayAgo) remove(other);
		}
	} catch {
		remove(temporary);
	}
}
