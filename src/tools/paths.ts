import { readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { editDistance } from "../text/distance.js";
import { danglingLink, expandHome } from "../text/paths.js";

/**
 * The file a tool call names: `abs`, resolved against `cwd` (a leading `@` stripped, `~` expanded), and `shown`,
 * the path for messages to the model (see shownToModel). Never throws.
 */
export function resolveToolPath(cwd: string, input: string): { abs: string; shown: string } {
	const path = expandHome(input.startsWith("@") ? input.slice(1) : input, homedir());
	const abs = resolve(cwd, path);
	return { abs, shown: shownToModel(cwd, abs) };
}

/** A path for messages to the model: relative to `cwd` when inside it, absolute otherwise. */
function shownToModel(cwd: string, abs: string): string {
	const rel = relative(cwd, abs);
	if (rel === "") return ".";
	return rel.startsWith("..") || isAbsolute(rel) ? abs : rel;
}

/** How far apart two lower-case names are; names whose lengths differ by more than 3 are never similar. */
const nameDistance = (a: string, b: string) =>
	Math.abs(a.length - b.length) > 3 ? 99 : editDistance(a, b, { swaps: false });

const stem = (name: string) => name.toLowerCase().replace(/\.[^.]*$/, "");

/**
 * Explains why `abs` does not exist, cheaply: a dangling symbolic link says where it points; otherwise names in
 * its directory that look like the missing one, or the nearest ancestor that does exist. Returns a sentence or
 * two to append to an error; never throws.
 */
export function explainMissingFile(cwd: string, abs: string): string {
	// The link itself is listed in its directory: it would be its own "similar name".
	const link = danglingLink(abs, (target) => shownToModel(cwd, target));
	if (link !== undefined) return `It is ${link}.`;
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
		return `The directory ${shownToModel(cwd, dir)} does not exist either (nearest existing: ${shownToModel(cwd, ancestor)}${ancestor.endsWith(sep) ? "" : sep}).`;
	}
	const lower = name.toLowerCase();
	const scored = entries
		.map((e) => {
			const el = e.toLowerCase();
			let score = nameDistance(el, lower);
			if (el === lower) score = 0;
			else if (stem(e) === stem(name)) score = Math.min(score, 1);
			else if (lower.length >= 3 && (el.startsWith(lower) || lower.startsWith(el))) score = Math.min(score, 2);
			return { e, score };
		})
		.filter((s) => s.score <= Math.max(2, Math.floor(name.length / 4)))
		.sort((a, b) => a.score - b.score)
		.slice(0, 5);
	if (scored.length === 0) return `Use bash (e.g. \`ls ${shownToModel(cwd, dir)}\`) to see what is there.`;
	const names = scored.map((s) => shownToModel(cwd, resolve(dir, s.e)));
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
