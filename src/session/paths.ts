import { basename, join, resolve } from "node:path";
import { sha256Hex } from "../text/digest.js";

const MAX_SLUG = 60;

/**
 * A readable, unique folder name for a working directory: the path's words joined by "-" (the tail kept when long)
 * plus 8 hex chars of a hash of the full path, e.g. `home-me-src-app-1a2b3c4d`.
 */
export function projectSlug(cwd: string): string {
	const full = resolve(cwd);
	const hash = sha256Hex(full).slice(0, 8);
	let words = full
		.toLowerCase()
		.replace(/[^a-z0-9._]+/g, "-")
		.replace(/^[-.]+|-+$/g, "");
	if (words.length > MAX_SLUG) words = words.slice(words.length - MAX_SLUG).replace(/^[-.]+/, "");
	return `${words || "root"}-${hash}`;
}

/** The folder that holds the sessions of `cwd`: `<baseDir>/<project-slug>`. */
export function sessionDirFor(baseDir: string, cwd: string): string {
	return join(baseDir, projectSlug(cwd));
}

/** `<timestamp>_<id>.jsonl`; the timestamp is ISO with ":" and "." replaced, so names sort by creation time. */
export function sessionFileName(createdAt: Date, id: string): string {
	return `${createdAt.toISOString().replace(/[:.]/g, "-")}_${id}.jsonl`;
}

/** The session id in a session file name, or undefined when the name does not follow the pattern. */
export function idFromFileName(file: string): string | undefined {
	return /_([0-9a-z]+)\.jsonl$/.exec(basename(file))?.[1];
}
