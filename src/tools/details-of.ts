import type {
	BashDetails,
	BashFileChanges,
	EditDetails,
	ReadDetails,
	ToolDetails,
	ToolErrorDetails,
	WriteDetails,
} from "./details.js";
import type { MatchLevel } from "./edit-match.js";
import { diffStat, type FileChange } from "./file-change.js";

type Rec = Record<string, unknown>;

const isRec = (v: unknown): v is Rec => typeof v === "object" && v !== null && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === "string";
const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const isBool = (v: unknown): v is boolean => typeof v === "boolean";
const isNumOrNull = (v: unknown): v is number | null => v === null || isNum(v);
const isStrOrNull = (v: unknown): v is string | null => v === null || isStr(v);

const UNDO = ["delete", "patch", "previous_content", "none"];
const LEVELS: MatchLevel[] = ["exact", "line_endings", "normalized"];
const ERRORS = ["invalid_arguments", "failed", "aborted"];

function error(d: Rec): ToolErrorDetails | null {
	if (!isStr(d.message) || !ERRORS.includes(d.error as string)) return null;
	return { kind: "error", error: d.error as ToolErrorDetails["error"], message: d.message };
}

function read(d: Rec): ReadDetails | null {
	const { path, startLine, endLine, totalLines, truncated } = d;
	if (!isStr(path) || !isNum(startLine) || !isNum(endLine) || !isNumOrNull(totalLines) || !isBool(truncated)) {
		return null;
	}
	return { kind: "read", path, startLine, endLine, totalLines, truncated };
}

function fileChange(d: Rec): FileChange | null {
	const { path, diff, oldHash, newHash, undo, previousContent, diffTruncated } = d;
	if (!isStr(path) || !isStr(diff) || !isStrOrNull(oldHash) || !isStr(newHash) || !UNDO.includes(undo as string)) {
		return null;
	}
	if (previousContent !== undefined && !isStr(previousContent)) return null;
	return {
		path,
		diff,
		oldHash,
		newHash,
		undo: undo as FileChange["undo"],
		...(isStr(previousContent) ? { previousContent } : {}),
		...(diffTruncated === true ? { diffTruncated: true } : {}),
	};
}

/** Counts stored by the current version, or inferred from the diff for records from before they were stored. */
function counts(d: Rec, change: FileChange): { added: number; removed: number } {
	if (isNum(d.added) && isNum(d.removed)) return { added: d.added, removed: d.removed };
	return diffStat(change.diff);
}

/** The new file's line count as stored; for old records, from the last hunk (exact for created files). */
function linesOf(d: Rec, change: FileChange, added: number): number {
	if (isNum(d.lines)) return d.lines;
	if (change.oldHash === null) return added;
	let last = 0;
	for (const m of change.diff.matchAll(/^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/gm)) {
		last = Math.max(last, Number(m[1]) + Number(m[2] ?? 1) - 1);
	}
	return last;
}

function write(d: Rec): WriteDetails | null {
	const change = fileChange(d);
	if (!change || (d.action !== "created" && d.action !== "overwritten") || !isNum(d.bytes)) return null;
	const { added, removed } = counts(d, change);
	const lines = linesOf(d, change, added);
	return { kind: "write", ...change, action: d.action, bytes: d.bytes, lines, added, removed };
}

function edit(d: Rec): EditDetails | null {
	const change = fileChange(d);
	const { firstChangedLine, matchLevels } = d;
	if (!change || !isNum(firstChangedLine) || !Array.isArray(matchLevels)) return null;
	if (!matchLevels.every((l) => LEVELS.includes(l))) return null;
	return { kind: "edit", ...change, firstChangedLine, matchLevels, ...counts(d, change) };
}

const HOW = ["created", "changed", "deleted"];

/** A bash call's file changes as stored; anything malformed is left out (they are only shown and reported). */
function bashFiles(v: unknown): BashFileChanges | undefined {
	if (!isRec(v) || !Array.isArray(v.paths) || !isNum(v.total)) return undefined;
	const paths = v.paths.filter(
		(p): p is BashFileChanges["paths"][number] => isRec(p) && isStr(p.path) && HOW.includes(p.how as string),
	);
	return { paths, total: v.total, ...(isStr(v.cut) ? { cut: v.cut } : {}) };
}

function bash(d: Rec): BashDetails | null {
	const { command, exitCode, signal, durationMs, timedOut, aborted, truncated, totalLines, totalBytes } = d;
	if (!isStr(command) || !isNumOrNull(exitCode) || !isStrOrNull(signal) || !isNum(durationMs)) return null;
	if (!isBool(timedOut) || !isBool(aborted) || !isBool(truncated) || !isNum(totalLines) || !isNum(totalBytes)) {
		return null;
	}
	if (d.fullOutputPath !== undefined && !isStr(d.fullOutputPath)) return null;
	const files = bashFiles(d.files);
	return {
		kind: "bash",
		command,
		// Records from before cwd was stored: unknown, shown as "".
		cwd: isStr(d.cwd) ? d.cwd : "",
		exitCode,
		signal,
		durationMs,
		timedOut,
		aborted,
		truncated,
		totalLines,
		totalBytes,
		...(isStr(d.fullOutputPath) ? { fullOutputPath: d.fullOutputPath } : {}),
		...(files ? { files } : {}),
	};
}

const byKind: Record<ToolDetails["kind"], (d: Rec) => ToolDetails | null> = { read, write, edit, bash, error };

/**
 * Turns a `details` value read back from a session file into the typed union, or null when it does not fit.
 * Records without `kind` (sessions of the previous version) get it from their shape: runTool's error shape
 * first, else the tool `name`. Counts missing from old write/edit records are inferred from the diff; a
 * missing bash `cwd` is "". Never throws.
 */
export function toolDetailsOf(name: string, details: unknown): ToolDetails | null {
	if (!isRec(details)) return null;
	try {
		const parserOf = (kind: string) => (Object.hasOwn(byKind, kind) ? byKind[kind as ToolDetails["kind"]] : null);
		if (isStr(details.kind)) return parserOf(details.kind)?.(details) ?? null;
		if ("error" in details) return error(details);
		return name === "error" ? null : (parserOf(name)?.(details) ?? null);
	} catch {
		return null;
	}
}
