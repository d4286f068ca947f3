import {
	changedFiles,
	changeSummary,
	changesOf,
	changeTotals,
	endedCalls,
	fileDiff,
	shownPath,
} from "../session/changes.js";
import { loadSession, resolveSession } from "../session/index.js";
import { sanitizeForTerminal } from "../term/sanitize.js";
import type { SessionsContext } from "./sessions.js";

/**
 * `gar changes SESSION`: every file the session's writes and edits changed, with their counts, then each file's diff
 * from before the session to now (`stat`: the list alone); `json`: the same as one document.
 */
export function changesCommand(ctx: SessionsContext, id: string, options: { json?: boolean; stat?: boolean }): number {
	const file = resolveSession(ctx.baseDir, id, ctx.cwd).file;
	const session = loadSession(file);
	const cwd = session.header.cwd;
	const files = changedFiles(changesOf(endedCalls(session.entries)));
	const totals = changeTotals(files);
	if (options.json) {
		const shown = files.map((f) => {
			const { diff, note } = fileDiff(f, shownPath(f.path, cwd));
			const changes = f.changes.map(({ by, callId, added, removed }) => ({ by, callId, added, removed }));
			return { path: f.path, added: f.added, removed: f.removed, changes, diff, ...(note ? { note } : {}) };
		});
		ctx.write(`${JSON.stringify({ session: session.header.id, cwd, totals, files: shown }, null, 2)}\n`);
		return 0;
	}
	const head = `session ${session.header.id} · ${totals.files} file${totals.files === 1 ? "" : "s"} changed · +${totals.added} −${totals.removed}`;
	const names = files.map((f) => shownPath(f.path, cwd));
	const width = Math.max(0, ...names.map((name) => name.length));
	const lines = [head, ...files.map((f, i) => `  ${(names[i] ?? "").padEnd(width)}  ${changeSummary(f)}`)];
	if (files.length === 0) lines.push("  (no file was written or edited)");
	if (!options.stat) {
		files.forEach((f, i) => {
			const { diff, note } = fileDiff(f, names[i] ?? f.path);
			lines.push("", `${names[i]}${note ? ` — ${note}` : ""}`, diff.replace(/\n$/, ""));
		});
	}
	ctx.write(`${sanitizeForTerminal(lines.join("\n"))}\n`);
	return 0;
}
