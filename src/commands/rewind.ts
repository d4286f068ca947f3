import { UsageError } from "../errors.js";
import { reportJson, reportText } from "../rewind/report.js";
import { RewindBusyError, type RewindMode, type RewindReport } from "../rewind/rewind.js";
import { rewindFile } from "../rewind/session-file.js";
import { resolveSession } from "../session/index.js";
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
