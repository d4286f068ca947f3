import { statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { gitRoot } from "../text/paths.js";

/** Where gar keeps its files. XDG layout on every platform; relative XDG variables are ignored, as the spec says. */
export function configPaths(
	home: string,
	env: NodeJS.ProcessEnv,
): { configDir: string; configFile: string; dataDir: string; sessionsDir: string } {
	const configHome = absoluteOr(env.XDG_CONFIG_HOME, join(home, ".config"));
	const dataHome = absoluteOr(env.XDG_DATA_HOME, join(home, ".local", "share"));
	const configDir = join(configHome, "gar");
	const dataDir = join(dataHome, "gar");
	return { configDir, configFile: join(configDir, "config.toml"), dataDir, sessionsDir: join(dataDir, "sessions") };
}

function absoluteOr(value: string | undefined, fallback: string): string {
	return value && isAbsolute(value) ? value : fallback;
}

/**
 * The project config: the nearest `.gar/config.toml` from `cwd` up to the git root (the directory holding
 * `.git`, a folder or a worktree file). Outside a repository only `cwd` is looked at.
 */
export function findProjectConfig(cwd: string): string | undefined {
	const start = resolve(cwd);
	const root = gitRoot(start);
	for (let dir = start; ; dir = dirname(dir)) {
		const file = join(dir, ".gar", "config.toml");
		if (isFile(file)) return file;
		if (root === undefined || dir === root || dirname(dir) === dir) return undefined;
	}
}

function isFile(path: string): boolean {
	try {
		return statSync(path).isFile();
	} catch {
		return false;
	}
}
