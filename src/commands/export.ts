import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { UsageError } from "../errors.js";
import { type ExportFormat, exportSession, formatOfPath } from "../output/export/export-session.js";
import { writeExport } from "../output/export/write.js";
import { loadSession, resolveEntry, resolveSession } from "../session/index.js";
import { sanitizeForTerminal } from "../term/sanitize.js";

export type ExportOptions = {
	baseDir: string;
	cwd: string;
	/** The last entry of the path (default: the current leaf). */
	at?: string;
	/** Default: from `output`'s extension (.html, .htm), else Markdown. */
	format?: ExportFormat;
	/** The file to write (relative to `cwd`); absent or "-": standard output. */
	output?: string;
	/** Replace `output` when it exists. */
	force?: boolean;
};

export type ExportIo = { stdout: (text: string) => void; stderr: (text: string) => void };

/**
 * `gar export SESSION`: the current path (or the one to `--at`) as Markdown or HTML, to standard output or to `-o
 * FILE`, which is never overwritten without `--force`. Exit 0 when written; a UsageError (exit 2) for an unknown
 * session or entry, an existing file, or a file that cannot be written.
 */
export function exportCommand(target: string, options: ExportOptions, io: ExportIo): number {
	const file = existsSync(target) ? target : resolveSession(options.baseDir, target, options.cwd).file;
	const session = loadSession(file);
	for (const w of session.warnings) io.stderr(`gar: warning: ${sanitizeForTerminal(w)}\n`);
	const leaf = options.at ? resolveEntry(session, options.at) : session.leafId;
	if (leaf === null) throw new UsageError(`${file} has no conversation to export`);
	const format = options.format ?? (options.output ? formatOfPath(options.output) : "md");
	const text = exportSession(session, format, leaf);
	if (options.output === undefined || options.output === "-") {
		io.stdout(text);
		return 0;
	}
	const path = resolve(options.cwd, options.output);
	const result = writeExport(path, text, options.force === true);
	if (result.kind === "exists")
		throw new UsageError(`${path} exists: add --force to overwrite it, or choose another name`);
	if (result.kind === "failed") throw new UsageError(result.error);
	io.stderr(`gar: exported session ${session.header.id} up to ${leaf} to ${sanitizeForTerminal(path)} (${format})\n`);
	return 0;
}
