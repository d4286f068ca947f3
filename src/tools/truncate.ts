/** Limits for a slice of text: whichever is hit first. */
export type Limits = { maxLines: number; maxBytes: number };

/** A slice of text: `lines` whole lines (or one cut line when `cutLine`), `bytes` UTF-8 bytes. */
export type Slice = { text: string; lines: number; bytes: number; cutLine: boolean };

/** The first `maxBytes` bytes of `text`, never splitting a UTF-8 character. */
export function utf8Prefix(text: string, maxBytes: number): string {
	const buf = Buffer.from(text, "utf8");
	if (buf.length <= maxBytes) return text;
	let end = maxBytes;
	while (end > 0 && ((buf[end] ?? 0) & 0xc0) === 0x80) end--;
	return buf.subarray(0, end).toString("utf8");
}

/** The last `maxBytes` bytes of `text`, never splitting a UTF-8 character. */
export function utf8Suffix(text: string, maxBytes: number): string {
	const buf = Buffer.from(text, "utf8");
	if (buf.length <= maxBytes) return text;
	let start = buf.length - maxBytes;
	while (start < buf.length && ((buf[start] ?? 0) & 0xc0) === 0x80) start++;
	return buf.subarray(start).toString("utf8");
}

/** Lines in `text`: a trailing newline does not start another line; "" has 0 lines. */
export function countLines(text: string): number {
	if (text === "") return 0;
	let n = 0;
	for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
	return text.endsWith("\n") ? n : n + 1;
}

/**
 * The longest run of whole lines from the start of `text` within the limits. Never cuts a line, except when the
 * first line alone exceeds `maxBytes`: then its first `maxBytes` bytes are returned with `cutLine` set.
 */
export function takeHead(text: string, limits: Limits): Slice {
	let pos = 0;
	let lines = 0;
	let bytes = 0;
	while (pos < text.length && lines < limits.maxLines) {
		const nl = text.indexOf("\n", pos);
		const end = nl === -1 ? text.length : nl + 1;
		const b = Buffer.byteLength(text.slice(pos, end), "utf8");
		if (bytes + b > limits.maxBytes) {
			if (lines > 0) break;
			const cut = utf8Prefix(text.slice(pos, end), limits.maxBytes);
			return { text: cut, lines: 1, bytes: Buffer.byteLength(cut, "utf8"), cutLine: true };
		}
		bytes += b;
		lines++;
		pos = end;
	}
	return { text: text.slice(0, pos), lines, bytes, cutLine: false };
}

/**
 * The longest run of whole lines from the end of `text` within the limits. Never cuts a line, except when the
 * last line alone exceeds `maxBytes`: then its last `maxBytes` bytes are returned with `cutLine` set.
 */
export function takeTail(text: string, limits: Limits): Slice {
	let pos = text.length;
	let lines = 0;
	let bytes = 0;
	while (pos > 0 && lines < limits.maxLines) {
		const searchFrom = text[pos - 1] === "\n" ? pos - 2 : pos - 1;
		const start = searchFrom < 0 ? 0 : text.lastIndexOf("\n", searchFrom) + 1;
		const b = Buffer.byteLength(text.slice(start, pos), "utf8");
		if (bytes + b > limits.maxBytes) {
			if (lines > 0) break;
			const cut = utf8Suffix(text.slice(start, pos), limits.maxBytes);
			return { text: cut, lines: 1, bytes: Buffer.byteLength(cut, "utf8"), cutLine: true };
		}
		bytes += b;
		lines++;
		pos = start;
	}
	return { text: text.slice(pos), lines, bytes, cutLine: false };
}

/** One numbered line as read and edit show it: the number right-aligned to `width`, a tab, the text. */
export function numbered(n: number, width: number, text: string): string {
	return `${String(n).padStart(width)}\t${text}`;
}
