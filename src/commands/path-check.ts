import { statSync } from "node:fs";
import { UsageError } from "../errors.js";
import { danglingLink } from "../text/paths.js";

/** Why a path that does not exist cannot be used, in words: where a dangling symbolic link points, else `missing`. */
export function whyMissing(path: string, missing: string): string {
	return danglingLink(path) ?? missing;
}

/** Throws a UsageError when `--cwd` names no directory: missing, a dangling link, or a file. */
export function checkCwd(cwd: string): void {
	let problem: string | undefined;
	try {
		problem = statSync(cwd).isDirectory() ? undefined : "not a directory";
	} catch {
		problem = whyMissing(cwd, "no such directory");
	}
	if (problem) throw new UsageError(`--cwd ${cwd}: ${problem}`);
}
