import { existsSync, lstatSync, readlinkSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";

/** `~` → `home`, `~/x` → `home/x`; any other path as it is. */
export function expandHome(path: string, home: string): string {
	if (path === "~") return home;
	return path.startsWith("~/") || path.startsWith(`~${sep}`) ? join(home, path.slice(2)) : path;
}

/** A path for messages: the `home` prefix shown as `~` (a home of "" or the root is never shortened). */
export function tildePath(path: string, home: string): string {
	if (home === "" || home === sep) return path;
	if (path === home) return "~";
	return path.startsWith(home + sep) ? `~${path.slice(home.length)}` : path;
}

/** The nearest directory from `start` up that holds `.git` (a folder, or a file in worktrees); undefined if none. */
export function gitRoot(start: string): string | undefined {
	for (let dir = resolve(start); ; dir = dirname(dir)) {
		if (existsSync(join(dir, ".git"))) return dir;
		if (dirname(dir) === dir) return undefined;
	}
}

/** Where `path` points when it is a symbolic link to nothing (a dangling link); undefined otherwise. Never throws. */
export function danglingTarget(path: string): string | undefined {
	try {
		if (!lstatSync(path).isSymbolicLink() || existsSync(path)) return undefined;
		return resolve(dirname(path), readlinkSync(path, "utf8"));
	} catch {
		return undefined;
	}
}

/**
 * "a symbolic link to TARGET, which does not exist" when `path` is a dangling link (TARGET as `show` writes it);
 * undefined otherwise. Never throws.
 */
export function danglingLink(path: string, show: (target: string) => string = (target) => target): string | undefined {
	const target = danglingTarget(path);
	return target === undefined ? undefined : `a symbolic link to ${show(target)}, which does not exist`;
}
