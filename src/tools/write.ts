import { dirname } from "node:path";
import * as z from "../text/zod.js";
import { type AtomicFs, resolveLinks, writeFileAtomic } from "./atomic-write.js";
import type { ToolPreview, WriteDetails } from "./details.js";
import { currentBytes, type FileAccess } from "./file-access.js";
import { changeDiff, largeChangeDiff, recordChange, recordLargeChange } from "./file-change.js";
import { makeDirs } from "./make-dirs.js";
import { type OldFile, readOldFile } from "./old-file.js";
import { describeFsError, resolveToolPath } from "./paths.js";
import { countLines } from "./truncate.js";
import type { Tool } from "./types.js";

export const writeSchema = z.object({
	path: z.string().check(z.minLength(1), z.describe("File to write: relative to the working directory, or absolute.")),
	content: z.string().check(z.describe("The complete new content of the file (replaces any existing content).")),
});
export type WriteParams = z.infer<typeof writeSchema>;

export type WriteToolOptions = {
	cwd: string;
	/** The fs calls of the atomic write (node:fs); tests inject failures here. */
	fs?: AtomicFs;
	/** An editor's text of the files (ACP): the old text is taken from it, and the new one written through it. */
	files?: FileAccess;
};

/**
 * The old file behind `abs` (the kernel follows links, so /dev/stdout is seen as the pipe it is) and the real
 * path to replace: regular files only, large ones only hashed.
 */
async function readTarget(abs: string, shown: string, files?: FileAccess): Promise<{ target: string; old: OldFile }> {
	const old = readOldFile(abs, { shown, verb: "write", large: "hash" });
	let target: string;
	try {
		target = resolveLinks(abs);
	} catch (error) {
		throw new Error(describeFsError(error, shown, "write"));
	}
	return {
		target,
		old: old.kind === "file" ? { kind: "file", bytes: await currentBytes(abs, old.bytes, files) } : old,
	};
}

/**
 * The write tool: creates or overwrites a regular file atomically (making parent folders) and records how to
 * undo it. Refuses devices, FIFOs and sockets (bash is the tool for those), so it never blocks on one.
 */
export function createWriteTool(options: WriteToolOptions): Tool<WriteParams, WriteDetails> {
	return {
		name: "write",
		description:
			"Create a file or overwrite it with new content; parent folders are created. Use edit for changes to an existing file.",
		parameters: writeSchema,
		mutating: true,
		async execute(params, ctx) {
			if (ctx.signal.aborted) throw new Error("Aborted before writing.");
			const { abs, shown } = resolveToolPath(options.cwd, params.path);
			// Read again, not taken from the preview: the file may have changed while the person read the question,
			// and the undo record must hold the bytes this write really replaces.
			const { target, old } = await readTarget(abs, shown, options.files);
			const bytes = Buffer.from(params.content, "utf8");
			try {
				if (old.kind === "missing") makeDirs(dirname(target));
				if (options.files?.writeText) await options.files.writeText(abs, params.content);
				else writeFileAtomic(target, bytes, options.fs);
			} catch (error) {
				throw new Error(describeFsError(error, shown, "write"));
			}
			// The record names the path the model gave; undo writes through the same link.
			const change =
				old.kind === "large"
					? recordLargeChange(abs, shown, old, bytes)
					: recordChange(abs, shown, old.kind === "file" ? old.bytes : null, bytes);
			const lines = countLines(params.content);
			const details: WriteDetails = {
				kind: "write",
				...change,
				action: old.kind === "missing" ? "created" : "overwritten",
				bytes: bytes.length,
				lines,
			};
			const size = `${lines} lines, ${bytes.length} bytes`;
			let content: string;
			if (old.kind === "missing") content = `Created ${shown} (${size}).`;
			else if (old.kind === "file" && old.bytes.equals(bytes)) {
				content = `${shown} already had this content; nothing changed.`;
			} else content = `Overwrote ${shown} (${size}; +${change.added} -${change.removed} lines).`;
			return { content, details, isError: false };
		},
		async preview(params): Promise<ToolPreview> {
			const { abs, shown } = resolveToolPath(options.cwd, params.path);
			try {
				// A parent that is a file shows here already (ENOTDIR); folders that cannot be made show on execute.
				const { old } = await readTarget(abs, shown, options.files);
				const newBytes = Buffer.from(params.content, "utf8");
				const lines = countLines(params.content);
				const action = old.kind === "missing" ? "create" : "overwrite";
				const d =
					old.kind === "large"
						? largeChangeDiff(shown, old.lines, newBytes)
						: changeDiff(shown, old.kind === "file" ? old.bytes : null, newBytes);
				return {
					kind: "write",
					path: abs,
					action,
					lines,
					bytes: newBytes.length,
					added: d.added,
					removed: d.removed,
					diff: d.diff,
					diffTruncated: d.truncated,
				};
			} catch (error) {
				return { kind: "invalid", message: error instanceof Error ? error.message : String(error) };
			}
		},
	};
}
