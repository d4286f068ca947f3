import { mkdirSync, type Stats, statSync } from "node:fs";
import { dirname, resolve } from "node:path";

/** Deeper than any real path; bounds the walk up even on a file system that answers oddly. */
const MAX_DEPTH = 4096;

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code;

/** An Error with an fs `code`, so callers can still switch on it. */
function fsError(message: string, code: string | undefined): Error {
	return Object.assign(new Error(message), { code });
}

/**
 * Creates `dir` and its missing parents one component at a time (unlike Node 20's recursive mkdir, which spins
 * forever under /proc/sys). Returns the first folder created, or undefined when `dir` already existed. Throws an
 * Error (with the fs `code`) that names the folder that could not be made; never loops without bound.
 */
export function makeDirs(dir: string, mode = 0o777): string | undefined {
	const missing: string[] = [];
	let p = resolve(dir);
	for (let depth = 0; ; depth++) {
		if (depth > MAX_DEPTH) throw fsError(`cannot create folder ${dir}: the path is too deep`, "ENAMETOOLONG");
		let found: Stats | undefined;
		try {
			found = statSync(p);
		} catch (error) {
			// ENOTDIR: some ancestor is a file; walking up finds it and names it.
			const code = codeOf(error);
			if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
		}
		if (found?.isDirectory()) break;
		if (found) throw fsError(`cannot create folder ${dir}: ${p} is a file, not a folder`, "ENOTDIR");
		missing.push(p);
		const parent = dirname(p);
		if (parent === p) break;
		p = parent;
	}
	for (const folder of missing.reverse()) {
		try {
			mkdirSync(folder, { mode });
		} catch (error) {
			// Another process may have made it meanwhile; anything else is final.
			if (codeOf(error) === "EEXIST" && statSync(folder).isDirectory()) continue;
			const reason = error instanceof Error ? error.message : String(error);
			throw fsError(`cannot create folder ${folder} (${reason})`, codeOf(error));
		}
	}
	return missing[0];
}
