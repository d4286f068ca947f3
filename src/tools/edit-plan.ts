import { LineIndex, type Located, locate, type MatchLevel } from "./edit-match.js";
import { isExactText } from "./file-change.js";
import { readOldFile } from "./old-file.js";
import { explainMissingFile } from "./paths.js";

/** One replacement as the model sends it. */
export type EditRequest = { oldText: string; newText: string };

const BOM = "\uFEFF";

/** The file's dominant line ending, or null when it has no line break. */
function lineEnding(text: string): "\r\n" | "\n" | null {
	const all = text.split("\n").length - 1;
	if (all === 0) return null;
	const crlf = text.split("\r\n").length - 1;
	return crlf * 2 > all ? "\r\n" : "\n";
}

/** The bytes of a regular file up to MAX_UNDO_BYTES; anything else throws without blocking or reading it whole. */
export function readForEdit(abs: string, shown: string, cwd: string): Buffer {
	const old = readOldFile(abs, { shown, verb: "edit", large: "refuse" });
	if (old.kind === "missing") {
		throw new Error(`File not found: ${shown}. ${explainMissingFile(cwd, abs)} To create a new file, use write.`);
	}
	if (old.kind === "large") throw new Error(`${shown} is too large to edit.`);
	return old.bytes;
}

type Span = { start: number; end: number; text: string; edit: number; level: MatchLevel };

/** One edit's span in the original text, or why it cannot be applied. */
function checkEdit(body: string, edit: EditRequest, index: LineIndex, eol: string | null): Span | string {
	const { oldText, newText } = edit;
	if (oldText === "") return "oldText is empty. To create or replace a whole file, use write.";
	if (oldText === newText) return "newText is identical to oldText; nothing would change.";
	const found: Located = locate(body, oldText, index);
	if (found.kind === "ambiguous") {
		const where = found.lines.slice(0, 20).join(", ");
		return `oldText matches ${found.count} times (lines ${where}). Include more surrounding lines so it matches exactly once.`;
	}
	if (found.kind === "missing") return `oldText was not found. ${found.hint}`;
	const text = eol ? newText.replace(/\r?\n/g, eol) : newText;
	return { start: found.start, end: found.end, text, edit: 0, level: found.level };
}

/** Validates every edit against the original text; returns the spans or the error lines for the model. */
function planEdits(body: string, edits: EditRequest[], eol: string | null): { spans: Span[] } | { errors: string[] } {
	const index = new LineIndex(body);
	const errors: string[] = [];
	const spans: Span[] = [];
	for (const [i, edit] of edits.entries()) {
		const result = checkEdit(body, edit, index, eol);
		if (typeof result === "string") errors.push(edits.length > 1 ? `Edit ${i + 1}: ${result}` : result);
		else spans.push({ ...result, edit: i });
	}
	if (errors.length > 0) return { errors };
	spans.sort((a, b) => a.start - b.start);
	for (let i = 1; i < spans.length; i++) {
		const a = spans[i - 1] as Span;
		const b = spans[i] as Span;
		if (b.start < a.end) {
			const lines = `${index.lineAt(b.start)}-${index.lineAt(Math.max(a.end - 1, b.start))}`;
			errors.push(`Edits ${a.edit + 1} and ${b.edit + 1} overlap (lines ${lines}); merge them into one edit.`);
		}
	}
	return errors.length > 0 ? { errors } : { spans };
}

/** What an edit call will do: the old and new bytes, where each edit lands in the new file, how each matched. */
export type EditPlan = {
	oldBytes: Buffer;
	newBytes: Buffer;
	/** 1-based line of each applied edit in the new file, in file order. */
	lines: number[];
	/** How each edit's oldText was found, in the order of the request. */
	matchLevels: MatchLevel[];
};

/**
 * Plans the edits against a file's original bytes (readForEdit's, or an editor's text of them), touching nothing. The
 * one code path of execute and preview, so a preview shows exactly what execute would do. Throws the message the
 * model should read.
 */
export function planEditCall(oldBytes: Buffer, shown: string, edits: EditRequest[]): EditPlan {
	if (!isExactText(oldBytes)) {
		throw new Error(
			`${shown} is not UTF-8 text (binary or another encoding); edit would corrupt it. Use bash instead.`,
		);
	}
	const original = oldBytes.toString("utf8");
	const bom = original.startsWith(BOM) ? BOM : "";
	const body = original.slice(bom.length);
	const plan = planEdits(body, edits, lineEnding(body));
	if ("errors" in plan) {
		const n = edits.length;
		const failed = n > 1 ? ` (${plan.errors.length} of ${n} edits failed)` : "";
		throw new Error(`No changes were made to ${shown}${failed}.\n${plan.errors.join("\n\n")}`);
	}
	const { spans } = plan;
	let next = body;
	for (const span of [...spans].reverse()) next = next.slice(0, span.start) + span.text + next.slice(span.end);
	if (next === body) throw new Error(`The edits leave ${shown} unchanged; nothing was written.`);
	// Line numbers in the new file, where the model will look next.
	const index = new LineIndex(next);
	let shift = 0;
	const lines = spans.map((s) => {
		const line = index.lineAt(s.start + shift);
		shift += s.text.length - (s.end - s.start);
		return line;
	});
	const matchLevels: MatchLevel[] = edits.map(() => "exact");
	for (const s of spans) matchLevels[s.edit] = s.level;
	return { oldBytes, newBytes: Buffer.from(bom + next, "utf8"), lines, matchLevels };
}
