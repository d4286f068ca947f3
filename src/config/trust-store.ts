import { mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { gitRoot } from "../text/paths.js";
import { withFileLock } from "./file-lock.js";
import { findProjectConfig } from "./paths.js";

/**
 * One trusted project: its real path, when the user trusted it, and the hash of its hooks then (see hooksHash;
 * absent in records older gar wrote, whose hooks are then not trusted).
 */
export type TrustedProject = { path: string; trustedAt: string; hooksHash?: string };

/** `trusted.json` in gar's config directory (`~/.config/gar/trusted.json`). */
export function trustFile(configDir: string): string {
	return join(configDir, "trusted.json");
}

/** The trusted projects. A missing file is an empty list; a damaged one is too, with the problem in words. */
export function readTrusted(file: string): { projects: TrustedProject[]; problem?: string } {
	let text: string;
	try {
		text = readFileSync(file, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return { projects: [] };
		return { projects: [], problem: `cannot read ${file}: ${(error as Error).message}` };
	}
	try {
		const data = JSON.parse(text) as { projects?: unknown };
		if (!Array.isArray(data.projects)) throw new Error("no projects list");
		const projects = data.projects
			.filter((p): p is TrustedProject => typeof p?.path === "string" && typeof p?.trustedAt === "string")
			.map(({ path, trustedAt, hooksHash }) => ({
				path,
				trustedAt,
				...(typeof hooksHash === "string" ? { hooksHash } : {}),
			}));
		return { projects };
	} catch (error) {
		return { projects: [], problem: `${file} is damaged (${(error as Error).message}); no project is trusted` };
	}
}

/** Replaces the list atomically (a temp file renamed over the old one), readable by the user only. */
export function writeTrusted(file: string, projects: TrustedProject[]): void {
	mkdirSync(dirname(file), { recursive: true });
	const temp = `${file}.${process.pid}.tmp`;
	writeFileSync(temp, `${JSON.stringify({ version: 1, projects }, null, 2)}\n`, { mode: 0o600 });
	renameSync(temp, file);
}

/**
 * Reads the list, asks `change` for the new one (undefined: leave the file alone) and writes it, all under the
 * file's lock, so trusts and untrusts run at the same time lose nothing. Returns what `change` returned.
 */
export function updateTrusted<T>(
	file: string,
	change: (read: ReturnType<typeof readTrusted>) => { projects?: TrustedProject[]; result: T },
): T {
	return withFileLock(file, () => {
		const { projects, result } = change(readTrusted(file));
		if (projects) writeTrusted(file, projects);
		return result;
	});
}

/** A path with symlinks resolved when it exists, so one project has one name however it is reached. */
export function realPath(path: string): string {
	try {
		return realpathSync(path);
	} catch {
		return resolve(path);
	}
}

/**
 * The project a directory belongs to, as trust records it: the directory holding the `.gar/config.toml` gar
 * would read from `dir`, else the git root, else `dir` itself. Real path.
 */
export function projectRoot(dir: string): string {
	const file = findProjectConfig(dir);
	if (file) return realPath(dirname(dirname(file)));
	return realPath(gitRoot(resolve(dir)) ?? dir);
}

/** The trust record of the project whose config file is `projectFile` (`…/.gar/config.toml`); undefined: untrusted. */
export function trustOfFile(projectFile: string, projects: readonly TrustedProject[]): TrustedProject | undefined {
	const root = realPath(dirname(dirname(projectFile)));
	return projects.find((project) => project.path === root);
}

/** The project `dir` belongs to (`projectRoot`) and whether the person trusts it (`gar trust`). */
export function projectTrust(dir: string, configDir: string): { root: string; trusted: boolean } {
	const root = projectRoot(dir);
	const { projects } = readTrusted(trustFile(configDir));
	return { root, trusted: projects.some((project) => project.path === root) };
}
