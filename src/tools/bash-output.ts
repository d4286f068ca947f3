import { closeSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { stripVTControlCharacters } from "node:util";
import { randomHex } from "../text/digest.js";
import { makeDirs } from "./make-dirs.js";
import { type Limits, takeHead, takeTail } from "./truncate.js";

/** What one call may save of its full output (50 MB): enough to grep a long build log, not a disk filler. */
export const MAX_SAVED_BYTES = 50 * 1024 * 1024;

/** The output as the model sees it, plus the facts about what was left out. */
export type OutputSummary = {
	text: string;
	truncated: boolean;
	totalLines: number;
	totalBytes: number;
	fullOutputPath?: string;
};

// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** What the model should see of raw terminal text: no ANSI sequences, "\r\n" as "\n", a "\r"-redrawn line as its last state. */
export function cleanOutput(text: string): string {
	const lines = stripVTControlCharacters(text).replace(/\r\n/g, "\n").split("\n");
	return lines
		.map((line) => {
			if (!line.includes("\r")) return line.replace(CONTROL, "");
			const states = line.split("\r").filter((s) => s !== "");
			return (states[states.length - 1] ?? "").replace(CONTROL, "");
		})
		.join("\n");
}

/**
 * Collects a command's merged output with bounded memory: a head (up to the limits), a rolling tail (about twice
 * the byte limit) and, once the output exceeds the limits, every byte streamed to a temp file. What the model
 * sees of a long output is a quarter of the budget from the head and the rest from the tail — errors and
 * summaries are usually at the end.
 */
export class OutputCollector {
	private readonly decoders = { stdout: new StringDecoder("utf8"), stderr: new StringDecoder("utf8") };
	private pending: Buffer[] = [];
	private fd: number | null = null;
	private spillError: string | null = null;
	private savedBytes = 0;
	/** True once the saved file reached `maxSavedBytes` and saving stopped. */
	savedCut = false;
	private head = "";
	private headBytes = 0;
	private headFull = false;
	private tail: string[] = [];
	private tailChars = 0;
	private newlines = 0;
	private lastByte = -1;
	totalBytes = 0;
	fullOutputPath: string | undefined;

	/** `outputDir` is created (0o700) when the first output over the limits must be saved. */
	constructor(
		private readonly limits: Limits,
		private readonly outputDir: string,
		private readonly maxSavedBytes = MAX_SAVED_BYTES,
	) {}

	get totalLines(): number {
		return this.newlines + (this.totalBytes > 0 && this.lastByte !== 10 ? 1 : 0);
	}

	private get overLimit(): boolean {
		return this.totalBytes > this.limits.maxBytes || this.totalLines > this.limits.maxLines;
	}

	push(chunk: Buffer, stream: "stdout" | "stderr"): void {
		if (chunk.length === 0) return;
		this.totalBytes += chunk.length;
		// A plain loop: several times faster than indexOf when lines are short (`yes`, progress dots).
		for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) this.newlines++;
		this.lastByte = chunk[chunk.length - 1] ?? -1;
		this.spill(chunk);
		this.addText(this.decoders[stream].write(chunk));
	}

	/** Keeps raw bytes until the output outgrows the limits, then streams them to a file, up to `maxSavedBytes`. */
	private spill(chunk: Buffer): void {
		if (this.spillError || this.savedCut) return;
		try {
			if (this.fd === null) {
				this.pending.push(chunk);
				if (!this.overLimit) return;
				makeDirs(this.outputDir, 0o700);
				const path = join(this.outputDir, `gar-bash-${randomHex(6)}.log`);
				this.fd = openSync(path, "w", 0o600);
				this.fullOutputPath = path;
				const parts = this.pending;
				this.pending = [];
				for (const part of parts) this.save(part);
			} else this.save(chunk);
		} catch (error) {
			this.spillError = error instanceof Error ? error.message : String(error);
			this.pending = [];
		}
	}

	/** Appends to the saved file; at the cap writes what fits, closes it and stops saving. */
	private save(chunk: Buffer): void {
		if (this.fd === null || this.savedCut) return;
		const room = this.maxSavedBytes - this.savedBytes;
		const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
		writeSync(this.fd, part);
		this.savedBytes += part.length;
		if (part.length < chunk.length) {
			this.savedCut = true;
			closeSync(this.fd);
			this.fd = null;
		}
	}

	private addText(text: string): void {
		if (text === "") return;
		if (!this.headFull) {
			this.head += text;
			this.headBytes += Buffer.byteLength(text, "utf8");
			this.headFull = this.headBytes > this.limits.maxBytes || this.overLimit;
		}
		const keep = this.limits.maxBytes * 2;
		const piece = text.length > keep ? text.slice(-keep) : text;
		this.tail.push(piece);
		this.tailChars += piece.length;
		while (this.tail.length > 1 && this.tailChars - (this.tail[0]?.length ?? 0) >= keep) {
			this.tailChars -= this.tail.shift()?.length ?? 0;
		}
	}

	/** The last lines so far, cleaned, for progress updates. */
	recent(limits: Limits): string {
		return cleanOutput(takeTail(this.tail.join(""), limits).text).replace(/\n$/, "");
	}

	/** Flushes the decoders, closes the temp file and builds the text for the model. Call once. */
	finish(): OutputSummary {
		this.addText(this.decoders.stdout.end() + this.decoders.stderr.end());
		if (this.fd !== null) {
			closeSync(this.fd);
			this.fd = null;
		}
		const base = { totalLines: this.totalLines, totalBytes: this.totalBytes, fullOutputPath: this.fullOutputPath };
		if (!this.overLimit) return { ...base, text: cleanOutput(this.head).replace(/\n$/, ""), truncated: false };
		const { maxLines, maxBytes } = this.limits;
		const head = takeHead(this.head, { maxLines: Math.floor(maxLines / 4), maxBytes: Math.floor(maxBytes / 4) });
		const tail = takeTail(this.tail.join(""), { maxLines: maxLines - head.lines, maxBytes: maxBytes - head.bytes });
		const lines = Math.max(0, this.totalLines - head.lines - tail.lines);
		const bytes = Math.max(0, this.totalBytes - head.bytes - tail.bytes);
		const cap = this.maxSavedBytes;
		const mb = cap >= 1024 * 1024 ? `${Math.round(cap / 1024 / 1024)} MB` : `${cap} bytes`;
		let where = `full output: ${this.fullOutputPath}`;
		if (!this.fullOutputPath) where = `the full output could not be saved: ${this.spillError ?? "unknown error"}`;
		else if (this.spillError) where = `saving the output failed part way (${this.spillError}): ${this.fullOutputPath}`;
		else if (this.savedCut) where = `only the first ${mb} was saved (the cap per call): ${this.fullOutputPath}`;
		const marker = `[… ${lines} lines (${bytes} bytes) omitted; ${where} …]`;
		const headText = cleanOutput(head.text).replace(/\n$/, "");
		const tailText = cleanOutput(tail.text).replace(/\n$/, "");
		return { ...base, text: `${headText}\n${marker}\n${tailText}`, truncated: true };
	}

	/** Closes the temp file if `finish` was never reached. */
	dispose(): void {
		if (this.fd !== null) closeSync(this.fd);
		this.fd = null;
	}
}
