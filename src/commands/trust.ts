import { statSync } from "node:fs";
import { homedir } from "node:os";
import { resolve } from "node:path";
import { hooksHash } from "../config/hooks.js";
import { findProjectConfig } from "../config/paths.js";
import { readConfigFile } from "../config/read-file.js";
import { projectRoot, readTrusted, type TrustedProject, trustFile, updateTrusted } from "../config/trust-store.js";
import type { HookEntry } from "../config/types.js";
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

/** The hooks of the project at `root` as its config file has them now (none when it has no file, or errors). */
function projectHooks(root: string): HookEntry[] {
	const file = findProjectConfig(root);
	return (file && readConfigFile(file, homedir())?.hooks) || [];
}

/** What a trust of a project with `hooks` lets run, in words. */
function hooksWords(hooks: readonly HookEntry[]): string {
	if (hooks.length === 0) return "";
	const listed = hooks.map((hook) => `  ${hook.event}: ${hook.command}`).join("\n");
	return `\nits hooks may now run (gar trust again if they change):\n${listed}`;
}

/**
 * `gar trust [DIR]`: lets the project's `.gar/config.toml` apply every setting and run its hooks as they are now
 * (their hash is recorded: changed hooks need `gar trust` again); `--list` prints the list.
 */
export function trustCommand(ctx: TrustContext, dir: string | undefined, options: { list?: boolean }): number {
	const file = trustFile(ctx.configDir);
	if (options.list) {
		const projects = projectsOf(readTrusted(file));
		if (projects.length === 0) ctx.write("no trusted projects\n");
		for (const project of projects) ctx.write(sanitizeForTerminal(`${project.path}  (since ${project.trustedAt})\n`));
		return 0;
	}
	const root = projectOf(ctx, dir, true);
	const hooks = projectHooks(root);
	// Only a project with hooks records their hash: hooks added later then need `gar trust` again.
	const hash = hooks.length > 0 ? hooksHash(hooks, root) : undefined;
	const change = updateTrusted(file, (read): { projects?: TrustedProject[]; result: "added" | "updated" | "same" } => {
		const projects = projectsOf(read);
		const trustedAt = (ctx.now?.() ?? new Date()).toISOString();
		const known = projects.find((project) => project.path === root);
		if (known && known.hooksHash === hash) return { result: "same" };
		const record = { path: root, trustedAt, ...(hash === undefined ? {} : { hooksHash: hash }) };
		if (!known) return { projects: [...projects, record], result: "added" };
		return { projects: projects.map((project) => (project === known ? record : project)), result: "updated" };
	});
	const text =
		change === "same"
			? `already trusted: ${root}\n`
			: change === "updated"
				? `trusted ${root} again: its hooks as they are now${hooksWords(hooks)}\n`
				: `trusted ${root}: its .gar/config.toml may now set base_url, api_key_env, api_key, pass_env and approval${hooksWords(hooks)}\n`;
	ctx.write(sanitizeForTerminal(text));
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
