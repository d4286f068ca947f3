import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { danglingLink } from "../text/paths.js";
import { SessionError, type SessionHeader } from "./format.js";
import { forEachLine, parseEntry, parseHeader, parseJson } from "./lines.js";
import { idFromFileName, sessionDirFor } from "./paths.js";

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
	/** The first user message, whitespace collapsed, at most ~80 characters. */
	firstPrompt?: string;
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

const PREFIX = Buffer.from('{"type":"');
const QUOTE = 34;
const CLOSE_BRACE = 125;
const PROMPT_CHARS = 80;
const FAILED_REQUEST = Buffer.from('"stopReason":"error"');

/**
 * An entry line's type without parsing the line when it starts the way gar writes it (`{"type":"…"` first and
 * `}` last); otherwise the line is parsed. Undefined for a line that is not an entry.
 */
function sniffType(buf: Buffer, start: number, end: number): string | undefined {
	const head = start + PREFIX.length;
	if (end > head && buf[end - 1] === CLOSE_BRACE && buf.compare(PREFIX, 0, PREFIX.length, start, head) === 0) {
		const quote = buf.indexOf(QUOTE, head);
		if (quote !== -1 && quote < end && quote - head <= 32) return buf.toString("latin1", head, quote);
	}
	return parseEntry(parseJson(buf.toString("utf8", start, end)))?.type;
}

function oneLine(text: string): string {
	const flat = text.replace(/\s+/g, " ").trim();
	return flat.length > PROMPT_CHARS ? `${flat.slice(0, PROMPT_CHARS - 1)}…` : flat;
}

/**
 * Summarises one session file with a fast line scan: only line 1, name lines and the first user line are parsed.
 * Read-only. Throws SessionError for a file that is not a session or has a newer major format.
 */
export function readSessionInfo(file: string): SessionInfo {
	let header: SessionHeader | undefined;
	let entries = 0;
	let messages = 0;
	let name: string | undefined;
	let firstPrompt: string | undefined;
	// Copies of the last request (or compaction) and run lines, parsed once at the end: both are small.
	let lastContext: Buffer | undefined;
	let lastRun: Buffer | undefined;
	forEachLine(file, (buf, start, end) => {
		if (!header) {
			header = parseHeader(parseJson(buf.toString("utf8", start, end)), file);
			return;
		}
		const type = sniffType(buf, start, end);
		if (type === undefined) return;
		entries++;
		if (type === "user" || type === "assistant") messages++;
		// A failed request reports no usage: the context is then the one before it.
		const failed = type === "request" && buf.subarray(start, end).includes(FAILED_REQUEST);
		if ((type === "request" && !failed) || type === "compaction") lastContext = Buffer.from(buf.subarray(start, end));
		else if (type === "run") lastRun = Buffer.from(buf.subarray(start, end));
		if ((type === "name" || (type === "user" && firstPrompt === undefined)) && end - start < 1 << 20) {
			const entry = parseEntry(parseJson(buf.toString("utf8", start, end)));
			if (entry?.type === "name") name = entry.name;
			if (entry?.type === "user") firstPrompt = oneLine(entry.content);
		}
		return;
	});
	if (!header) throw new SessionError(`${file} is empty: not a gar session`, "bad_header");
	const stat = statSync(file);
	const context = lastContext && parseEntry(parseJson(lastContext.toString("utf8")));
	const run = lastRun && parseEntry(parseJson(lastRun.toString("utf8")));
	let contextTokens: number | undefined;
	if (context?.type === "request") {
		const { input, output, cacheRead, cacheWrite } = context.usage;
		contextTokens = input + output + cacheRead + cacheWrite;
	} else if (context?.type === "compaction") contextTokens = context.tokensAfter;
	return {
		id: header.id,
		file,
		cwd: header.cwd,
		...(name === undefined ? {} : { name }),
		createdAt: header.createdAt,
		modifiedAt: stat.mtime.toISOString(),
		entries,
		messages,
		...(firstPrompt === undefined ? {} : { firstPrompt }),
		...(contextTokens === undefined ? {} : { contextTokens }),
		...(run?.type === "run" ? { contextWindow: run.contextWindow ?? null } : {}),
		...(header.parent ? { forkOf: { session: header.parent.session, entry: header.parent.entry } } : {}),
	};
}

function sessionFiles(dir: string): string[] {
	if (!existsSync(dir)) return [];
	return readdirSync(dir, { withFileTypes: true })
		.filter((d) => d.isFile() && d.name.endsWith(".jsonl"))
		.map((d) => join(dir, d.name));
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

/**
 * The sessions of one project (`cwd` given) or of all projects under `baseDir`, newest (by modification) first.
 * Files that cannot be read are skipped and reported to `onWarning`. Read-only.
 */
export function listSessions(baseDir: string, cwd?: string, options: ListOptions = {}): SessionInfo[] {
	const dirs = cwd === undefined ? projectDirs(baseDir) : [sessionDirFor(baseDir, cwd)];
	const infos: { info: SessionInfo; file: string; mtimeMs: number }[] = [];
	for (const file of dirs.flatMap(sessionFiles)) {
		try {
			const info = readSessionInfo(file);
			infos.push({ info, file, mtimeMs: Date.parse(info.modifiedAt) });
		} catch (error) {
			options.onWarning?.(error instanceof Error ? error.message : String(error));
		}
	}
	return infos.sort(byNewest).map((i) => i.info);
}

/** The most recently modified session of `cwd` that has at least one message (`gar -c`); undefined when none. */
export function findLatestSession(baseDir: string, cwd: string, options: ListOptions = {}): SessionInfo | undefined {
	const files = sessionFiles(sessionDirFor(baseDir, cwd))
		.map((file) => ({ file, mtimeMs: statSync(file).mtimeMs }))
		.sort(byNewest);
	for (const { file } of files) {
		try {
			const info = readSessionInfo(file);
			if (info.messages > 0) return info;
		} catch (error) {
			options.onWarning?.(error instanceof Error ? error.message : String(error));
		}
	}
	return undefined;
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
		const info = readSessionInfo(file);
		return { file, id: info.id, inProject: projectDir !== undefined && dirname(file) === resolve(projectDir) };
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
