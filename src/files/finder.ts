import { statSync } from "node:fs";
import { resolve } from "node:path";
import { AsyncFzf } from "fzf";
import { nextTurn } from "../text/steps.js";
import { type FileList, type ListOptions, listFiles } from "./list.js";

/** Paths shown for a query, best first. */
const SHOWN = 50;
/**
 * Paths per matcher: the list is matched in shards, each prepared in a step of its own (fzf prepares a whole list at
 * once, about 1 ms per 1,000 paths: one matcher for 100,000 would hold the keys for a tenth of a second).
 */
const SHARD = 5_000;
/** A list older than this is listed again (in the background) the next time the finder is used. */
const STALE_MS = 30_000;

export type FinderOptions = {
	cwd: string;
	/** Lists the files (default `listFiles`); tests and the benchmark inject theirs. */
	list?: (cwd: string, options: ListOptions) => Promise<FileList>;
	now?: () => number;
	staleMs?: number;
};

type Search = { query: string; found: (paths: readonly string[]) => void };
/** What fzf gives back for a path (its types reach this far only: the package's own .d.ts files import without .js). */
type Hit = { item: string; score: number; start: number };

/** Whether the match lies in the file's name (after the path's last `/`). */
const inName = (hit: Hit) => hit.start > hit.item.lastIndexOf("/");

/** On an equal score: a match in the file's name first, then the shorter path. */
const tiebreak = (a: Hit, b: Hit) => Number(inName(b)) - Number(inName(a)) || a.item.length - b.item.length;

/**
 * The `@` finder's files: listed once per session in the background (`warm`), listed again once stale (older than
 * `staleMs`, or after `stale()`, which the app calls when a run ends) while the old list keeps answering. A search
 * runs fzf's matcher (fzf-for-js) over the list in slices between other work, so typing never waits for it; a newer
 * search cancels the one still running. Paths match best on their last part (fzf's backward match); on a tie a match in
 * the file's name comes first, then the shorter path.
 */
export class FileFinder {
	private list: FileList | null = null;
	private listedAt = Number.NEGATIVE_INFINITY;
	private listing: Promise<void> | null = null;
	/** The matchers over the list, one per SHARD paths, made one per step; null until the list is there. */
	private shards: Promise<AsyncFzf<string[]>[]> | null = null;
	private latest: Search | null = null;
	private failed = false;
	private readonly now: () => number;

	constructor(private readonly options: FinderOptions) {
		this.now = options.now ?? Date.now;
	}

	/** Starts listing the files, unless a list is fresh or on its way. */
	warm(): void {
		if (this.listing) return;
		if (this.list && this.now() - this.listedAt < (this.options.staleMs ?? STALE_MS)) return;
		const list = this.options.list ?? listFiles;
		this.listing = list(this.options.cwd, {})
			.then(
				(files) => {
					this.list = files;
					// The matchers are made now, in steps, so the first `@` does not wait for them.
					this.shards = prepare(files.files);
					this.failed = false;
				},
				() => {
					this.failed = this.list === null;
				},
			)
			.finally(() => {
				this.listedAt = this.now();
				this.listing = null;
				// The search on screen is answered from the new list.
				if (this.latest) this.run(this.latest);
			});
	}

	/** The files may have changed (a run ended): the next use lists them again. */
	stale(): void {
		this.listedAt = Number.NEGATIVE_INFINITY;
	}

	/** Looks for `query`; `found` gets the best paths (every file for an empty query, in list order) once known. */
	search(query: string, found: (paths: readonly string[]) => void): void {
		const search = { query, found };
		this.latest = search;
		this.warm();
		if (this.list) this.run(search);
	}

	/** What the finder is doing while it has no paths to show ("listing files…"), or null. */
	status(): string | null {
		if (this.list) return this.list.files.length === 0 ? "no files here" : null;
		return this.failed ? "the files could not be listed" : "listing files…";
	}

	/**
	 * Why `path` cannot be inserted, or null: a file the list still names but that was removed since (the files are
	 * listed again at once).
	 */
	missing(path: string): string | null {
		try {
			statSync(resolve(this.options.cwd, path));
			return null;
		} catch {
			this.stale();
			this.warm();
			return `not inserted: ${path} was removed since the file list was made (listing the files again)`;
		}
	}

	private run(search: Search): void {
		this.shards ??= prepare(this.list?.files ?? []);
		void this.shards.then(async (shards) => {
			const hits: Hit[] = [];
			for (const shard of shards) {
				// A newer search took over; fzf cancels this one's slices in the shard it shares.
				if (this.latest !== search) return;
				hits.push(...(await shard.find(search.query).catch(() => [] as Hit[])));
			}
			if (this.latest !== search) return;
			hits.sort((a, b) => b.score - a.score || tiebreak(a, b));
			search.found(hits.slice(0, SHOWN).map((hit) => hit.item));
		});
	}
}

/** The matchers for `files`, one per SHARD of them, each made in a step of its own. */
async function prepare(files: readonly string[]): Promise<AsyncFzf<string[]>[]> {
	const shards: AsyncFzf<string[]>[] = [];
	for (let at = 0; at < files.length; at += SHARD) {
		if (at > 0) await nextTurn();
		const options = { limit: SHOWN, fuzzy: "v1", forward: false, tiebreakers: [tiebreak] };
		shards.push(new AsyncFzf(files.slice(at, at + SHARD), options));
	}
	return shards;
}
