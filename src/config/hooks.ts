import { closeSync, openSync, readSync, statSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve } from "node:path";
import { newSha256 } from "../text/digest.js";
import { tildePath } from "../text/paths.js";
import { hookLine } from "./locate.js";
import { type FileConfig, HOOK_EVENTS } from "./schema.js";
import { realPath, type TrustedProject } from "./trust-store.js";
import type { ConfiguredHook, HookEntry, HookTrust } from "./types.js";

/** Seconds a hook may run when its table sets no `timeout`. */
export const DEFAULT_HOOK_TIMEOUT = 60;

/** The most of one script the hooks hash reads: a hook script is small; a large file is hashed by its head. */
const MAX_HASHED_BYTES = 1_048_576;

/** The `[[hooks.EVENT]]` tables of one validated file, in event order then file order, with their lines. */
export function readHooks(table: FileConfig["hooks"], text: string, file: string): HookEntry[] {
	const out: HookEntry[] = [];
	for (const event of HOOK_EVENTS) {
		(table?.[event] ?? []).forEach((hook, index) => {
			const line = hookLine(text, event, index);
			out.push({
				event,
				...(hook.matcher === undefined ? {} : { matcher: hook.matcher }),
				command: hook.command,
				timeout: hook.timeout ?? DEFAULT_HOOK_TIMEOUT,
				file,
				...(line === undefined ? {} : { line }),
			});
		});
	}
	return out;
}

/**
 * What a trust of the project at `root` covers of its hooks: every table (event, matcher, command, timeout), and
 * the bytes of every file inside the project that a command names (`.gar/hooks/guard.sh`,
 * `$GAR_PROJECT_DIR/check.py`), so a changed script needs `gar trust` again like a changed table.
 */
export function hooksHash(hooks: readonly HookEntry[], root: string): string {
	const hash = newSha256();
	for (const { event, matcher, command, timeout } of hooks) {
		hash.update(JSON.stringify([event, matcher ?? null, command, timeout]));
		for (const file of projectFiles(command, root)) {
			hash.update(`\0${relative(root, file)}\0`);
			hash.update(readHead(file));
		}
	}
	return hash.digest("hex");
}

/** The regular files inside `root` that the words of `command` name (hooks run in `root`). */
function projectFiles(command: string, root: string): string[] {
	const files: string[] = [];
	for (const raw of command.split(/[\s;&|()<>]+/)) {
		const word = raw
			.replace(/^["']|["']$/g, "")
			.replace(/^(?:\$\{?(?:GAR|CLAUDE)_PROJECT_DIR\}?|"\$\{?(?:GAR|CLAUDE)_PROJECT_DIR\}?")/, root);
		if (word === "" || word.startsWith("-") || word.startsWith("~") || word.startsWith("$")) continue;
		const path = realPath(resolve(root, word));
		const inside = relative(root, path);
		if (inside === "" || inside.startsWith("..") || isAbsolute(inside)) continue;
		try {
			if (statSync(path).isFile() && !files.includes(path)) files.push(path);
		} catch {
			// Not a file: a word of the command, not a script.
		}
	}
	return files;
}

function readHead(file: string): Buffer {
	const buffer = Buffer.alloc(MAX_HASHED_BYTES);
	let fd: number | undefined;
	try {
		fd = openSync(file, "r");
		return buffer.subarray(0, readSync(fd, buffer, 0, MAX_HASHED_BYTES, 0));
	} catch {
		return Buffer.alloc(0);
	} finally {
		if (fd !== undefined) closeSync(fd);
	}
}

/** The hooks of the user file and of the project file, each with whether it may run given the project's trust. */
export function configuredHooks(
	user: readonly HookEntry[],
	project: { file: string; hooks: readonly HookEntry[]; trust: TrustedProject | undefined } | undefined,
): ConfiguredHook[] {
	const out: ConfiguredHook[] = user.map((hook) => ({ ...hook, trust: "user" }));
	if (!project || project.hooks.length === 0) return out;
	const root = realPath(dirname(dirname(project.file)));
	let trust: HookTrust = "untrusted";
	if (project.trust) trust = project.trust.hooksHash === hooksHash(project.hooks, root) ? "trusted" : "changed";
	for (const hook of project.hooks) out.push({ ...hook, trust });
	return out;
}

/** Hooks that may run: the user's, and a trusted project's unchanged ones. */
export function runnableHooks(hooks: readonly ConfiguredHook[]): ConfiguredHook[] {
	return hooks.filter((hook) => hook.trust === "user" || hook.trust === "trusted");
}

/** The one warning for a project's hooks that will not run, naming the command that lets them; else undefined. */
export function skippedHooksNotice(hooks: readonly ConfiguredHook[], home: string): string | undefined {
	const skipped = hooks.filter((hook) => hook.trust === "untrusted" || hook.trust === "changed");
	const first = skipped[0];
	if (!first) return undefined;
	const dir = dirname(dirname(first.file));
	const shown = tildePath(dir, home);
	const root = /^[\w@%+=:,./~-]+$/.test(shown) ? shown : `'${dir.replace(/'/g, "'\\''")}'`;
	const n = skipped.length === 1 ? "its hook" : `its ${skipped.length} hooks`;
	const where = tildePath(first.file, home);
	return first.trust === "untrusted"
		? `not running ${n} from ${where}: the project is not trusted (run "gar trust ${root}" to run them; "gar hooks" lists them)`
		: `not running ${n} from ${where}: they changed since the project was trusted (run "gar trust ${root}" again to run them; "gar hooks" lists them)`;
}
