import { applyPatch, createTwoFilesPatch, FILE_HEADERS_ONLY, formatPatch, parsePatch, reversePatch } from "diff";
import { sha256Hex } from "../text/digest.js";
import { countLines } from "./truncate.js";

/**
 * How to undo a recorded change: "delete" the created file, reverse-apply the unified "patch", write back the
 * base64 "previous_content", or "none" (the old bytes were too large to keep and the diff cannot restore them).
 */
export type UndoKind = "delete" | "patch" | "previous_content" | "none";

/** Everything needed to undo one write or edit exactly. Shared by WriteDetails and EditDetails. */
export type FileChange = {
	/** Absolute path of the file. */
	path: string;
	/** Unified diff old → new (file headers only); old is empty for a created file; a one-line note if binary. */
	diff: string;
	/** sha256 hex of the old bytes; null when no file existed. */
	oldHash: string | null;
	/** sha256 hex of the new bytes: undo should check the file still has them. */
	newHash: string;
	undo: UndoKind;
	/** The old bytes, base64, when the diff cannot restore them (binary, non-UTF-8 or a cut diff; ≤ 1 MB). */
	previousContent?: string;
	/** Set when `diff` was cut at MAX_DIFF_CHARS (then undo is never "patch"). */
	diffTruncated?: boolean;
};

/** Old files above this size are not kept inline when the diff cannot restore them. */
export const MAX_PREVIOUS_CONTENT = 1024 * 1024;
/** Diffs kept in details and previews are cut here (UTF-16 units): they go to the session file and stream-json. */
export const MAX_DIFF_CHARS = 256 * 1024;
/** Above this many characters (old + new; room for two sides at MAX_UNDO_BYTES) jsdiff is not tried. */
const MAX_JSDIFF_INPUT = 24 * 1024 * 1024;
/** jsdiff gives up after this long on a pathological diff; a whole-file replacement patch is used instead. */
const DIFF_TIMEOUT_MS = 1000;

/** True when `bytes` decode to UTF-8 text and encode back to the same bytes, with no NUL byte. */
export function isExactText(bytes: Buffer): boolean {
	if (bytes.includes(0)) return false;
	return Buffer.from(bytes.toString("utf8"), "utf8").equals(bytes);
}

/** Splits text like jsdiff does for a hunk: lines without their "\n", plus the no-newline marker. */
function hunkLines(text: string, sign: "-" | "+"): string[] {
	if (text === "") return [];
	const parts = text.split("\n");
	const noEol = parts[parts.length - 1] !== "";
	if (!noEol) parts.pop();
	const out = parts.map((l) => sign + l);
	if (noEol) out.push("\\ No newline at end of file");
	return out;
}

/** A patch that deletes every old line and adds every new one: O(n), exact; the fallback when jsdiff times out. */
export function replacementPatch(name: string, oldText: string, newText: string): string {
	const oldLines = hunkLines(oldText, "-");
	const newLines = hunkLines(newText, "+");
	const count = (lines: string[]) => lines.filter((l) => !l.startsWith("\\")).length;
	const o = count(oldLines);
	const n = count(newLines);
	const hunks =
		o + n === 0 ? [] : [{ oldStart: 1, oldLines: o, newStart: 1, newLines: n, lines: [...oldLines, ...newLines] }];
	return formatPatch(
		{ oldFileName: name, newFileName: name, oldHeader: undefined, newHeader: undefined, hunks },
		FILE_HEADERS_ONLY,
	);
}

/** A unified diff old → new, with a whole-file fallback when jsdiff times out. */
export function unifiedDiff(name: string, oldText: string, newText: string): string {
	const patch = createTwoFilesPatch(name, name, oldText, newText, undefined, undefined, {
		context: 3,
		headerOptions: FILE_HEADERS_ONLY,
		timeout: DIFF_TIMEOUT_MS,
	});
	return patch ?? replacementPatch(name, oldText, newText);
}

/** Reverse-applies a unified diff to the new text; false when it does not apply. */
export function reverseApply(newText: string, diff: string): string | false {
	try {
		const patches = parsePatch(diff);
		if (patches.length === 0) return newText;
		const [first] = reversePatch(patches);
		if (!first) return newText;
		return applyPatch(newText, first, { autoConvertLineEndings: false });
	} catch {
		return false;
	}
}

/** Applies a unified diff to the old text (a rewind's redo); false when it does not apply. */
export function forwardApply(oldText: string, diff: string): string | false {
	try {
		const [first] = parsePatch(diff);
		if (!first) return oldText;
		return applyPatch(oldText, first, { autoConvertLineEndings: false });
	} catch {
		return false;
	}
}

/** Counts added and removed lines in a unified diff. */
export function diffStat(diff: string): { added: number; removed: number } {
	let added = 0;
	let removed = 0;
	for (const line of diff.split("\n")) {
		if (line.startsWith("+") && !line.startsWith("+++")) added++;
		else if (line.startsWith("-") && !line.startsWith("---")) removed++;
	}
	return { added, removed };
}

/** A diff bounded to MAX_DIFF_CHARS, with counts from the whole diff; `truncated` says it was cut. */
export type BoundedDiff = { diff: string; truncated: boolean; added: number; removed: number };

/** Cuts `diff` at the last line break before `max` characters. */
function cut(diff: string, max: number): string {
	if (diff.length <= max) return diff;
	const end = diff.lastIndexOf("\n", max - 1);
	return diff.slice(0, end + 1);
}

/** The first `max` characters of the whole-file replacement patch, built without making the whole patch. */
function boundedReplacement(name: string, oldText: string, newText: string, max: number): BoundedDiff {
	const removed = countLines(oldText);
	const added = countLines(newText);
	if (oldText.length + newText.length <= max) {
		const diff = replacementPatch(name, oldText, newText);
		if (diff.length <= max) return { diff, truncated: false, added, removed };
	}
	// Whole lines only, so no false "No newline at end of file" marker; the header keeps the real counts.
	const lines = (text: string) => (text.length <= max ? text : text.slice(0, text.lastIndexOf("\n", max) + 1));
	const head = replacementPatch(name, lines(oldText), lines(newText)).replace(
		/^@@ .* @@$/m,
		`@@ -${removed === 0 ? 0 : 1},${removed} +${added === 0 ? 0 : 1},${added} @@`,
	);
	return { diff: cut(head, max), truncated: true, added, removed };
}

/** A unified diff old → new for details and previews: exact when it fits in `max` characters, else cut. */
export function boundedDiff(name: string, oldText: string, newText: string, max = MAX_DIFF_CHARS): BoundedDiff {
	const wholeFile = oldText === "" || newText === "";
	if (wholeFile || oldText.length + newText.length > MAX_JSDIFF_INPUT) {
		return boundedReplacement(name, oldText, newText, max);
	}
	const diff = unifiedDiff(name, oldText, newText);
	const { added, removed } = diffStat(diff);
	return diff.length <= max
		? { diff, truncated: false, added, removed }
		: { diff: cut(diff, max), truncated: true, added, removed };
}

/** The bounded diff of a change as details and previews show it; binary content gets a one-line note. */
export function changeDiff(name: string, oldBytes: Buffer | null, newBytes: Buffer): BoundedDiff {
	// Like git: no line diff of binary content, which would be noise (and could be huge) in the session file.
	if ((oldBytes !== null && !isExactText(oldBytes)) || !isExactText(newBytes)) {
		return { diff: `Binary files ${name} and ${name} differ\n`, truncated: false, added: 0, removed: 0 };
	}
	return boundedDiff(name, oldBytes?.toString("utf8") ?? "", newBytes.toString("utf8"));
}

/** The stand-in for the diff when the old file (of `oldLines` lines) was too large to read: a note and counts. */
export function largeChangeDiff(name: string, oldLines: number, newBytes: Buffer): BoundedDiff {
	const diff = `Files ${name} and ${name} differ (the old file is too large to diff)\n`;
	const added = isExactText(newBytes) ? countLines(newBytes.toString("utf8")) : 0;
	return { diff, truncated: false, added, removed: oldLines };
}

/** An undo record plus the line counts of the change. */
export type RecordedChange = FileChange & { added: number; removed: number };

/**
 * Records a change of `abs` from `oldBytes` (null: the file did not exist) to `newBytes` so it can be undone
 * exactly. The diff is verified by reverse-applying it; when that does not give the old bytes back (or it was
 * cut), the old bytes are kept as base64 (≤ 1 MB) or the record says undo "none".
 */
export function recordChange(abs: string, name: string, oldBytes: Buffer | null, newBytes: Buffer): RecordedChange {
	const newHash = sha256Hex(newBytes);
	const newText = newBytes.toString("utf8");
	const oldText = oldBytes?.toString("utf8") ?? "";
	const text = (oldBytes === null || isExactText(oldBytes)) && isExactText(newBytes);
	const bounded = changeDiff(name, oldBytes, newBytes);
	const { diff, added, removed } = bounded;
	const cutNote = bounded.truncated ? { diffTruncated: true } : {};
	if (oldBytes === null) return { path: abs, diff, oldHash: null, newHash, undo: "delete", ...cutNote, added, removed };
	const oldHash = sha256Hex(oldBytes);
	const base = { path: abs, diff, oldHash, newHash, ...cutNote, added, removed };
	if (text && !bounded.truncated && reverseApply(newText, diff) === oldText) return { ...base, undo: "patch" };
	if (oldBytes.length <= MAX_PREVIOUS_CONTENT) {
		return { ...base, undo: "previous_content", previousContent: oldBytes.toString("base64") };
	}
	return { ...base, undo: "none" };
}

/** The record of overwriting an old file too large to read for undo: hashes only, undo "none". */
export function recordLargeChange(
	abs: string,
	name: string,
	old: { hash: string; lines: number },
	newBytes: Buffer,
): RecordedChange {
	const { diff, added, removed } = largeChangeDiff(name, old.lines, newBytes);
	return { path: abs, diff, oldHash: old.hash, newHash: sha256Hex(newBytes), undo: "none", added, removed };
}

/**
 * The bytes `change.path` had before the change, computed from its bytes now. Returns null when undo means
 * deleting the file. Throws when the current bytes are not the ones the change produced, or undo is impossible.
 */
export function previousBytes(change: FileChange, current: Buffer): Buffer | null {
	if (sha256Hex(current) !== change.newHash) {
		throw new Error(`${change.path} changed after this edit (hash mismatch); refusing to undo.`);
	}
	switch (change.undo) {
		case "delete":
			return null;
		case "previous_content":
			return Buffer.from(change.previousContent ?? "", "base64");
		case "patch": {
			const old = reverseApply(current.toString("utf8"), change.diff);
			const bytes = old === false ? null : Buffer.from(old, "utf8");
			if (!bytes || sha256Hex(bytes) !== change.oldHash)
				throw new Error(`The diff for ${change.path} no longer applies.`);
			return bytes;
		}
		case "none":
			throw new Error(`The previous content of ${change.path} was not recorded (too large to keep); undo unavailable.`);
	}
}
