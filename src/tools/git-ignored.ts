import type { ChildProcess } from "node:child_process";
import { nodeChildProcess } from "../text/lazy-node.js";

/** What git ignores under a folder: ignored files, and ignored folders (with a trailing "/"), relative to it. */
export type Ignored = ReadonlySet<string>;

/** How long git may take to list what it ignores before the scan goes on without it (it then skips nothing). */
const GIT_TIMEOUT_MS = 2000;
/** The most ignored paths kept (a tree of untracked ignored files one by one, in a folder git does not collapse). */
const MAX_IGNORED = 200_000;

/**
 * The untracked paths git ignores under `cwd` (`.gitignore`, `.git/info/exclude`, the global excludes), folders
 * collapsed into one path ending in "/": `git ls-files --others --ignored --exclude-standard --directory`. Null when
 * git is not there or `cwd` is not in a work tree. Reads only: git takes no lock and writes nothing.
 */
export function gitIgnored(cwd: string): Promise<Ignored | null> {
	return new Promise((resolve) => {
		const args = [
			"--no-optional-locks",
			"ls-files",
			"-z",
			"--others",
			"--ignored",
			"--exclude-standard",
			"--directory",
		];
		let child: ChildProcess;
		try {
			child = nodeChildProcess().spawn("git", args, {
				cwd,
				stdio: ["ignore", "pipe", "ignore"],
				timeout: GIT_TIMEOUT_MS,
			});
		} catch {
			resolve(null);
			return;
		}
		const paths = new Set<string>();
		let rest = "";
		child.stdout?.setEncoding("utf8");
		child.stdout?.on("data", (chunk: string) => {
			const parts = (rest + chunk).split("\0");
			rest = parts.pop() ?? "";
			for (const part of parts) if (part !== "" && paths.size < MAX_IGNORED) paths.add(part);
		});
		child.on("error", () => resolve(null));
		child.on("close", (code) => resolve(code === 0 ? paths : null));
	});
}
