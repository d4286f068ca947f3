import { UsageError } from "../errors.js";
import {
	forkSession,
	listSessions,
	listTrash,
	loadSession,
	resolveEntry,
	resolveSession,
	restoreFromTrash,
	type SessionInfo,
	SessionWriter,
} from "../session/index.js";
import { sanitizeForTerminal } from "../term/sanitize.js";
import { sessionTitle } from "../view/session-name.js";

export type SessionsContext = {
	baseDir: string;
	cwd: string;
	/** Where the picker moves deleted sessions (`gar sessions restore`). */
	trashDir?: string;
	write: (text: string) => void;
};

function shortDate(iso: string): string {
	const d = new Date(iso);
	const pad = (n: number) => String(n).padStart(2, "0");
	return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** Text for a person's terminal: names, prompts and paths come from session files anyone could have written. */
function say(ctx: SessionsContext, text: string): void {
	ctx.write(sanitizeForTerminal(text));
}

/** One table cell: controls shown visibly, line breaks and tabs as spaces so the row stays one line. */
function cell(text: string): string {
	return sanitizeForTerminal(text).replace(/[\t\r\n]+/g, " ");
}

function clip(text: string, width: number): string {
	if (width <= 1) return "";
	return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

/** A project folder for a table cell: the home folder as ~, long paths cut from the left (the end names it). */
function projectCell(cwd: string, home: string): string {
	const shown = home && (cwd === home || cwd.startsWith(`${home}/`)) ? `~${cwd.slice(home.length)}` : cwd;
	return shown.length > 32 ? `…${shown.slice(-31)}` : shown;
}

/**
 * The session table: id, name (unnamed: one made from the first prompt), date, entries, first prompt (with
 * `project`, the session's folder after the date); the prompt column takes what width is left and starts with
 * `(fork of ID)` for a fork.
 */
export function formatSessionTable(
	sessions: SessionInfo[],
	columns: number,
	options: { project?: boolean; home?: string } = {},
): string {
	const project = options.project ?? false;
	const rows = sessions.map((s) =>
		[
			s.id,
			sessionTitle(s.name, s.firstPrompt) ?? "",
			shortDate(s.modifiedAt),
			...(project ? [projectCell(s.cwd, options.home ?? "")] : []),
			String(s.entries),
			`${s.forkOf ? `(fork of ${s.forkOf.session}) ` : ""}${s.firstPrompt ?? ""}`,
		].map(cell),
	);
	const head = ["ID", "NAME", "DATE", ...(project ? ["PROJECT"] : []), "ENTRIES", "FIRST PROMPT"];
	const last = head.length - 1;
	const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
	widths[1] = Math.min(widths[1] ?? 0, 24);
	const fixed = widths.slice(0, last).reduce((a, b) => a + b + 2, 0);
	widths[last] = Math.max(12, columns - fixed);
	const line = (cells: string[]) =>
		cells
			.map((c, i) => (i === last - 1 ? c.padStart(widths[i] ?? 0) : clip(c, widths[i] ?? 0).padEnd(widths[i] ?? 0)))
			.join("  ")
			.trimEnd();
	return [line(head), ...rows.map(line)].join("\n");
}

/** `gar sessions`: this directory's sessions (all projects with `all`), newest first. */
export function sessionsCommand(ctx: SessionsContext, options: { json?: boolean; all?: boolean }): number {
	const warnings: string[] = [];
	const sessions = listSessions(ctx.baseDir, options.all ? undefined : ctx.cwd, { onWarning: (w) => warnings.push(w) });
	for (const w of warnings) process.stderr.write(sanitizeForTerminal(`gar: warning: ${w}\n`));
	if (options.json) {
		ctx.write(`${JSON.stringify(sessions, null, 2)}\n`);
	} else if (sessions.length === 0) {
		say(ctx, `no sessions${options.all ? "" : ` for ${ctx.cwd} (gar sessions --all lists every project)`}\n`);
	} else {
		const table = formatSessionTable(sessions, process.stdout.columns ?? 120, {
			project: options.all ?? false,
			home: process.env.HOME ?? "",
		});
		ctx.write(`${table}\n`);
	}
	return 0;
}

/** `gar fork ID [--at ENTRY]`: copies a branch into a new session file; the source is untouched. */
export function forkCommand(ctx: SessionsContext, id: string, options: { at?: string; json?: boolean }): number {
	const source = resolveSession(ctx.baseDir, id, ctx.cwd);
	const file = forkSession(source.file, options.at, { dir: ctx.baseDir });
	const fork = loadSession(file);
	if (options.json) ctx.write(`${JSON.stringify({ id: fork.header.id, file, parent: fork.header.parent })}\n`);
	else
		say(
			ctx,
			`forked ${source.id} into ${fork.header.id}\n${file}\ncontinue it with: gar --session ${fork.header.id}\n`,
		);
	return 0;
}

/** `gar label ID ENTRY [TEXT]`: labels an entry (no text clears the label). */
export function labelCommand(ctx: SessionsContext, id: string, entry: string, text: string | undefined): number {
	const writer = SessionWriter.open(resolveSession(ctx.baseDir, id, ctx.cwd).file);
	try {
		const target = resolveEntry(writer.session, entry);
		writer.label(target, text?.trim() ? text.trim() : null);
		say(ctx, text?.trim() ? `labelled ${target}: ${text.trim()}\n` : `cleared the label of ${target}\n`);
	} finally {
		writer.close();
	}
	return 0;
}

/** `gar name ID NAME`: names a session (the latest name wins). */
export function nameCommand(ctx: SessionsContext, id: string, name: string): number {
	if (!name.trim()) throw new UsageError("name: the name is empty");
	const writer = SessionWriter.open(resolveSession(ctx.baseDir, id, ctx.cwd).file);
	try {
		writer.setName(name.trim());
	} finally {
		writer.close();
	}
	say(ctx, `named ${writer.session.header.id}: ${name.trim()}\n`);
	return 0;
}

/**
 * `gar sessions restore [ID]`: moves a session the picker deleted back to where it was; without an id, lists what
 * the trash holds.
 */
export function restoreCommand(ctx: SessionsContext, id: string | undefined): number {
	const trash = ctx.trashDir;
	if (!trash) throw new UsageError("restore: gar's data folder is not known");
	if (id === undefined) {
		const held = listTrash(trash);
		if (held.length === 0) {
			say(ctx, `the trash is empty (${trash})\n`);
			return 0;
		}
		const rows = held.map((t) => `${t.id}  deleted ${shortDate(t.deletedAt)}  from ${t.from}`);
		say(ctx, `${rows.join("\n")}\nrestore one with: gar sessions restore ID\n`);
		return 0;
	}
	const restored = restoreFromTrash(id, trash);
	say(ctx, `restored ${restored.id} to ${restored.from}\n`);
	return 0;
}
