import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { z } from "zod";
import { type FileChange, recordChange } from "./file-change.js";
import { describeFsError, displayPath, resolvePath } from "./paths.js";
import { countLines } from "./truncate.js";
import type { Tool } from "./types.js";

/** Write details: the undo record plus what happened. Undo of "created" is deleting the file. */
export type WriteDetails = FileChange & { action: "created" | "overwritten"; bytes: number };

const writeSchema = z.object({
	path: z.string().min(1).describe("File to write: relative to the working directory, or absolute."),
	content: z.string().describe("The complete new content of the file (replaces any existing content)."),
});
export type WriteParams = z.infer<typeof writeSchema>;

export type WriteToolOptions = { cwd: string };

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

/** Reads a file's bytes if it exists; null when it does not. Throws a readable error for a directory etc. */
function readExisting(abs: string, shown: string): Buffer | null {
	try {
		if (statSync(abs).isDirectory()) {
			throw new Error(`${shown} is a directory; give the path of a file inside it.`);
		}
		return readFileSync(abs);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
		if (!(error as NodeJS.ErrnoException).code) throw error;
		throw new Error(describeFsError(error, shown, "write"));
	}
}

/** The write tool: creates or overwrites a file (making parent folders) and records how to undo it. */
export function createWriteTool(options: WriteToolOptions): Tool<WriteParams, WriteDetails> {
	return {
		name: "write",
		description:
			"Create a file or overwrite it with new content; parent folders are created. Use edit for changes to an existing file.",
		parameters: writeSchema,
		mutating: true,
		async execute(params, ctx) {
			if (ctx.signal.aborted) throw new Error("Aborted before writing.");
			const abs = resolvePath(options.cwd, params.path);
			const shown = displayPath(options.cwd, abs);
			const old = readExisting(abs, shown);
			const bytes = Buffer.from(params.content, "utf8");
			try {
				mkdirSync(dirname(abs), { recursive: true });
				writeFileSync(abs, bytes);
			} catch (error) {
				throw new Error(describeFsError(error, shown, "write"));
			}
			const change = recordChange(abs, shown, old, bytes);
			const details: WriteDetails = { ...change, action: old ? "overwritten" : "created", bytes: bytes.length };
			const size = `${countLines(params.content)} lines, ${bytes.length} bytes`;
			let content: string;
			if (!old) content = `Created ${shown} (${size}).`;
			else if (old.equals(bytes)) content = `${shown} already had this content; nothing changed.`;
			else {
				const { added, removed } = diffStat(change.diff);
				content = `Overwrote ${shown} (${size}; +${added} -${removed} lines).`;
			}
			return { content, details, isError: false };
		},
	};
}
