// Newline-delimited input (JSON lines) read in bounded memory. Lines end at "\n" only: Node's readline also ends them
// at U+2028 and U+2029, which JSON allows unescaped inside a string, so it would cut such a message in two.

/** One item of the input: a whole line, or a line over the limit (dropped up to its end; `bytes` read of it). */
export type LineItem = { line: string } | { tooLong: number };

const NEWLINE = 10;

/**
 * Splits bytes into lines at "\n" (a "\r" before it is dropped). A line longer than `maxBytes` is reported once, as
 * soon as it crosses the limit, and its bytes are skipped up to the next "\n": memory stays within `maxBytes` whatever
 * the input. A "\n" byte never occurs inside a multi-byte UTF-8 character, so each line decodes on its own.
 */
export class LineSplitter {
	private parts: Buffer[] = [];
	private size = 0;
	private skipping = false;

	constructor(readonly maxBytes: number) {}

	/** The lines (and refusals) completed by `chunk`, in order. */
	push(chunk: Buffer): LineItem[] {
		const out: LineItem[] = [];
		let start = 0;
		for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
			this.take(chunk.subarray(start, nl), out);
			if (!this.skipping) out.push({ line: this.text() });
			this.reset();
			start = nl + 1;
		}
		this.take(chunk.subarray(start), out);
		return out;
	}

	/** The last line when the input ended without a "\n" (none when it ended with one). */
	end(): LineItem[] {
		const out: LineItem[] = this.size > 0 && !this.skipping ? [{ line: this.text() }] : [];
		this.reset();
		return out;
	}

	private take(bytes: Buffer, out: LineItem[]): void {
		if (bytes.length === 0 || this.skipping) return;
		if (this.size + bytes.length > this.maxBytes) {
			out.push({ tooLong: this.size + bytes.length });
			this.skipping = true;
			this.parts = [];
			return;
		}
		// A copy: a piece of a large chunk would keep the whole chunk alive.
		this.parts.push(Buffer.from(bytes));
		this.size += bytes.length;
	}

	private text(): string {
		const text = (this.parts.length === 1 ? (this.parts[0] as Buffer) : Buffer.concat(this.parts)).toString("utf8");
		return text.endsWith("\r") ? text.slice(0, -1) : text;
	}

	private reset(): void {
		this.parts = [];
		this.size = 0;
		this.skipping = false;
	}
}

/** "12.5 MB", "900 KB": a byte count for a message. */
export function formatBytes(bytes: number): string {
	if (bytes >= 1024 * 1024) return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
	return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}
