/** Where lines are scanned from: an open file (read.ts reads its descriptor), or bytes in memory. */
export type ByteSource = {
	read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
};

/** What to collect from a file: lines from `start` (1-based), at most `want` of them and `maxBytes` of output. */
export type ScanRequest = { start: number; want: number; maxBytes: number; signal: AbortSignal };

export type ScanResult = {
	/** The collected lines, without line breaks (a trailing "\r" removed). */
	lines: string[];
	/** Lines in the file; null when the rest was too large to count cheaply. */
	totalLines: number | null;
	/** Why collection stopped: end of file, `want` reached, the byte budget, or one line over the budget. */
	stop: "eof" | "lines" | "bytes" | "long_line";
	/** With stop "long_line": the full byte length of that line. */
	longLineBytes: number;
};

const CHUNK = 64 * 1024;
/** After collecting, newlines are counted in at most this many further bytes (for "of N lines"). */
const COUNT_LIMIT = 32 * 1024 * 1024;
const NEWLINE = 10;

/** Cuts bytes at a UTF-8 character boundary at or below `max`. */
function cutBytes(bytes: Buffer, max: number): Buffer {
	let end = Math.min(max, bytes.length);
	while (end > 0 && end < bytes.length && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
	return bytes.subarray(0, end);
}

/**
 * Streams a file in 64 KB chunks and collects the requested lines, so memory stays bounded by the output size
 * even for a multi-gigabyte file or a single enormous line. Each output line costs its bytes plus `overhead`.
 */
export async function scanLines(fh: ByteSource, size: number, req: ScanRequest, overhead: number): Promise<ScanResult> {
	const buf = Buffer.allocUnsafe(CHUNK);
	const lines: string[] = [];
	let line = 1;
	let pieces: Buffer[] = [];
	let pieceBytes = 0;
	let used = 0;
	let collecting = true;
	let stop: ScanResult["stop"] = "eof";
	let longLine = false;
	let longLineBytes = 0;
	let position = 0;
	let lastByte = -1;
	let countFrom: number | undefined;

	const finishLine = () => {
		let text = Buffer.concat(pieces).toString("utf8");
		if (text.endsWith("\r") && !longLine) text = text.slice(0, -1);
		lines.push(text);
		used += pieceBytes + overhead;
		pieces = [];
		pieceBytes = 0;
		if (longLine || lines.length >= req.want) {
			collecting = false;
			stop = longLine ? "long_line" : "lines";
		}
	};

	/** Adds bytes of the current line; stops collecting when the budget is exceeded. */
	const take = (seg: Buffer) => {
		if (longLine) {
			longLineBytes += seg.length;
			return;
		}
		if (used + pieceBytes + seg.length + overhead <= req.maxBytes) {
			pieces.push(Buffer.from(seg));
			pieceBytes += seg.length;
			return;
		}
		if (lines.length > 0) {
			collecting = false;
			stop = "bytes";
			return;
		}
		// The first line alone is over the budget: keep its head, count the rest.
		longLine = true;
		longLineBytes = pieceBytes + seg.length;
		const head = cutBytes(Buffer.concat([...pieces, seg]), req.maxBytes - overhead);
		pieces = [Buffer.from(head)];
		pieceBytes = head.length;
	};

	// Reads to EOF rather than to `size`: some files (in /proc, growing logs) report a size that is not their length.
	for (;;) {
		if (req.signal.aborted) throw new Error("Aborted while reading.");
		if (!collecting) {
			countFrom ??= position;
			const tooFar = size - countFrom > COUNT_LIMIT || position - countFrom > COUNT_LIMIT;
			if (tooFar) return { lines, totalLines: null, stop, longLineBytes };
		}
		const { bytesRead } = await fh.read(buf, 0, CHUNK, position);
		if (bytesRead === 0) break;
		position += bytesRead;
		const chunk = buf.subarray(0, bytesRead);
		lastByte = chunk[bytesRead - 1] ?? -1;
		let pos = 0;
		while (pos < bytesRead) {
			const nl = chunk.indexOf(NEWLINE, pos);
			if (!collecting) {
				if (nl === -1) break;
				line++;
				pos = nl + 1;
				continue;
			}
			const end = nl === -1 ? bytesRead : nl;
			if (line >= req.start) take(chunk.subarray(pos, end));
			if (nl === -1) break;
			if (line >= req.start && collecting) finishLine();
			line++;
			pos = nl + 1;
		}
	}
	if (collecting && line >= req.start && (pieceBytes > 0 || longLine)) finishLine();
	const totalLines = position === 0 ? 0 : lastByte === NEWLINE ? line - 1 : line;
	if (collecting) stop = "eof";
	return { lines, totalLines, stop, longLineBytes };
}
