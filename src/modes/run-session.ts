import { resolve } from "node:path";
import { UsageError } from "../errors.js";
import type { Message } from "../llm/types.js";
import {
	buildContext,
	findLatestSession,
	loadSession,
	type ModelRef,
	resolveEntry,
	resolveSession,
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
};

/** The session file to continue, open for appending; one that cannot be written says how to go on without it. */
function openForRun(file: string): SessionWriter {
	try {
		return SessionWriter.open(file);
	} catch (error) {
		if (!(error instanceof SessionError) || error.code !== "io") throw error;
		throw new SessionError(
			`${error.message}; make it writable, or add --no-session to continue it without saving`,
			"io",
		);
	}
}

/** Opens (or creates) the session a run is saved to and rebuilds the model context from its current leaf. */
export function openRunSession(flags: SessionFlags, baseDir: string, cwd: string): RunSession {
	let file: string | undefined;
	const warnings: string[] = [];
	if (flags.session) {
		file = resolveSession(baseDir, flags.session, cwd).file;
	} else if (flags.continue) {
		const skipped: string[] = [];
		const latest = findLatestSession(baseDir, cwd, { onWarning: (w) => skipped.push(w) });
		// A session this gar cannot read is named, not silently passed over.
		const newer = skipped.find((w) => w.includes("written by a newer gar"));
		if (!latest && newer) throw new UsageError(`no session to continue that this gar can read: ${newer}`);
		if (!latest)
			throw new UsageError(`no session to continue in ${cwd} (looked in ${baseDir}); run without -c to start one`);
		file = latest.file;
		warnings.push(...skipped.map((w) => `skipped: ${w}`));
	} else if (flags.at) {
		throw new UsageError("--at needs a session: add --session ID or -c");
	}
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
	const writer = flags.noSession ? null : openForRun(file);
	const session = writer ? writer.session : loadSession(file);
	const recorded = session.header.cwd;
	if (resolve(recorded) !== resolve(cwd)) {
		writer?.close();
		// Its tools would run here while its history speaks of files there: refuse, and say how to go on.
		const id = session.header.id;
		throw new UsageError(
			`session ${id} was recorded in ${recorded}, not in ${cwd}: continue it there (gar --cwd ${recorded} --session ${id}), or start a new session here`,
		);
	}
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
	};
}
