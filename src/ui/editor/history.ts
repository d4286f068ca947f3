/** Entries kept in memory and in the file (older ones are dropped when the file is rewritten). */
export const KEEP = 1000;
/** Messages longer than this are not kept (a huge paste would make every later start slower). */
const ENTRY_LIMIT = 256 * 1024;

/** Where a history is saved: one entry appended, or all of them rewritten. Never throws (history-file.ts). */
export type HistoryStore = { append(text: string): void; rewrite(entries: readonly string[]): void };

/**
 * The prompts a person sent in a project, oldest first, kept across sessions by a store (history-file.ts
 * `openHistory`: a JSONL file of strings, one line appended per message). No file I/O here: this module is part of
 * the app's first frame. Never throws (a history that cannot be saved is only a lost convenience).
 */
export class PromptHistory {
	readonly entries: string[];

	constructor(
		entries: string[] = [],
		private readonly store: HistoryStore | null = null,
		/** Why nothing is saved this session (the file is a FIFO, say), for a notice. */
		readonly problem?: string,
	) {
		this.entries = entries;
	}

	/** In memory only (tests, `--no-session`-like uses). */
	static memory(entries: string[] = []): PromptHistory {
		return new PromptHistory(entries);
	}

	/** Remembers a sent message (not an immediate repeat of the last one). */
	add(text: string): void {
		if (text.trim() === "" || text.length > ENTRY_LIMIT || this.entries.at(-1) === text) return;
		this.entries.push(text);
		if (this.entries.length > KEEP) this.entries.shift();
		this.store?.append(text);
	}

	/** The index of the newest entry before `before` that contains `query` (case-insensitive), or -1. */
	search(query: string, before = this.entries.length): number {
		const needle = query.toLowerCase();
		for (let i = Math.min(before, this.entries.length) - 1; i >= 0; i--) {
			if ((this.entries[i] as string).toLowerCase().includes(needle)) return i;
		}
		return -1;
	}
}
