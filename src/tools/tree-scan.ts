import { type Dirent, lstatSync, readdirSync, type Stats } from "node:fs";
import { join, sep } from "node:path";
import { gitRoot } from "../text/paths.js";
import { SLICE_MS } from "../text/steps.js";
import type { BashFileChange, BashFileChanges } from "./details.js";
import { gitIgnored, type Ignored } from "./git-ignored.js";
import { FsClock } from "./scan-clock.js";

/** The files a scan looks at, at most (README "Rewind"). */
export const MAX_SCAN_FILES = 20_000;
/** The work a bash call's scan does, at most, in ms: before and after the command together. */
export const MAX_SCAN_MS = 50;
/** The paths a bash result lists (sorted); `total` counts the rest. */
export const MAX_LISTED_CHANGES = 100;
/** Folders never entered outside a git work tree (inside one, git's ignore rules decide; `.git` always). */
const SKIP_OUTSIDE_GIT = new Set([".git", "node_modules"]);
/** A folder changed this recently is listed again whatever its ctime says (a coarse clock may not have moved). */
const RECENT_MS = 1000;

/** A folder as last listed: what identifies its listing (a new name or a removed one changes its ctime) and its names. */
type Folder = { ino: number; ctimeMs: number; files: readonly string[]; dirs: readonly string[] };

/**
 * The names under the tree just before a command, the file system's time when it started, and the work that took
 * (the after-pass gets what is left of the budget).
 */
export type Baseline = { folders: ReadonlyMap<string, Folder>; since: number; spentMs: number; cut?: string };

export type TreeScanOptions = { maxFiles?: number; maxMs?: number };

type Listing = { folders: Map<string, Folder>; fresh: boolean; cut?: string };

/** One clock for the process: it holds one unlinked file open. */
let clock: FsClock | undefined;

/** Time spent working, counted slice by slice (the waits between slices are not work). */
class Work {
	private started = performance.now();
	private spent = 0;
	constructor(private readonly maxMs: number) {}
	/** Lets the event loop run when the slice is over (a check of the clock otherwise); false once the budget is spent. */
	go(): boolean | Promise<boolean> {
		const now = performance.now();
		if (now - this.started < SLICE_MS) return this.spent + (now - this.started) < this.maxMs;
		this.spent += now - this.started;
		return new Promise((resolve) =>
			setImmediate(() => {
				this.started = performance.now();
				resolve(this.spent < this.maxMs);
			}),
		);
	}
	get ms(): number {
		return this.spent + (performance.now() - this.started);
	}
	/** Waits for `promise` without counting the wait as work (git listing what it ignores). */
	async wait<T>(promise: Promise<T>): Promise<T> {
		this.spent += performance.now() - this.started;
		try {
			return await promise;
		} finally {
			this.started = performance.now();
		}
	}
}

const statOf = (path: string): Stats | undefined => {
	try {
		return lstatSync(path, { throwIfNoEntry: false });
	} catch {
		return undefined;
	}
};

const relOf = (dir: string, name: string) => (dir === "" ? name : `${dir}/${name}`);
const parentOf = (dir: string) => (dir.includes("/") ? dir.slice(0, dir.lastIndexOf("/")) : "");
const baseOf = (dir: string) => dir.slice(dir.lastIndexOf("/") + 1);
const count = (n: number) => n.toLocaleString("en");

/**
 * What bash commands change under one working directory, seen by stat alone and bounded (MAX_SCAN_FILES files,
 * MAX_SCAN_MS of work). Before a command: the tree's names (a folder whose status did not change keeps its last
 * listing, so this costs one stat per folder) and a tick of the file system's clock. After it, one stat per file: a
 * file whose status changed at or after the tick was changed while the command ran; a name that appeared was created,
 * one that went was deleted. In a git work tree what git ignores is left out; elsewhere `.git` and `node_modules`.
 * Contents are never read.
 */
export class TreeScan {
	private readonly maxFiles: number;
	private readonly maxMs: number;
	/** The working directory with a "/" after it. */
	private readonly root: string;
	private folders = new Map<string, Folder>();
	private ignored: Ignored | null = null;
	private git: boolean | undefined;
	private ignoresStale = true;

	constructor(
		private readonly cwd: string,
		options: TreeScanOptions = {},
	) {
		this.maxFiles = options.maxFiles ?? MAX_SCAN_FILES;
		this.maxMs = options.maxMs ?? MAX_SCAN_MS;
		this.root = cwd.endsWith(sep) ? cwd : `${cwd}${sep}`;
	}

	/** The tree's names now and the clock's tick, just before the command starts. */
	async before(): Promise<Baseline> {
		const work = new Work(this.maxMs);
		const listed = await this.listed(work, this.folders);
		this.folders = listed.folders;
		clock ??= new FsClock();
		const since = clock.tick();
		return { folders: listed.folders, since, spentMs: work.ms, ...(listed.cut ? { cut: listed.cut } : {}) };
	}

	/** What the command changed since `baseline`: undefined when nothing (and the scan saw everything it should). */
	async after(baseline: Baseline): Promise<BashFileChanges | undefined> {
		const work = new Work(Math.max(0, this.maxMs - baseline.spentMs));
		const listed = await this.listed(work, baseline.folders);
		this.folders = listed.folders;
		const changes: BashFileChange[] = [];
		// Names first (no stat): what appeared and what went. The files of folders the command touched (a new name, a
		// rename) are looked at first: when the time cap cuts the scan, they are the likeliest to have changed.
		const touched: string[] = [];
		const others: string[] = [];
		for (const [dir, folder] of listed.folders) {
			const before = baseline.folders.get(dir);
			const old = new Set(before?.files ?? []);
			const kept = before && before.ctimeMs === folder.ctimeMs ? others : touched;
			for (const name of folder.files) {
				if (old.has(name)) kept.push(relOf(dir, name));
				else changes.push({ path: relOf(dir, name), how: "created" });
			}
			const now = new Set(folder.files);
			for (const name of before?.files ?? [])
				if (!now.has(name)) changes.push({ path: relOf(dir, name), how: "deleted" });
		}
		for (const [dir, folder] of baseline.folders) {
			if (!this.gone(dir, listed.folders)) continue;
			for (const name of folder.files) changes.push({ path: relOf(dir, name), how: "deleted" });
		}
		// Then one stat per file that was there before: changed while the command ran?
		const since = this.coarse() ? Math.floor(baseline.since / 1000) * 1000 : baseline.since;
		let looked = 0;
		const kept = touched.concat(others);
		for (const rel of kept) {
			const go = work.go();
			if (!(go === true || (go !== false && (await go)))) break;
			looked++;
			// Concatenated, not joined: the tree's paths are clean already, and this is the loop that costs.
			if ((statOf(`${this.root}${rel}`)?.ctimeMs ?? 0) >= since) changes.push({ path: rel, how: "changed" });
		}
		const cuts = [baseline.cut ?? listed.cut];
		if (looked < kept.length) {
			cuts.push(
				`stopped after ${Math.round(baseline.spentMs + work.ms)} ms, ${count(looked)} of ${count(kept.length)} files looked at: changes to the others are not seen`,
			);
		}
		const cut = cuts.filter(Boolean).join("; ");
		if (changes.length === 0 && !cut) return undefined;
		changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
		return { paths: changes.slice(0, MAX_LISTED_CHANGES), total: changes.length, ...(cut ? { cut } : {}) };
	}

	/** Whether folder `dir` is gone: its parent is listed without it (or is gone itself). */
	private gone(dir: string, listed: ReadonlyMap<string, Folder>): boolean {
		if (listed.has(dir)) return false;
		if (dir === "") return statOf(this.cwd) === undefined;
		const parent = listed.get(parentOf(dir));
		return parent ? !parent.dirs.includes(baseOf(dir)) : this.gone(parentOf(dir), listed);
	}

	/** Whether the tree's file system keeps whole seconds only (its times are then compared by the second). */
	private coarse(): boolean {
		const stats = statOf(this.cwd);
		return stats !== undefined && stats.ctimeMs % 1000 === 0 && stats.mtimeMs % 1000 === 0;
	}

	/**
	 * The tree listed against `known`; when a name appeared that what git ignores was listed before (one made since),
	 * git is asked again and the tree listed once more, so an ignored folder just made is never walked.
	 */
	private async listed(work: Work, known: ReadonlyMap<string, Folder>): Promise<Listing> {
		const reloaded = await work.wait(this.loadIgnores());
		const first = await this.list(work, known, !reloaded);
		if (!first.fresh) return first;
		this.ignoresStale = true;
		await work.wait(this.loadIgnores());
		return this.list(work, known, false);
	}

	/** In a git work tree, what git ignores (asked once, and again when new names appear); true when asked now. */
	private async loadIgnores(): Promise<boolean> {
		this.git ??= gitRoot(this.cwd) !== undefined;
		if (!this.git || !this.ignoresStale) return false;
		this.ignored = await gitIgnored(this.cwd);
		this.ignoresStale = false;
		return true;
	}

	private skipped(rel: string, name: string, dir: boolean): boolean {
		if (name === ".git") return true;
		if (!this.ignored) return dir && SKIP_OUTSIDE_GIT.has(name);
		return this.ignored.has(dir ? `${rel}/` : rel);
	}

	/**
	 * The folders of the tree, depth first in name order, each read again only when its status changed since the
	 * listing in `known`. Stops before the folder that would pass maxFiles files. `fresh` (when `watch`): a name was
	 * met that `known` did not have, in a git work tree: what git ignores may not know it yet. New folders are entered
	 * only when nothing is fresh.
	 */
	private async list(work: Work, known: ReadonlyMap<string, Folder>, watch: boolean): Promise<Listing> {
		const folders = new Map<string, Folder>();
		let files = 0;
		let fresh = false;
		const stack = [""];
		for (let dir = stack.pop(); dir !== undefined; dir = stack.pop()) {
			const go = work.go();
			if (go !== true && go !== false) await go;
			const stats = statOf(dir === "" ? this.cwd : join(this.cwd, dir));
			if (!stats?.isDirectory()) continue;
			let folder = known.get(dir);
			const old = folder;
			const recent = Date.now() - stats.ctimeMs < RECENT_MS;
			if (!folder || recent || folder.ino !== stats.ino || folder.ctimeMs !== stats.ctimeMs) {
				folder = this.read(dir, stats);
				if (!folder) continue;
			}
			// Folders are bounded too (a tree of empty folders), by the same number.
			if (files + folder.files.length > this.maxFiles || folders.size >= this.maxFiles) {
				const cut = `saw ${count(files)} files of a larger tree (the scan's cap is ${count(this.maxFiles)} files): changes beyond are not seen`;
				return { folders, fresh, cut };
			}
			if (watch && this.ignored && folder !== old) fresh ||= isFresh(folder, old);
			files += folder.files.length;
			folders.set(dir, folder);
			// A new folder is entered once git has said whether it ignores it.
			if (fresh) continue;
			for (let i = folder.dirs.length - 1; i >= 0; i--) stack.push(relOf(dir, folder.dirs[i] as string));
		}
		return { folders, fresh };
	}

	/** A folder's names (sorted; what is skipped left out); undefined when it cannot be read. */
	private read(dir: string, stats: Stats): Folder | undefined {
		let entries: Dirent[];
		try {
			entries = readdirSync(dir === "" ? this.cwd : join(this.cwd, dir), { withFileTypes: true });
		} catch {
			return undefined;
		}
		const files: string[] = [];
		const dirs: string[] = [];
		for (const entry of entries) {
			const isDir = entry.isDirectory();
			if (!this.skipped(relOf(dir, entry.name), entry.name, isDir)) (isDir ? dirs : files).push(entry.name);
		}
		files.sort();
		dirs.sort();
		return { ino: stats.ino, ctimeMs: stats.ctimeMs, files, dirs };
	}
}

/** Whether `folder` has a name its earlier listing did not (no earlier listing: every name is new). */
function isFresh(folder: Folder, old: Folder | undefined): boolean {
	if (!old) return folder.files.length + folder.dirs.length > 0;
	const names = new Set([...old.files, ...old.dirs]);
	return folder.files.some((n) => !names.has(n)) || folder.dirs.some((n) => !names.has(n));
}
