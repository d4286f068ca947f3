import { statSync } from "node:fs";
import { UsageError } from "../errors.js";
import { danglingTarget } from "../tools/paths.js";

/** Why a path that does not exist cannot be used, in words: where a dangling symbolic link points, else `missing`. */
export function whyMissing(path: string, missing: string): string {
	const target = danglingTarget(path);
	return target === undefined ? missing : `a symbolic link to ${target}, which does not exist`;
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
