import { resolve } from "node:path";
import { UsageError } from "../errors.js";
import type { Message } from "../llm/types.js";
import type { RewindReport } from "../rewind/rewind.js";
import { rewindFile } from "../rewind/session-file.js";
import {
	buildContext,
	findLatestSession,
	loadSession,
	type ModelRef,
	resolveEntry,
	resolveSession,
	type Session,
	SessionError,
	SessionWriter,
} from "../session/index.js";

/** How a run picks its session: new (default), the latest of this directory, or one by id, maybe at an entry. */
export type SessionFlags = {
	continue?: boolean;
	session?: string;
	/** Continue from this entry (id or prefix): the next message becomes its child; nothing is deleted. */
	at?: string;
	/** Save nothing; a continued session's history is still read. */
	noSession?: boolean;
	/** -p --rewind-to ENTRY [--files]: rewind the session (leaf and files, or the files only) before the run. */
	rewindTo?: string;
	rewindFilesOnly?: boolean;
};

export type RunSession = {
	/**
	 * The session to save to, masking `secrets` in every line; null with --no-session. A new session's file is
	 * created only by `open()`; with `lazy`, only with its first entry.
	 */
	open: (secrets?: readonly string[], lazy?: boolean) => SessionWriter | null;
	history: Message[];
	model?: ModelRef;
	warnings: string[];
	/** What --rewind-to did (everything: a skip throws RewindRefusedError instead), and in which session. */
	rewound?: RewindReport & { session: string };
};

/** --rewind-to skipped a file (a conflict) or found one it cannot restore: the run does not start. */
export class RewindRefusedError extends Error {
	override readonly name = "RewindRefusedError";
	constructor(
		readonly report: RewindReport,
		readonly session: string,
	) {
		super("the rewind before the run skipped files, so the run did not start");
	}
}

/** The session file to continue, open for appending; one that cannot be written says how to go on without it. */
function openForRun(file: string, loaded?: Session): SessionWriter {
	try {
		return SessionWriter.open(file, loaded ? { session: loaded } : {});
	} catch (error) {
		if (!(error instanceof SessionError) || error.code !== "io") throw error;
		throw new SessionError(
			`${error.message}; make it writable, or add --no-session to continue it without saving`,
			"io",
		);
	}
}

/**
 * --rewind-to: rewinds the session's file (holding its lock, with a writer of its own; the run opens the file again
 * after). Throws RewindRefusedError when a file was skipped, so the run does not start.
 */
function rewindBeforeRun(file: string, id: string, entry: string, filesOnly: boolean, cwd: string): RewindReport {
	const report = rewindFile(file, entry, filesOnly ? "files" : "both", cwd, false);
	if (!report.ok) throw new RewindRefusedError(report, id);
	return report;
}

/**
 * The session file a run continues (--session, -c), found without reading it; `file` undefined: a new session.
 * `session`: the file as just loaded by the caller (the app reads it sliced), so it is not read again.
 */
export type ResolvedRunSession = { file?: string; warnings: string[]; session?: Session };

/**
 * Which session file the flags name (--session ID|PATH, or -c: the latest of `cwd`), without loading it. Throws
 * UsageError when there is none to continue, or --at/--rewind-to without a session.
 */
export function resolveRunSession(flags: SessionFlags, baseDir: string, cwd: string): ResolvedRunSession {
	if (flags.session) return { file: resolveSession(baseDir, flags.session, cwd).file, warnings: [] };
	if (flags.continue) {
		const skipped: string[] = [];
		const latest = findLatestSession(baseDir, cwd, { onWarning: (w) => skipped.push(w) });
		// A session this gar cannot read is named, not silently passed over.
		const newer = skipped.find((w) => w.includes("written by a newer gar"));
		if (!latest && newer) throw new UsageError(`no session to continue that this gar can read: ${newer}`);
		if (!latest)
			throw new UsageError(`no session to continue in ${cwd} (looked in ${baseDir}); run without -c to start one`);
		return { file: latest.file, warnings: skipped.map((w) => `skipped: ${w}`) };
	}
	if (flags.at || flags.rewindTo) {
		throw new UsageError(`${flags.at ? "--at" : "--rewind-to"} needs a session: add --session ID or -c`);
	}
	return { warnings: [] };
}

/**
 * Opens (or creates) the session a run is saved to and rebuilds the model context from its current leaf; `resolved`:
 * what resolveRunSession found for these flags (found again when not given).
 */
export function openRunSession(
	flags: SessionFlags,
	baseDir: string,
	cwd: string,
	resolved: ResolvedRunSession = resolveRunSession(flags, baseDir, cwd),
): RunSession {
	const { file, warnings, session: loaded } = resolved;
	if (!file) {
		// Created on demand, so a run that fails to start (a missing key, say) leaves no empty session behind.
		return {
			open: (secrets, lazy) =>
				flags.noSession
					? null
					: SessionWriter.create({ dir: baseDir, cwd, secrets: secrets ?? [], lazy: lazy ?? false }),
			history: [],
			warnings: [],
		};
	}
	if (flags.rewindTo && flags.noSession) {
		throw new UsageError("--rewind-to records the rewind in the session: leave out --no-session");
	}
	let writer = flags.noSession ? null : openForRun(file, loaded);
	const { cwd: recorded, id } = (writer ? writer.session : (loaded ?? loadSession(file))).header;
	if (resolve(recorded) !== resolve(cwd)) {
		writer?.close();
		// Its tools would run here while its history speaks of files there: refuse, and say how to go on.
		throw new UsageError(
			`session ${id} was recorded in ${recorded}, not in ${cwd}: continue it there (gar --cwd ${recorded} --session ${id}), or start a new session here`,
		);
	}
	let rewound: RewindReport | undefined;
	if (flags.rewindTo && writer) {
		writer.close();
		rewound = rewindBeforeRun(file, id, flags.rewindTo, flags.rewindFilesOnly ?? false, cwd);
		writer = openForRun(file);
	}
	const session = writer ? writer.session : (loaded ?? loadSession(file));
	let leaf = session.leafId;
	if (flags.at) {
		leaf = resolveEntry(session, flags.at);
		writer?.moveTo(leaf);
	}
	const context = buildContext(session, leaf);
	return {
		open: (secrets) => {
			writer?.addSecrets(secrets ?? []);
			return writer;
		},
		history: context.messages,
		...(context.model ? { model: context.model } : {}),
		warnings: [...warnings, ...session.warnings],
		...(rewound ? { rewound: { ...rewound, session: id } } : {}),
	};
}
