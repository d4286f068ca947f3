import { resolve } from "node:path";
import { UsageError } from "../errors.js";
import { MODE_WORDS, reportJson, reportLines, reportSummary } from "../rewind/report.js";
import {
	prepareRewind,
	RewindBusyError,
	type RewindMode,
	type RewindReport,
	reportOf,
	rewind,
	withRewindLock,
} from "../rewind/rewind.js";
import { loadSession, resolveEntry, resolveSession, type Session, SessionWriter } from "../session/index.js";
import { sanitizeForTerminal } from "../term/sanitize.js";
import type { SessionsContext } from "./sessions.js";

/** gar rewind's flags: the entry, what moves (one of three), a dry run, JSON. */
export type RewindFlags = {
	to?: string;
	files?: boolean;
	conversation?: boolean;
	both?: boolean;
	dryRun?: boolean;
	json?: boolean;
};

/** What --files, --conversation or --both chose (default both); more than one is a usage error. */
export function rewindModeOf(flags: Pick<RewindFlags, "files" | "conversation" | "both">): RewindMode {
	const given = (["files", "conversation", "both"] as const).filter((mode) => flags[mode]);
	if (given.length > 1) {
		throw new UsageError(`--${given.join(" and --")}: give one of --files, --conversation and --both`);
	}
	return given[0] ?? "both";
}

/** Refuses a session recorded in another folder, as --session does: its paths are that folder's. */
export function checkSessionCwd(session: Session, cwd: string): void {
	const recorded = session.header.cwd;
	if (resolve(recorded) === resolve(cwd)) return;
	const id = session.header.id;
	throw new UsageError(
		`session ${id} was recorded in ${recorded}, not in ${cwd}: rewind it there (gar rewind --cwd ${recorded} ${id} …)`,
	);
}

/**
 * The entry `text` names: an id or a unique prefix of one, or either followed by `^` for its parent (`PROMPT^`: the
 * point before that prompt; the first prompt's parent is the start, null). Throws SessionError when none matches.
 */
export function resolveTarget(session: Session, text: string): string | null {
	const parent = text.trimEnd().endsWith("^");
	const id = resolveEntry(session, parent ? text.trimEnd().slice(0, -1) : text);
	return parent ? (session.node(id)?.parentId ?? null) : id;
}

/**
 * Rewinds the session's file at `file` to `entry` (an id or prefix), holding its lock: the leaf and/or the files,
 * per `mode`. Dry, it reads only (no lock, nothing written). Throws UsageError/SessionError for bad input and
 * RewindBusyError when another gar holds the lock.
 */
export function rewindFile(file: string, entry: string, mode: RewindMode, cwd: string, dryRun: boolean): RewindReport {
	if (dryRun) {
		const session = loadSession(file);
		checkSessionCwd(session, cwd);
		const prepared = prepareRewind(session, { mode, to: resolveTarget(session, entry) });
		return reportOf(prepared, prepared.files, true);
	}
	return withRewindLock(file, () => {
		const writer = SessionWriter.open(file);
		try {
			checkSessionCwd(writer.session, cwd);
			return rewind(writer, { mode, to: resolveTarget(writer.session, entry) });
		} finally {
			writer.close();
		}
	});
}

/** The report as text: a head line, a line per file, the summary. */
export function reportText(report: RewindReport, session: string, cwd: string): string {
	const head = `rewind ${session}: ${MODE_WORDS[report.mode]}, ${report.from ?? "(start)"} → ${report.to ?? "(start)"}`;
	const files =
		report.filesTo === undefined
			? ""
			: ` (files from ${report.filesFrom ?? "(start)"} to ${report.filesTo ?? "(start)"})`;
	const lines = [`${head}${report.mode === "files" ? files : ""}`, ...reportLines(report, cwd).map((l) => `  ${l}`)];
	lines.push(reportSummary(report));
	return `${sanitizeForTerminal(lines.join("\n"))}\n`;
}

/**
 * `gar rewind SESSION --to ENTRY [--files|--conversation|--both] [--dry-run] [--json]`: exit 0 when everything asked
 * was done, 1 when a file was skipped or cannot be restored (or another gar is rewinding it), 2 for bad usage.
 */
export function rewindCommand(
	ctx: SessionsContext & { stderr: (text: string) => void },
	id: string,
	flags: RewindFlags,
): number {
	if (!flags.to)
		throw new UsageError("gar rewind needs --to ENTRY: the entry to go back to (gar show SESSION lists them)");
	const mode = rewindModeOf(flags);
	const { file, id: session } = resolveSession(ctx.baseDir, id, ctx.cwd);
	let report: RewindReport;
	try {
		report = rewindFile(file, flags.to, mode, ctx.cwd, flags.dryRun ?? false);
	} catch (error) {
		if (!(error instanceof RewindBusyError)) throw error;
		ctx.stderr(`gar: ${sanitizeForTerminal(error.message)}\n`);
		return 1;
	}
	if (flags.json) ctx.write(`${JSON.stringify(reportJson(report, session), null, 2)}\n`);
	else ctx.write(reportText(report, session, ctx.cwd));
	return report.ok ? 0 : 1;
}
