import { readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { gitRoot } from "../text/paths.js";

/** A context file's text is cut beyond this many bytes, so one huge file cannot flood every request. */
export const MAX_CONTEXT_FILE_BYTES = 64 * 1024;

export type ContextFile = { path: string; content: string; truncated: boolean };

/** The directories from the repository root (or `cwd` outside a repository) down to `cwd`, root first. */
export function dirsFromRoot(cwd: string): string[] {
	const end = resolve(cwd);
	const root = gitRoot(end) ?? end;
	const dirs: string[] = [];
	for (let dir = end; ; dir = dirname(dir)) {
		dirs.unshift(dir);
		if (dir === root || dirname(dir) === dir) break;
	}
	return dirs;
}

function readContextFile(path: string): ContextFile | null {
	try {
		if (!statSync(path).isFile()) return null;
		const bytes = readFileSync(path);
		const truncated = bytes.length > MAX_CONTEXT_FILE_BYTES;
		const content = bytes.subarray(0, MAX_CONTEXT_FILE_BYTES).toString("utf8");
		return { path, content, truncated };
	} catch {
		return null; // unreadable: skipped, like a missing file
	}
}

/**
 * The context files, in the order they go into the system prompt: the user's `AGENTS.md` in the config dir,
 * then `AGENTS.md` (or `CLAUDE.md` where there is no AGENTS.md) in each directory from the repository root
 * down to `cwd`.
 */
export function loadContextFiles(cwd: string, userConfigDir: string): ContextFile[] {
	const files: ContextFile[] = [];
	const user = readContextFile(join(userConfigDir, "AGENTS.md"));
	if (user) files.push(user);
	for (const dir of dirsFromRoot(cwd)) {
		const file = readContextFile(join(dir, "AGENTS.md")) ?? readContextFile(join(dir, "CLAUDE.md"));
		if (file) files.push(file);
	}
	return files;
}
