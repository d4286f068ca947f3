import { statSync } from "node:fs";
import { resolve } from "node:path";
import { projectRoot, readTrusted, trustFile, writeTrusted } from "../config/trust-store.js";
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

/** Reads the list; a damaged file is refused here rather than silently replaced. */
function load(file: string) {
	const trusted = readTrusted(file);
	if (trusted.problem) throw new UsageError(`trust: ${trusted.problem}; fix or delete it`);
	return trusted.projects;
}

/** `gar trust [DIR]`: lets the project's `.gar/config.toml` apply every setting; `--list` prints the list. */
export function trustCommand(ctx: TrustContext, dir: string | undefined, options: { list?: boolean }): number {
	const file = trustFile(ctx.configDir);
	const projects = load(file);
	if (options.list) {
		if (projects.length === 0) ctx.write("no trusted projects\n");
		for (const project of projects) ctx.write(sanitizeForTerminal(`${project.path}  (since ${project.trustedAt})\n`));
		return 0;
	}
	const root = projectOf(ctx, dir, true);
	if (projects.some((project) => project.path === root)) {
		ctx.write(sanitizeForTerminal(`already trusted: ${root}\n`));
		return 0;
	}
	const trustedAt = (ctx.now?.() ?? new Date()).toISOString();
	writeTrusted(file, [...projects, { path: root, trustedAt }]);
	ctx.write(
		sanitizeForTerminal(
			`trusted ${root}: its .gar/config.toml may now set base_url, api_key_env, api_key, pass_env and approval\n`,
		),
	);
	return 0;
}

/** `gar untrust [DIR]`: the project's risky settings are ignored again. */
export function untrustCommand(ctx: TrustContext, dir: string | undefined): number {
	const file = trustFile(ctx.configDir);
	const projects = load(file);
	const root = projectOf(ctx, dir, false);
	const rest = projects.filter((project) => project.path !== root);
	if (rest.length === projects.length) {
		ctx.write(sanitizeForTerminal(`not trusted: ${root}\n`));
		return 0;
	}
	writeTrusted(file, rest);
	ctx.write(sanitizeForTerminal(`no longer trusted: ${root}\n`));
	return 0;
}
