import { shownPath } from "../session/changes.js";
import type { RewindEntry, Session } from "../session/index.js";
import { sanitizeForTerminal } from "../term/sanitize.js";
import { plural } from "../text/plural.js";
import type { FileAction } from "./plan.js";
import { interrupted, type RewindMode } from "./records.js";
import type { RewindReport } from "./rewind.js";

export const MODE_WORDS: Readonly<Record<RewindMode, string>> = {
	both: "the conversation and the files",
	conversation: "the conversation only",
	files: "the files only",
};

const DONE: Readonly<Record<FileAction, string>> = {
	restored: "restored",
	removed: "removed",
	created: "made again",
	already: "already so",
};
const DRY: Readonly<Record<FileAction, string>> = {
	restored: "would restore",
	removed: "would remove",
	created: "would make again",
	already: "already so",
};

/** "+3 −1", or "" for a file whose lines are not counted (binary, unchanged). */
export function lineCounts(insertions: number, deletions: number): string {
	if (insertions === 0 && deletions === 0) return "";
	return [insertions > 0 ? `+${insertions}` : "", deletions > 0 ? `−${deletions}` : ""].filter(Boolean).join(" ");
}

/** One line per file and per bash change, as a person reads them; paths relative to `cwd` when inside it. */
export function reportLines(report: RewindReport, cwd: string): string[] {
	const name = (path: string) => shownPath(path, cwd);
	const words = report.dryRun ? DRY : DONE;
	const lines: string[] = [];
	for (const f of report.restored) {
		const counts = lineCounts(f.insertions, f.deletions);
		lines.push(`${words[f.action].padEnd(16)}${name(f.path)}${counts ? `  ${counts}` : ""}`);
	}
	for (const f of report.skipped) lines.push(`${"skipped".padEnd(16)}${name(f.path)}: ${f.reason}`);
	for (const f of report.notRestorable) lines.push(`${"not restorable".padEnd(16)}${name(f.path)}: ${f.reason}`);
	for (const b of report.bashChanged)
		lines.push(`${"bash-changed".padEnd(16)}${name(b.path)}: changed by bash at ${b.entry}: not restored`);
	for (const c of report.cuts) lines.push(`${"note".padEnd(16)}the scan around bash at ${c.entry} ${c.note}`);
	return lines;
}

/** The last line: what was done in figures, or why nothing was. */
export function reportSummary(report: RewindReport): string {
	const moved = report.restored.filter((f) => f.action !== "already").length;
	const parts = [
		`${plural(moved, "file")} ${report.dryRun ? "to restore" : "restored"}`,
		report.skipped.length > 0 ? `${report.skipped.length} skipped` : "",
		report.notRestorable.length > 0 ? `${report.notRestorable.length} not restorable` : "",
		report.bashChanged.length > 0 ? `${plural(report.bashChanged.length, "bash change")} not restored` : "",
	].filter(Boolean);
	const head = report.dryRun ? "dry run, nothing was changed" : report.ok ? "done" : "done in part";
	return `${head}: ${parts.join(", ")}`;
}

/** The report as `gar rewind --json` prints it (absolute paths). */
export function reportJson(report: RewindReport, session: string) {
	const { ok, dryRun, mode, from, to, restored, skipped, bashChanged, notRestorable } = report;
	return {
		ok,
		session,
		mode,
		dryRun,
		from,
		to,
		...(report.filesFrom === undefined ? {} : { filesFrom: report.filesFrom, filesTo: report.filesTo }),
		restored,
		skipped,
		bashChanged,
		notRestorable,
		...(report.cuts.length > 0 ? { notes: report.cuts } : {}),
	};
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

/** A rewind record in one line, as `gar show` lists it: when, what moved where, and how it went. */
export function recordLine(record: RewindEntry): string {
	const at = (id: string | null | undefined) => id ?? "(start)";
	const moved = [
		record.from !== record.to ? `leaf ${at(record.from)} → ${at(record.to)}` : "",
		record.filesTo === undefined ? "" : `files ${at(record.filesFrom)} → ${at(record.filesTo)}`,
	].filter(Boolean);
	const done = (record.restored ?? []).filter((f) => f.action !== "already").length;
	const outcome = [
		`${plural(done, "file")} restored`,
		record.skipped?.length ? `${record.skipped.length} skipped` : "",
		record.notRestorable?.length ? `${record.notRestorable.length} not restorable` : "",
		record.bashChanged?.length ? `${plural(record.bashChanged.length, "bash change")} not restored` : "",
	].filter(Boolean);
	const what = record.undoes === undefined ? "rewind" : `redo of ${record.undoes}`;
	return `${record.ts}  ${record.id}  ${what}: ${MODE_WORDS[record.mode]}, ${moved.join(", ") || "nothing moved"}: ${outcome.join(", ")}`;
}

/** The session's rewinds for `gar show`: one line per finished one, and a line for one that never finished. */
export function rewindHistory(session: Session): string[] {
	const lines = session.rewinds.filter((r) => r.status === "done").map(recordLine);
	for (const r of interrupted(session)) {
		lines.push(`${r.ts}  ${r.id}  rewind interrupted (${MODE_WORDS[r.mode]}): run it again to finish it`);
	}
	return lines;
}
