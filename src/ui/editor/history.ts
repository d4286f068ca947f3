import { appendFileSync, closeSync, fstatSync, mkdirSync, openSync, readSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** Entries kept in memory and in the file (older ones are dropped when the file is rewritten). */
const KEEP = 1000;
/** Only the end of a long file is read. */
const READ_LIMIT = 2 * 1024 * 1024;
/** Messages longer than this are not kept (a huge paste would make every later start slower). */
const ENTRY_LIMIT = 256 * 1024;

/**
 * The prompts a person sent in a project, oldest first, kept across sessions: a JSONL file of strings, appended one
 * line per message. Reading and writing never throw (a history that cannot be saved is only a lost convenience).
 */
export class PromptHistory {
	readonly entries: string[];

	private constructor(
		private readonly file: string | null,
		entries: string[],
	) {
		this.entries = entries;
	}

	/** In memory only (tests, `--no-session`-like uses). */
	static memory(entries: string[] = []): PromptHistory {
		return new PromptHistory(null, entries);
	}

	/** Loads the file's last entries; a missing or broken file is an empty history. */
	static open(file: string): PromptHistory {
		const entries: string[] = [];
		let lines = 0;
		try {
			const fd = openSync(file, "r");
			try {
				const size = fstatSync(fd).size;
				const length = Math.min(size, READ_LIMIT);
				const buffer = Buffer.alloc(length);
				readSync(fd, buffer, 0, length, size - length);
				const all = buffer.toString("utf8").split("\n");
				if (length < size) all.shift(); // a partial first line
				for (const line of all) {
					if (!line) continue;
					lines++;
					try {
						const value: unknown = JSON.parse(line);
						if (typeof value === "string") entries.push(value);
					} catch {
						// A torn line (a crash mid-write) is skipped.
					}
				}
			} finally {
				closeSync(fd);
			}
		} catch {
			return new PromptHistory(file, []);
		}
		const history = new PromptHistory(file, entries.slice(-KEEP));
		if (lines > 2 * KEEP) history.rewrite();
		return history;
	}

	/** Remembers a sent message (not an immediate repeat of the last one). */
	add(text: string): void {
		if (text.trim() === "" || text.length > ENTRY_LIMIT || this.entries.at(-1) === text) return;
		this.entries.push(text);
		if (this.entries.length > KEEP) this.entries.shift();
		if (!this.file) return;
		try {
			mkdirSync(dirname(this.file), { recursive: true });
			appendFileSync(this.file, `${JSON.stringify(text)}\n`);
		} catch {
			// Not saved; the entry stays for this session.
		}
	}

	/** The index of the newest entry before `before` that contains `query` (case-insensitive), or -1. */
	search(query: string, before = this.entries.length): number {
		const needle = query.toLowerCase();
		for (let i = Math.min(before, this.entries.length) - 1; i >= 0; i--) {
			if ((this.entries[i] as string).toLowerCase().includes(needle)) return i;
		}
		return -1;
	}

	private rewrite(): void {
		if (!this.file) return;
		try {
			writeFileSync(this.file, this.entries.map((e) => `${JSON.stringify(e)}\n`).join(""));
		} catch {
			// Left as it was.
		}
	}
}
