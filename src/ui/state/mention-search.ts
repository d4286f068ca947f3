import { mentionAt, mentionOf } from "../../text/mentions.js";

/** Finds the project's files for an `@` mention (files/finder.ts); the app sets it once the conversation exists. */
export type PathFinder = {
	/** Looks for `query`: `found` gets the best paths once known (later; a newer search replaces this one). */
	search(query: string, found: (paths: readonly string[]) => void): void;
	/** Why `path` cannot be inserted (removed since it was listed), or null. */
	missing(path: string): string | null;
};

/** What accepting a path does: replace `count` characters before the cursor with `text`, or say why not. */
export type MentionEdit = { count: number; text: string } | { problem: string };

/**
 * The editor's side of the `@` finder: hands the mention being typed to the finder and keeps the paths it found for
 * the latest query answered (shown until the next query's arrive, so the list does not flicker while typing).
 */
export class MentionSearch {
	finder: PathFinder | null = null;
	private asked: string | null = null;
	private found: { query: string; paths: readonly string[] } | null = null;

	/** `onFound`: new paths arrived (`fresh`: for another query than the last shown, so the selection starts over). */
	constructor(private readonly onFound: (fresh: boolean) => void) {}

	/** The paths for the mention the cursor is in (at `col` of `line`), asking the finder when its query is new. */
	paths(line: string, col: number): readonly string[] | null {
		const finder = this.finder;
		const at = finder && mentionAt(line, col);
		if (!finder || !at) return null;
		if (this.asked !== at.query) {
			const query = at.query;
			this.asked = query;
			finder.search(query, (paths) => {
				if (this.asked !== query) return;
				const fresh = this.found?.query !== query;
				this.found = { query, paths };
				this.onFound(fresh);
			});
		}
		const paths = this.found?.paths ?? [];
		return paths.length > 0 ? paths : null;
	}

	/** The edit that puts `@path ` in place of the mention before `col`, or why the file cannot be named. */
	accept(line: string, col: number, path: string): MentionEdit | null {
		const at = mentionAt(line, col);
		if (!at) return null;
		const problem = this.finder?.missing(path) ?? null;
		if (problem === null) return { count: col - at.start, text: `${mentionOf(path)} ` };
		// Asked again: the finder lists the files anew.
		this.asked = null;
		this.found = null;
		return { problem };
	}
}
