import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { danglingLink } from "../text/paths.js";
import { type FolderListing, folderPrompts, listFolder, sessionFiles as sessionNames } from "./catalog.js";
import { SessionError, type SessionHeader } from "./format.js";
import { forEachLine, parseHeader, parseJson } from "./lines.js";
import { idFromFileName, sessionDirFor } from "./paths.js";
import { type SessionSummary, summarize } from "./summary.js";

/** The `.jsonl` files of a folder, as paths. */
const sessionFiles = (dir: string): string[] => sessionNames(dir).map((name) => join(dir, name));

/** One session as a picker lists it. Times are ISO strings. */
export type SessionInfo = {
	id: string;
	file: string;
	cwd: string;
	/** The latest `name` entry's name. */
	name?: string;
	createdAt: string;
	/** The file's modification time. */
	modifiedAt: string;
	/** Entry lines (all types). */
	entries: number;
	/** User and assistant entries. */
	messages: number;
	/** The first prompt the person typed, whitespace collapsed, at most ~80 characters. */
	firstPrompt?: string;
	/** The latest prompt the person typed, the same way. */
	latestPrompt?: string;
	/** Branches: the ends of the session's tree (1 for a conversation that never branched, 0 before any entry). */
	branches: number;
	/** The labels set on entries, in the order they were set. */
	labels: string[];
	/** The provider and model of the latest reply (or model change). */
	provider?: string;
	model?: string;
	/** What the replies and summaries recorded in the file cost (null: some price unknown). */
	costUsd: number | null;
	/** Lines that are not entries (damaged, or torn by a crash). */
	damaged: number;
	/**
	 * Tokens of the context as of the last request (its reported input, cache and output) or of the last compaction
	 * after it; absent before any request.
	 */
	contextTokens?: number;
	/** The model's context window in the last run (null: unknown); absent before any run. */
	contextWindow?: number | null;
	/** Set on a fork (`gar fork`): the session and entry it was copied from. */
	forkOf?: { session: string; entry: string };
};

export type ListOptions = { onWarning?: (message: string) => void };

/** A summary as a listing shows it. */
export function infoOf(file: string, mtimeMs: number, s: SessionSummary): SessionInfo {
	return {
		id: s.id,
		file,
		cwd: s.cwd,
		...(s.name === undefined ? {} : { name: s.name }),
		createdAt: s.createdAt,
		modifiedAt: new Date(mtimeMs).toISOString(),
		entries: s.entries,
		messages: s.messages,
		...(s.firstPrompt === undefined ? {} : { firstPrompt: s.firstPrompt }),
		...(s.latestPrompt === undefined ? {} : { latestPrompt: s.latestPrompt }),
		branches: s.leaves.length,
		labels: Object.values(s.labels),
		...(s.provider === undefined ? {} : { provider: s.provider }),
		...(s.model === undefined ? {} : { model: s.model }),
		costUsd: s.costUsd,
		damaged: s.damaged,
		...(s.contextTokens === undefined ? {} : { contextTokens: s.contextTokens }),
		...(s.contextWindow === undefined ? {} : { contextWindow: s.contextWindow }),
		...(s.forkOf ? { forkOf: s.forkOf } : {}),
	};
}

/**
 * Summarises one session file by reading it once (no index): only line 1, name, label, user and small record lines
 * are parsed. Read-only. Throws SessionError for a file that is not a session or has a newer major format.
 */
export function readSessionInfo(file: string): SessionInfo {
	const { summary } = summarize(file);
	return infoOf(file, statSync(file).mtimeMs, summary);
}

/** Line 1 of a session file, read alone. Throws SessionError as loadSession does for a bad or newer header. */
export function readHeader(file: string): SessionHeader {
	let header: SessionHeader | undefined;
	let failure: unknown;
	forEachLine(file, (buf, start, end) => {
		try {
			header = parseHeader(parseJson(buf.toString("utf8", start, end)), file);
		} catch (error) {
			failure = error;
		}
		return false;
	});
	if (failure) throw failure;
	if (!header) throw new SessionError(`${file} is empty: not a gar session`, "bad_header");
	return header;
}

function projectDirs(baseDir: string): string[] {
	if (!existsSync(baseDir)) return [];
	return readdirSync(baseDir, { withFileTypes: true })
		.filter((d) => d.isDirectory())
		.map((d) => join(baseDir, d.name));
}

function byNewest(a: { file: string; mtimeMs: number }, b: { file: string; mtimeMs: number }): number {
	return b.mtimeMs - a.mtimeMs || (b.file < a.file ? -1 : b.file > a.file ? 1 : 0);
}

/** What a listing of one project (or all) found: sessions and unreadable files, each newest first. */
export type Catalog = FolderListing;

/**
 * The session files of one project (`cwd` given) or of all projects under `baseDir`, through each folder's index
 * (catalog.ts): newest (by modification) first, with the files that cannot be listed and why. Never reads a file
 * whose size and modification time the index already knows. The summaries come without their prompts (readPrompts).
 */
export function readCatalog(baseDir: string, cwd?: string): Catalog {
	const dirs = cwd === undefined ? projectDirs(baseDir) : [sessionDirFor(baseDir, cwd)];
	const all: Catalog = { sessions: [], unreadable: [] };
	for (const dir of dirs) {
		const { sessions, unreadable } = listFolder(dir);
		all.sessions.push(...sessions);
		all.unreadable.push(...unreadable);
	}
	all.sessions.sort(byNewest);
	all.unreadable.sort(byNewest);
	return all;
}

/**
 * The prompts' text of the sessions of one project (`cwd` given) or of all, by file, as the last listing stored it
 * (readCatalog leaves it out: only a search needs it).
 */
export function readPrompts(baseDir: string, cwd?: string): Map<string, string[]> {
	const dirs = cwd === undefined ? projectDirs(baseDir) : [sessionDirFor(baseDir, cwd)];
	return new Map(dirs.flatMap((dir) => [...folderPrompts(dir)]));
}

/**
 * The sessions of one project (`cwd` given) or of all projects under `baseDir`, newest (by modification) first.
 * Files that cannot be read are left out and reported to `onWarning`. Read-only for session files (the index beside
 * them is kept up to date).
 */
export function listSessions(baseDir: string, cwd?: string, options: ListOptions = {}): SessionInfo[] {
	const { sessions, unreadable } = readCatalog(baseDir, cwd);
	for (const u of unreadable) options.onWarning?.(u.reason);
	return sessions.map((s) => infoOf(s.file, s.mtimeMs, s.summary));
}

/** The most recently modified session of `cwd` that has at least one message (`gar -c`); undefined when none. */
export function findLatestSession(baseDir: string, cwd: string, options: ListOptions = {}): SessionInfo | undefined {
	const { sessions, unreadable } = readCatalog(baseDir, cwd);
	const latest = sessions.find((s) => s.summary.messages > 0);
	// Files newer than the one chosen that could not be read are named, not passed over in silence.
	for (const u of unreadable) if (!latest || byNewest(u, latest) < 0) options.onWarning?.(u.reason);
	return latest && infoOf(latest.file, latest.mtimeMs, latest.summary);
}

export type ResolvedSession = {
	file: string;
	id: string /** In the folder of `cwd` (false when no cwd). */;
	inProject: boolean;
};

function looksLikePath(text: string): boolean {
	return text.includes("/") || text.includes("\\") || text.endsWith(".jsonl");
}

function matchIn(files: string[], wanted: string): { file: string; id: string }[] {
	const all = files.flatMap((file) => {
		const id = idFromFileName(file);
		return id?.startsWith(wanted) ? [{ file, id }] : [];
	});
	const exact = all.filter((m) => m.id === wanted);
	return exact.length > 0 ? exact : all;
}

/**
 * A session from a path or an id prefix. A prefix is looked up in the project of `cwd` first, then in every
 * project. Throws SessionError "ambiguous" (listing the candidates) or "not_found".
 */
export function resolveSession(baseDir: string, idOrPath: string, cwd?: string): ResolvedSession {
	const projectDir = cwd === undefined ? undefined : sessionDirFor(baseDir, cwd);
	if (looksLikePath(idOrPath)) {
		const file = resolve(idOrPath);
		if (!existsSync(file)) {
			const link = danglingLink(file);
			throw new SessionError(`no session file ${file}${link === undefined ? "" : `: ${link}`}`, "not_found");
		}
		const { id } = readHeader(file);
		return { file, id, inProject: projectDir !== undefined && dirname(file) === resolve(projectDir) };
	}
	const wanted = idOrPath.trim().toLowerCase();
	if (wanted === "") throw new SessionError("a session id is empty", "invalid");
	const scopes = projectDir === undefined ? [] : [sessionFiles(projectDir)];
	scopes.push(projectDirs(baseDir).flatMap(sessionFiles));
	for (const [index, files] of scopes.entries()) {
		const matches = matchIn(files, wanted);
		const [only, ...others] = matches;
		if (only === undefined) continue;
		if (others.length === 0) return { ...only, inProject: projectDir !== undefined && index === 0 };
		const listed = matches.slice(0, 10).map((m) => `  ${m.id}  ${m.file}`);
		throw new SessionError(
			`session id "${idOrPath}" is ambiguous: ${matches.length} sessions match — type more characters\n${listed.join("\n")}`,
			"ambiguous",
		);
	}
	const where = projectDir === undefined ? `under ${baseDir}` : `in ${projectDir} or any project under ${baseDir}`;
	throw new SessionError(`no session matches "${idOrPath}" (looked ${where})`, "not_found");
}
