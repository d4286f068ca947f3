import { unlinkSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { writeFileAtomic } from "../../tools/atomic-write.js";

/** How writing an export went: written, refused because the file exists, or failed (`error` says why, in words). */
export type ExportWrite = { kind: "written" } | { kind: "exists" } | { kind: "failed"; error: string };

/**
 * Writes an export to `path`. Without `force` an existing file is never touched (created exclusively: no race with
 * another writer); with it the file is replaced atomically (the old one or the new one, never a mix). Never throws.
 */
export function writeExport(path: string, text: string, force: boolean): ExportWrite {
	try {
		if (force) writeFileAtomic(path, Buffer.from(text, "utf8"));
		else writeExclusive(path, text);
		return { kind: "written" };
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "EEXIST") return { kind: "exists" };
		return { kind: "failed", error: `cannot write ${path}: ${cause(path, error)}` };
	}
}

/** Creates `path` with `text`; a write that fails half-way leaves nothing behind. */
function writeExclusive(path: string, text: string): void {
	try {
		writeFileSync(path, text, { flag: "wx" });
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
			try {
				unlinkSync(path);
			} catch {}
		}
		throw error;
	}
}

/** A file system error in words: "the folder /x does not exist", "permission denied (EACCES)". */
function cause(path: string, error: unknown): string {
	const code = (error as NodeJS.ErrnoException).code;
	if (code === "ENOENT") return `the folder ${dirname(path)} does not exist`;
	if (code === "EISDIR") return "it is a folder";
	const message = error instanceof Error ? error.message : String(error);
	const words = /^[A-Z]+: ([^,]+)/.exec(message)?.[1];
	return code && words ? `${words} (${code})` : message;
}
