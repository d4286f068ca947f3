import type { Writable } from "node:stream";

/**
 * Coalesces many small writes (one JSON line per delta) into few large ones: text is collected and written
 * once per macrotask, or at once past 64 KB. `flush()` resolves when everything has reached the stream.
 */
export class OutputBuffer {
	private chunks: string[] = [];
	private size = 0;
	private scheduled = false;

	constructor(private readonly stream: Writable) {}

	private closed = false;

	/** Drops everything from now on (the reader went away). */
	close(): void {
		this.closed = true;
		this.chunks = [];
		this.size = 0;
	}

	write(text: string): void {
		if (this.closed) return;
		this.chunks.push(text);
		this.size += text.length;
		if (this.size >= 64 * 1024) this.writeOut();
		else if (!this.scheduled) {
			this.scheduled = true;
			setImmediate(() => this.writeOut());
		}
	}

	private writeOut(): void {
		this.scheduled = false;
		if (this.chunks.length === 0 || this.closed) return;
		const text = this.chunks.join("");
		this.chunks = [];
		this.size = 0;
		this.stream.write(text);
	}

	/** Writes what is pending and waits until the stream has taken it all. */
	flush(): Promise<void> {
		this.writeOut();
		return new Promise((resolve) => {
			if (this.closed || this.stream.destroyed || this.stream.writableLength === 0) return resolve();
			this.stream.write("", () => resolve());
		});
	}
}
