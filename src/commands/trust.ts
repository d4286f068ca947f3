import { statSync } from "node:fs";
import { resolve } from "node:path";
import { projectRoot, readTrusted, type TrustedProject, trustFile, updateTrusted } from "../config/trust-store.js";
import { UsageError } from "../errors.js";
import { sanitizeForTerminal } from "../term/sanitize.js";

export type TrustContext = {
	/** gar's config directory (`~/.config/gar`), where `trusted.json` lives. */
	configDir: string;
	cwd: string;
	write: (text: string) => void;
	now?: () => Date;
};

/**
 * The project `dir` (default cwd) belongs to. A missing directory is a usage error, except for untrust: a
 * deleted project can still be taken off the list by its path.
 */
function projectOf(ctx: TrustContext, dir: string | undefined, mustExist: boolean): string {
	const path = resolve(ctx.cwd, dir ?? ".");
	let isDir = false;
	try {
		isDir = statSync(path).isDirectory();
	} catch {
		isDir = false;
	}
	if (isDir) return projectRoot(path);
	if (mustExist) throw new UsageError(`trust: ${path} is not a directory`);
	return path;
}

/** The list as read; a damaged file is refused here rather than silently replaced. */
function projectsOf(read: ReturnType<typeof readTrusted>): TrustedProject[] {
	if (read.problem) throw new UsageError(`trust: ${read.problem}; fix or delete it`);
	return read.projects;
}

/** `gar trust [DIR]`: lets the project's `.gar/config.toml` apply every setting; `--list` prints the list. */
export function trustCommand(ctx: TrustContext, dir: string | undefined, options: { list?: boolean }): number {
	const file = trustFile(ctx.configDir);
	if (options.list) {
		const projects = projectsOf(readTrusted(file));
		if (projects.length === 0) ctx.write("no trusted projects\n");
		for (const project of projects) ctx.write(sanitizeForTerminal(`${project.path}  (since ${project.trustedAt})\n`));
		return 0;
	}
	const root = projectOf(ctx, dir, true);
	const added = updateTrusted(file, (read) => {
		const projects = projectsOf(read);
		if (projects.some((project) => project.path === root)) return { result: false };
		const trustedAt = (ctx.now?.() ?? new Date()).toISOString();
		return { projects: [...projects, { path: root, trustedAt }], result: true };
	});
	if (!added) {
		ctx.write(sanitizeForTerminal(`already trusted: ${root}\n`));
		return 0;
	}
	ctx.write(
		sanitizeForTerminal(
			`trusted ${root}: its .gar/config.toml may now set base_url, api_key_env, api_key, pass_env and approval\n`,
		),
	);
	return 0;
}

/** `gar untrust [DIR]`: the project's risky settings are ignored again. */
export function untrustCommand(ctx: TrustContext, dir: string | undefined): number {
	const root = projectOf(ctx, dir, false);
	const removed = updateTrusted(trustFile(ctx.configDir), (read) => {
		const projects = projectsOf(read);
		const rest = projects.filter((project) => project.path !== root);
		return rest.length === projects.length ? { result: false } : { projects: rest, result: true };
	});
	ctx.write(sanitizeForTerminal(removed ? `no longer trusted: ${root}\n` : `not trusted: ${root}\n`));
	return 0;
}
