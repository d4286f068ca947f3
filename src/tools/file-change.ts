import { createHash } from "node:crypto";
import { applyPatch, createTwoFilesPatch, FILE_HEADERS_ONLY, formatPatch, parsePatch, reversePatch } from "diff";

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
	/** The old bytes, base64, when the diff cannot restore them exactly (binary or non-UTF-8, ≤ 1 MB). */
	previousContent?: string;
};

/** Old files above this size are not kept inline when the diff cannot restore them. */
export const MAX_PREVIOUS_CONTENT = 1024 * 1024;
/** jsdiff gives up after this long on a pathological diff; a whole-file replacement patch is used instead. */
const DIFF_TIMEOUT_MS = 1000;

export function sha256(bytes: Buffer): string {
	return createHash("sha256").update(bytes).digest("hex");
}

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

/**
 * Records a change of `abs` from `oldBytes` (null: the file did not exist) to `newBytes` so it can be undone
 * exactly. The diff is verified by reverse-applying it; when that does not give the old bytes back, the old
 * bytes are kept as base64 (≤ 1 MB) or the record says undo "none".
 */
export function recordChange(abs: string, name: string, oldBytes: Buffer | null, newBytes: Buffer): FileChange {
	const newHash = sha256(newBytes);
	const newText = newBytes.toString("utf8");
	const oldText = oldBytes?.toString("utf8") ?? "";
	const text = (oldBytes === null || isExactText(oldBytes)) && isExactText(newBytes);
	// Like git: no line diff of binary content, which would be noise (and could be huge) in the session file.
	const diff = text ? unifiedDiff(name, oldText, newText) : `Binary files ${name} and ${name} differ\n`;
	if (oldBytes === null) return { path: abs, diff, oldHash: null, newHash, undo: "delete" };
	const oldHash = sha256(oldBytes);
	if (text && reverseApply(newText, diff) === oldText) {
		return { path: abs, diff, oldHash, newHash, undo: "patch" };
	}
	if (oldBytes.length <= MAX_PREVIOUS_CONTENT) {
		return {
			path: abs,
			diff,
			oldHash,
			newHash,
			undo: "previous_content",
			previousContent: oldBytes.toString("base64"),
		};
	}
	return { path: abs, diff, oldHash, newHash, undo: "none" };
}

/**
 * The bytes `change.path` had before the change, computed from its bytes now. Returns null when undo means
 * deleting the file. Throws when the current bytes are not the ones the change produced, or undo is impossible.
 */
export function previousBytes(change: FileChange, current: Buffer): Buffer | null {
	if (sha256(current) !== change.newHash) {
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
			if (!bytes || sha256(bytes) !== change.oldHash) throw new Error(`The diff for ${change.path} no longer applies.`);
			return bytes;
		}
		case "none":
			throw new Error(`The previous content of ${change.path} was not recorded (binary and over 1 MB).`);
	}
}
