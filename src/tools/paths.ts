import { existsSync, lstatSync, readdirSync, readlinkSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, relative, resolve, sep } from "node:path";

/** Resolves a path the model gave against `cwd`: strips a leading `@`, expands `~` and `~/`. Never throws. */
export function resolvePath(cwd: string, input: string): string {
	let p = input.startsWith("@") ? input.slice(1) : input;
	if (p === "~") p = homedir();
	else if (p.startsWith("~/")) p = homedir() + p.slice(1);
	return isAbsolute(p) ? resolve(p) : resolve(cwd, p);
}

/** A path for messages to the model: relative to `cwd` when inside it, absolute otherwise. */
export function displayPath(cwd: string, abs: string): string {
	const rel = relative(cwd, abs);
	if (rel === "") return ".";
	return rel.startsWith("..") || isAbsolute(rel) ? abs : rel;
}

/** Levenshtein distance, for "did you mean" suggestions on short names. */
function distance(a: string, b: string): number {
	if (Math.abs(a.length - b.length) > 3) return 99;
	let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
	for (let i = 1; i <= a.length; i++) {
		const cur = [i];
		for (let j = 1; j <= b.length; j++) {
			const cost = a[i - 1] === b[j - 1] ? 0 : 1;
			cur.push(Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost));
		}
		prev = cur;
	}
	return prev[b.length] ?? 99;
}

const stem = (name: string) => name.toLowerCase().replace(/\.[^.]*$/, "");

/** Where `abs` points when it is a symbolic link to nothing (a dangling link); undefined otherwise. Never throws. */
export function danglingTarget(abs: string): string | undefined {
	try {
		if (!lstatSync(abs).isSymbolicLink() || existsSync(abs)) return undefined;
		return resolve(dirname(abs), readlinkSync(abs, "utf8"));
	} catch {
		return undefined;
	}
}

/**
 * Explains why `abs` does not exist, cheaply: a dangling symbolic link says where it points; otherwise names in
 * its directory that look like the missing one, or the nearest ancestor that does exist. Returns a sentence or
 * two to append to an error; never throws.
 */
export function explainMissing(cwd: string, abs: string): string {
	// The link itself is listed in its directory: it would be its own "similar name".
	const target = danglingTarget(abs);
	if (target !== undefined) return `It is a symbolic link to ${displayPath(cwd, target)}, which does not exist.`;
	const dir = dirname(abs);
	const name = basename(abs);
	let entries: string[];
	try {
		entries = readdirSync(dir).slice(0, 5000);
	} catch {
		let ancestor = dir;
		while (dirname(ancestor) !== ancestor) {
			ancestor = dirname(ancestor);
			try {
				if (statSync(ancestor).isDirectory()) break;
			} catch {}
		}
		return `The directory ${displayPath(cwd, dir)} does not exist either (nearest existing: ${displayPath(cwd, ancestor)}${ancestor.endsWith(sep) ? "" : sep}).`;
	}
	const lower = name.toLowerCase();
	const scored = entries
		.map((e) => {
			const el = e.toLowerCase();
			let score = distance(el, lower);
			if (el === lower) score = 0;
			else if (stem(e) === stem(name)) score = Math.min(score, 1);
			else if (lower.length >= 3 && (el.startsWith(lower) || lower.startsWith(el))) score = Math.min(score, 2);
			return { e, score };
		})
		.filter((s) => s.score <= Math.max(2, Math.floor(name.length / 4)))
		.sort((a, b) => a.score - b.score)
		.slice(0, 5);
	if (scored.length === 0) return `Use bash (e.g. \`ls ${displayPath(cwd, dir)}\`) to see what is there.`;
	const names = scored.map((s) => displayPath(cwd, resolve(dir, s.e)));
	return `Similar names in that directory: ${names.join(", ")}.`;
}

/** Lists up to `max` entries of a directory for an error message, directories with a trailing `/`. */
export function listDirectory(abs: string, max = 20): { names: string[]; total: number } {
	try {
		const entries = readdirSync(abs, { withFileTypes: true });
		entries.sort((a, b) => a.name.localeCompare(b.name));
		const names = entries.slice(0, max).map((e) => (e.isDirectory() ? `${e.name}/` : e.name));
		return { names, total: entries.length };
	} catch {
		return { names: [], total: 0 };
	}
}

/** Turns a Node fs error into a sentence that says what is wrong and what to do. */
export function describeFsError(error: unknown, shown: string, verb: "read" | "write" | "edit"): string {
	const code = (error as NodeJS.ErrnoException | undefined)?.code;
	switch (code) {
		case "EACCES":
		case "EPERM":
			return `Permission denied: cannot ${verb} ${shown}. Check its permissions (e.g. \`ls -l\` via bash) or choose another path.`;
		case "ENOTDIR":
			return `Cannot ${verb} ${shown}: a component of the path is a file, not a directory.`;
		case "EISDIR":
			return `Cannot ${verb} ${shown}: it is a directory, not a file.`;
		case "ENOSPC":
			return `Cannot ${verb} ${shown}: no space left on the device.`;
		case "EROFS":
			return `Cannot ${verb} ${shown}: the file system is read-only.`;
		default:
			return `Cannot ${verb} ${shown}: ${error instanceof Error ? error.message : String(error)}`;
	}
}
