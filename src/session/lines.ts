import { closeSync, openSync, readSync } from "node:fs";
import { nestsDeeperThan } from "../agent/depth.js";
import { runSteps, runStepsSliced } from "../text/steps.js";
import {
	FORMAT_VERSION,
	type KnownEntry,
	type SessionEntry,
	SessionError,
	type SessionHeader,
	schemas,
	type UnknownEntry,
} from "./format.js";

const CHUNK = 1 << 20;

/**
 * Called once per line with the bytes `buf[start, end)` (without the "\n"). The buffer is reused after the call
 * returns: copy or decode what you keep. `complete` is false for a last line with no "\n" after it; `offset` is
 * where the line starts in the file. Return false to stop reading.
 */
export type LineVisitor = (
	buf: Buffer,
	start: number,
	end: number,
	lineNo: number,
	complete: boolean,
	offset: number,
) => boolean | undefined;

/** What a scan read: its bytes, whether the file ends with "\n", and where the last whole line ends. */
export type ScanResult = { bytes: number; endsWithNewline: boolean; lineEnd: number };

/**
 * Reads a file line by line in 1 MB chunks, so memory stays bounded by the longest line, not the file, from byte
 * `from` (the start of a line) on. Opens the file read-only; never modifies it. Returns the bytes read, whether the
 * file ends with "\n" (or is empty), and the offset after the last "\n" read; after an early stop,
 * `endsWithNewline` is false.
 */
export function forEachLine(file: string, visit: LineVisitor, from = 0): ScanResult {
	const fd = openSync(file, "r");
	try {
		return runSteps(scanFd(fd, visit, from));
	} finally {
		closeSync(fd);
	}
}

/**
 * forEachLine with the event loop let run (`pause` awaited) between chunks once `sliceMs` went by since the last
 * pause: a large file read in an app that keeps answering keys meanwhile.
 */
export async function forEachLineSliced(
	file: string,
	visit: LineVisitor,
	pause: () => Promise<void>,
	sliceMs?: number,
): Promise<ScanResult> {
	const fd = openSync(file, "r");
	try {
		return await runStepsSliced(scanFd(fd, visit, 0), pause, sliceMs);
	} finally {
		closeSync(fd);
	}
}

/** The scan of `fd`, a step per chunk read (its lines visited). */
function* scanFd(fd: number, visit: LineVisitor, from: number): Generator<void, ScanResult> {
	const chunk = Buffer.allocUnsafe(CHUNK);
	let carry: Buffer[] = [];
	let lineNo = 0;
	let bytes = 0;
	let lastByte = -1;
	// Where the line being read starts in the file.
	let lineStart = from;
	for (;;) {
		const n = readSync(fd, chunk, 0, CHUNK, from + bytes);
		if (n === 0) break;
		const at = from + bytes;
		bytes += n;
		lastByte = chunk[n - 1] ?? -1;
		const view = chunk.subarray(0, n);
		let start = 0;
		for (let nl = view.indexOf(10, start); nl !== -1; nl = view.indexOf(10, start)) {
			lineNo++;
			let keepGoing: boolean | undefined;
			if (carry.length > 0) {
				carry.push(view.subarray(start, nl));
				const line = Buffer.concat(carry);
				carry = [];
				keepGoing = visit(line, 0, line.length, lineNo, true, lineStart);
			} else {
				keepGoing = visit(view, start, nl, lineNo, true, lineStart);
			}
			lineStart = at + nl + 1;
			if (keepGoing === false) return { bytes, endsWithNewline: false, lineEnd: lineStart };
			start = nl + 1;
		}
		// The chunk buffer is reused, so the unfinished line is copied.
		if (start < n) carry.push(Buffer.from(view.subarray(start)));
		yield;
	}
	if (carry.length > 0) {
		const line = Buffer.concat(carry);
		visit(line, 0, line.length, lineNo + 1, false, lineStart);
	}
	return { bytes, endsWithNewline: bytes === 0 || lastByte === 10, lineEnd: lineStart };
}

/** The JSON value of one line; undefined when it is not valid JSON (a torn or damaged line). A UTF-8 BOM (an
 * editor's, on line 1) is ignored. */
export function parseJson(text: string): unknown {
	try {
		return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
	} catch {
		return undefined;
	}
}

/** Whether this gar knows entries of type `type` (it has a schema for them). */
export function isKnownType(type: unknown): type is KnownEntry["type"] {
	return typeof type === "string" && Object.hasOwn(schemas().entries, type);
}

/** Deeper than any entry gar writes (tool arguments are bounded at 64 levels); deeper lines are not entries. */
export const MAX_ENTRY_DEPTH = 100;

/**
 * Validates one parsed entry line. Returns the same object (no copy) typed as an entry; a wrapper (UnknownEntry)
 * for a type this gar does not know or a known type whose fields do not fit (so its children keep their parent);
 * undefined when the line is not an entry at all (no id, parentId, ts or type) or nests deeper than MAX_ENTRY_DEPTH.
 */
export function parseEntry(value: unknown): SessionEntry | undefined {
	if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
	if (nestsDeeperThan(value, MAX_ENTRY_DEPTH)) return undefined;
	const record = value as Record<string, unknown>;
	const type = record.type;
	if (typeof type !== "string") return undefined;
	const { entries, unknown } = schemas();
	if (isKnownType(type)) {
		const parsed = entries[type].safeParse(value);
		if (parsed.success) {
			// `pastes` only says how a message is shown: a malformed one is dropped here, the message kept.
			if (parsed.data.type === "user" && parsed.data.pastes === undefined) delete record.pastes;
			return value as KnownEntry; // the line's own object: a newer gar's fields stay in it
		}
	}
	if (type === "session" || !unknown.safeParse(value).success) return undefined;
	const { id, parentId, ts } = record as Pick<UnknownEntry, "id" | "parentId" | "ts">;
	return { type: "unknown", id, parentId, ts, meta: record.meta === true, raw: record };
}

/**
 * Validates line 1. Throws SessionError: "newer_format" when the major version is higher than ours (checked
 * before the shape, which a newer major may have changed), "bad_header" when it is not a gar session header.
 */
export function parseHeader(value: unknown, file: string): SessionHeader {
	const header = typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
	if (header.type === "session" && typeof header.version === "number" && header.version > FORMAT_VERSION) {
		const name = typeof header.id === "string" ? `${header.id} (${file})` : file;
		throw new SessionError(
			`session ${name} was written by a newer gar (format ${header.version}); this gar reads format ${FORMAT_VERSION} — upgrade gar`,
			"newer_format",
		);
	}
	const parsed = schemas().header.safeParse(value);
	if (!parsed.success) {
		throw new SessionError(`${file} is not a gar session: line 1 is not a valid session header`, "bad_header");
	}
	return value as SessionHeader;
}
