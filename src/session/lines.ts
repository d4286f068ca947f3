import { closeSync, openSync, readSync } from "node:fs";

const CHUNK = 1 << 20;

/**
 * Called once per line with the bytes `buf[start, end)` (without the "\n"). The buffer is reused after the call
 * returns: copy or decode what you keep. `complete` is false for a last line with no "\n" after it.
 * Return false to stop reading.
 */
export type LineVisitor = (
	buf: Buffer,
	start: number,
	end: number,
	lineNo: number,
	complete: boolean,
) => boolean | undefined;

/**
 * Reads a file line by line in 1 MB chunks, so memory stays bounded by the longest line, not the file.
 * Opens the file read-only; never modifies it. Returns the bytes read and whether the file ends with "\n" (or is
 * empty); after an early stop, `endsWithNewline` is false.
 */
export function forEachLine(file: string, visit: LineVisitor): { bytes: number; endsWithNewline: boolean } {
	const fd = openSync(file, "r");
	try {
		return scanFd(fd, visit);
	} finally {
		closeSync(fd);
	}
}

function scanFd(fd: number, visit: LineVisitor): { bytes: number; endsWithNewline: boolean } {
	const chunk = Buffer.allocUnsafe(CHUNK);
	let carry: Buffer[] = [];
	let lineNo = 0;
	let bytes = 0;
	let lastByte = -1;
	for (;;) {
		const n = readSync(fd, chunk, 0, CHUNK, bytes);
		if (n === 0) break;
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
				keepGoing = visit(line, 0, line.length, lineNo, true);
			} else {
				keepGoing = visit(view, start, nl, lineNo, true);
			}
			if (keepGoing === false) return { bytes, endsWithNewline: false };
			start = nl + 1;
		}
		// The chunk buffer is reused, so the unfinished line is copied.
		if (start < n) carry.push(Buffer.from(view.subarray(start)));
	}
	if (carry.length > 0) {
		const line = Buffer.concat(carry);
		visit(line, 0, line.length, lineNo + 1, false);
	}
	return { bytes, endsWithNewline: bytes === 0 || lastByte === 10 };
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
