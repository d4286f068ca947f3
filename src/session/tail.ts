import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { isConversation, SessionError, type SessionHeader } from "./format.js";
import { parseEntry, parseHeader, parseJson } from "./lines.js";
import { Session } from "./session.js";

/** How much of a file's end the tail reads: the last screens of a conversation, with room for long tool results. */
export const TAIL_BYTES = 256 << 10;
/** Read at a time while looking for the header's end (a header is a few hundred bytes). */
const HEAD_CHUNK = 16 << 10;
/** A header line longer than this is not one gar wrote. */
const MAX_HEADER = 1 << 20;

/** `length` bytes from `from` (fewer at the file's end). */
function readAt(fd: number, from: number, length: number): Buffer {
	const buf = Buffer.allocUnsafe(length);
	let got = 0;
	while (got < length) {
		const n = readSync(fd, buf, got, length - got, from + got);
		if (n === 0) break;
		got += n;
	}
	return buf.subarray(0, got);
}

/** Line 1 as a header and the offset after its "\n"; null when it is not a header this gar reads. */
function readHead(fd: number, file: string): { header: SessionHeader; end: number } | null {
	const parts: Buffer[] = [];
	for (let at = 0; at < MAX_HEADER; at += HEAD_CHUNK) {
		const chunk = readAt(fd, at, HEAD_CHUNK);
		const nl = chunk.indexOf(10);
		parts.push(nl === -1 ? chunk : chunk.subarray(0, nl));
		if (nl !== -1) {
			try {
				return { header: parseHeader(parseJson(Buffer.concat(parts).toString("utf8")), file), end: at + nl + 1 };
			} catch (error) {
				if (error instanceof SessionError) return null;
				throw error;
			}
		}
		if (chunk.length < HEAD_CHUNK) return null;
	}
	return null;
}

/**
 * The header and the whole entry lines of the file's last `bytes` bytes, as a Session (parents before them make their
 * children roots), parsed as loadSession parses them; for drawing a session's last screen before the whole file is
 * read. Null when it cannot give a trustworthy one: no header this gar reads (a newer format, a bad line 1), nothing
 * parsed, or the leaf (the last conversation entry, or a later leaf record's target) not among the tail's entries. A
 * line cut by the tail's start, a torn last line or a malformed one is skipped (the full load reports them). Read-only.
 */
export function readSessionTail(file: string, bytes = TAIL_BYTES): Session | null {
	let fd: number;
	try {
		fd = openSync(file, "r");
	} catch {
		return null;
	}
	try {
		const head = readHead(fd, file);
		if (!head) return null;
		const size = fstatSync(fd).size;
		const start = Math.max(head.end, size - bytes);
		// From the byte before `start`: what comes before its first "\n" is a line cut by the tail (or nothing).
		const from = start > head.end ? start - 1 : start;
		const buf = readAt(fd, from, size - from);
		const first = start > head.end ? buf.indexOf(10) + 1 : 0;
		if (start > head.end && first === 0) return null; // one line longer than the tail: nothing whole in it
		return tailSession(file, head.header, buf.subarray(first));
	} finally {
		closeSync(fd);
	}
}

/** The entries of `buf` (whole lines, and a last line without "\n" that parses) added in order; null: not trusted. */
function tailSession(file: string, header: SessionHeader, buf: Buffer): Session | null {
	const session = new Session(file, header);
	// The leaf as the whole file sets it; the tail's Session ignores a leaf record whose target it lacks.
	let leaf: string | null = null;
	for (let start = 0; start < buf.length; ) {
		let end = buf.indexOf(10, start);
		if (end === -1) end = buf.length;
		const text = buf.toString("utf8", start, end);
		start = end + 1;
		if (text.trim() === "") continue;
		const entry = parseEntry(parseJson(text));
		if (!entry) continue;
		if (isConversation(entry)) leaf = entry.id;
		else if (entry.type === "leaf") leaf = entry.target;
		session.add(entry);
	}
	return leaf !== null && session.leafId === leaf ? session : null;
}
