import * as z from "../text/zod.js";
import { type AtomicFs, writeFileAtomic } from "./atomic-write.js";
import type { EditDetails } from "./details.js";
import { planEditCall, readForEdit } from "./edit-plan.js";
import { currentBytes, type FileAccess } from "./file-access.js";
import { changeDiff, recordChange } from "./file-change.js";
import { describeFsError, resolveToolPath } from "./paths.js";
import type { Tool } from "./types.js";

export const editSchema = z.object({
	path: z.string().check(z.minLength(1), z.describe("File to edit: relative to the working directory, or absolute.")),
	edits: z
		.array(
			z.object({
				oldText: z
					.string()
					.check(z.describe("Exact text to replace, copied from the file (no line-number prefixes); must occur once.")),
				newText: z.string().check(z.describe("Text to put in its place.")),
			}),
		)
		.check(
			z.minLength(1),
			z.describe("Replacements, each matched against the original file; they must not overlap. All apply or none."),
		),
});
export type EditParams = z.infer<typeof editSchema>;

export type EditToolOptions = {
	cwd: string;
	/** The fs calls of the atomic write (node:fs); tests inject failures here. */
	fs?: AtomicFs;
	/** An editor's text of the files (ACP): edits apply to its text, and the result is written through it. */
	files?: FileAccess;
};

/**
 * The edit tool: exact replacements validated together and written once, atomically; never rewrites bytes
 * outside a span. Only regular UTF-8 files up to MAX_UNDO_BYTES.
 */
export function createEditTool(options: EditToolOptions): Tool<EditParams, EditDetails> {
	const { cwd, files } = options;
	const plan = async (abs: string, shown: string, edits: EditParams["edits"]) =>
		planEditCall(await currentBytes(abs, readForEdit(abs, shown, cwd), files), shown, edits);
	return {
		name: "edit",
		description:
			"Replace exact text in an existing file. Each oldText must match exactly once in the original file; give several non-overlapping edits in one call. All edits apply or none do.",
		parameters: editSchema,
		mutating: true,
		async execute(params, ctx) {
			if (ctx.signal.aborted) throw new Error("Aborted before editing.");
			const { abs, shown } = resolveToolPath(cwd, params.path);
			// Planned again, not taken from the preview: the file may have changed while the person read the question.
			// The edit applies to the bytes on disk (or in the editor) now, and fails if its text no longer matches them.
			const planned = await plan(abs, shown, params.edits);
			try {
				if (files?.writeText) await files.writeText(abs, planned.newBytes.toString("utf8"));
				else writeFileAtomic(abs, planned.newBytes, options.fs);
			} catch (error) {
				throw new Error(describeFsError(error, shown, "edit"));
			}
			const { lines, matchLevels } = planned;
			const details: EditDetails = {
				kind: "edit",
				...recordChange(abs, shown, planned.oldBytes, planned.newBytes),
				firstChangedLine: lines[0] ?? 1,
				matchLevels,
			};
			const count = lines.length === 1 ? "1 edit" : `${lines.length} edits`;
			let content = `Edited ${shown}: ${count}, now at line${lines.length > 1 ? "s" : ""} ${lines.join(", ")}.`;
			const loose = matchLevels.flatMap((level, i) => (level === "normalized" ? [i + 1] : []));
			if (loose.length > 0) {
				content += ` Edit ${loose.join(", ")} matched only after ignoring trailing whitespace and quote/dash style; only the matched text was replaced.`;
			}
			return { content, details, isError: false };
		},
		async preview(params) {
			const { abs, shown } = resolveToolPath(cwd, params.path);
			try {
				const planned = await plan(abs, shown, params.edits);
				const diff = changeDiff(shown, planned.oldBytes, planned.newBytes);
				return {
					kind: "edit",
					path: abs,
					firstChangedLine: planned.lines[0] ?? 1,
					added: diff.added,
					removed: diff.removed,
					diff: diff.diff,
					diffTruncated: diff.truncated,
				};
			} catch (error) {
				return { kind: "invalid", message: error instanceof Error ? error.message : String(error) };
			}
		},
	};
}
