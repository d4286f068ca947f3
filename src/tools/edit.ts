import { readFileSync, statSync, writeFileSync } from "node:fs";
import { z } from "zod";
import { LineIndex, type Located, locate, type MatchLevel } from "./edit-match.js";
import { type FileChange, isExactText, recordChange } from "./file-change.js";
import { describeFsError, displayPath, explainMissing, resolvePath } from "./paths.js";
import type { Tool } from "./types.js";

/** Edit details: the undo record, the first changed line (1-based) and how each edit's oldText was found. */
export type EditDetails = FileChange & { firstChangedLine: number; matchLevels: MatchLevel[] };

const editSchema = z.object({
	path: z.string().min(1).describe("File to edit: relative to the working directory, or absolute."),
	edits: z
		.array(
			z.object({
				oldText: z
					.string()
					.describe("Exact text to replace, copied from the file (no line-number prefixes); must occur once."),
				newText: z.string().describe("Text to put in its place."),
			}),
		)
		.min(1)
		.describe("Replacements, each matched against the original file; they must not overlap. All apply or none."),
});
export type EditParams = z.infer<typeof editSchema>;

export type EditToolOptions = { cwd: string };

const BOM = "\uFEFF";

/** The file's dominant line ending, or null when it has no line break. */
function lineEnding(text: string): "\r\n" | "\n" | null {
	const all = text.split("\n").length - 1;
	if (all === 0) return null;
	const crlf = text.split("\r\n").length - 1;
	return crlf * 2 > all ? "\r\n" : "\n";
}

function readForEdit(abs: string, shown: string, cwd: string): Buffer {
	try {
		if (statSync(abs).isDirectory()) throw new Error(`${shown} is a directory, not a file.`);
		return readFileSync(abs);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT") {
			throw new Error(`File not found: ${shown}. ${explainMissing(cwd, abs)} To create a new file, use write.`);
		}
		if (!code) throw error;
		throw new Error(describeFsError(error, shown, "edit"));
	}
}

type Span = { start: number; end: number; text: string; edit: number; level: MatchLevel };

/** One edit's span in the original text, or why it cannot be applied. */
function checkEdit(
	body: string,
	edit: EditParams["edits"][number],
	index: LineIndex,
	eol: string | null,
): Span | string {
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
function planEdits(
	body: string,
	edits: EditParams["edits"],
	eol: string | null,
): { spans: Span[] } | { errors: string[] } {
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

/** The edit tool: exact replacements validated together and written once; never rewrites bytes outside a span. */
export function createEditTool(options: EditToolOptions): Tool<EditParams, EditDetails> {
	return {
		name: "edit",
		description:
			"Replace exact text in an existing file. Each oldText must match exactly once in the original file; give several non-overlapping edits in one call. All edits apply or none do.",
		parameters: editSchema,
		mutating: true,
		async execute(params, ctx) {
			if (ctx.signal.aborted) throw new Error("Aborted before editing.");
			const abs = resolvePath(options.cwd, params.path);
			const shown = displayPath(options.cwd, abs);
			const oldBytes = readForEdit(abs, shown, options.cwd);
			if (!isExactText(oldBytes)) {
				throw new Error(
					`${shown} is not UTF-8 text (binary or another encoding); edit would corrupt it. Use bash instead.`,
				);
			}
			const original = oldBytes.toString("utf8");
			const bom = original.startsWith(BOM) ? BOM : "";
			const body = original.slice(bom.length);
			const plan = planEdits(body, params.edits, lineEnding(body));
			if ("errors" in plan) {
				const n = params.edits.length;
				const failed = n > 1 ? ` (${plan.errors.length} of ${n} edits failed)` : "";
				throw new Error(`No changes were made to ${shown}${failed}.\n${plan.errors.join("\n\n")}`);
			}
			const { spans } = plan;
			let next = body;
			for (const span of [...spans].reverse()) next = next.slice(0, span.start) + span.text + next.slice(span.end);
			if (next === body) throw new Error(`The edits leave ${shown} unchanged; nothing was written.`);
			const newBytes = Buffer.from(bom + next, "utf8");
			try {
				writeFileSync(abs, newBytes);
			} catch (error) {
				throw new Error(describeFsError(error, shown, "edit"));
			}
			// Line numbers in the new file, where the model will look next.
			const index = new LineIndex(next);
			let shift = 0;
			const lines = spans.map((s) => {
				const line = index.lineAt(s.start + shift);
				shift += s.text.length - (s.end - s.start);
				return line;
			});
			const matchLevels: MatchLevel[] = params.edits.map(() => "exact");
			for (const s of spans) matchLevels[s.edit] = s.level;
			const details: EditDetails = {
				...recordChange(abs, shown, oldBytes, newBytes),
				firstChangedLine: lines[0] ?? 1,
				matchLevels,
			};
			const count = spans.length === 1 ? "1 edit" : `${spans.length} edits`;
			let content = `Edited ${shown}: ${count}, now at line${lines.length > 1 ? "s" : ""} ${lines.join(", ")}.`;
			const loose = spans.filter((s) => s.level === "normalized").map((s) => s.edit + 1);
			if (loose.length > 0) {
				content += ` Edit ${loose.join(", ")} matched only after ignoring trailing whitespace and quote/dash style; only the matched text was replaced.`;
			}
			return { content, details, isError: false };
		},
	};
}
