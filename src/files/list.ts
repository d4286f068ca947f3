import type { Dirent } from "node:fs";
import { opendir } from "node:fs/promises";
import { join } from "node:path";
import { nodeChildProcess } from "../text/lazy-node.js";

/** The project's files, relative to where they were listed from: how they were found, and whether the list was cut. */
export type FileList = { files: string[]; source: "git" | "walk"; truncated: boolean };

export type ListOptions = {
	/** The most files listed (default 200,000); a longer list is cut and says so. */
	limit?: number;
	/** How deep the walk outside a repository goes (default 12 folders). */
	depth?: number;
	signal?: AbortSignal;
};

const LIMIT = 200_000;
const DEPTH = 12;
/** Folders a walk outside a repository never enters: version control and dependencies (and hidden folders). */
const SKIPPED = new Set(["node_modules", "__pycache__"]);

/**
 * The files of the project at `cwd`: in a git work tree what git knows — tracked and untracked, `.gitignore` respected
 * (`git ls-files --cached --others --exclude-standard`); elsewhere (or without git) a walk bounded in files and depth
 * that skips hidden folders and node_modules and follows no symbolic link to a folder. Never throws: a folder that
 * cannot be read is passed over.
 */
export async function listFiles(cwd: string, options: ListOptions = {}): Promise<FileList> {
	const limit = options.limit ?? LIMIT;
	const git = await gitFiles(cwd, limit, options.signal);
	if (git) return git;
	return walk(cwd, limit, options.depth ?? DEPTH, options.signal);
}

/** git's list, or null when `cwd` is not in a work tree (or git is not there). */
function gitFiles(cwd: string, limit: number, signal?: AbortSignal): Promise<FileList | null> {
	return new Promise((resolve) => {
		const args = ["ls-files", "--cached", "--others", "--exclude-standard", "-z"];
		const child = nodeChildProcess().spawn("git", args, {
			cwd,
			stdio: ["ignore", "pipe", "ignore"],
			...(signal ? { signal } : {}),
		});
		const files: string[] = [];
		let rest = "";
		let truncated = false;
		child.stdout.setEncoding("utf8");
		child.stdout.on("data", (chunk: string) => {
			if (truncated) return;
			const parts = (rest + chunk).split("\0");
			rest = parts.pop() ?? "";
			for (const part of parts) {
				if (files.length === limit) {
					truncated = true;
					child.kill();
					return;
				}
				if (part !== "") files.push(part);
			}
		});
		child.on("error", () => resolve(null));
		child.on("close", (code) => resolve(code === 0 || truncated ? { files, source: "git", truncated } : null));
	});
}

/** A breadth-first walk: the files nearest to `root` first, until `limit` files or `depth` folders down. */
async function walk(root: string, limit: number, depth: number, signal?: AbortSignal): Promise<FileList> {
	const files: string[] = [];
	let level = [""];
	for (let d = 0; d <= depth && level.length > 0; d++) {
		const next: string[] = [];
		for (const dir of level) {
			if (signal?.aborted) return { files, source: "walk", truncated: true };
			for (const entry of await entries(join(root, dir))) {
				const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
				if (entry.isDirectory()) {
					if (!entry.name.startsWith(".") && !SKIPPED.has(entry.name)) next.push(path);
				} else if (entry.isFile() || entry.isSymbolicLink()) {
					if (files.length === limit) return { files, source: "walk", truncated: true };
					files.push(path);
				}
			}
		}
		level = next;
	}
	return { files, source: "walk", truncated: level.length > 0 };
}

/** A folder's entries, sorted by name; none when it cannot be read. */
async function entries(dir: string): Promise<Dirent[]> {
	const out: Dirent[] = [];
	try {
		for await (const entry of await opendir(dir)) out.push(entry);
	} catch {
		return out;
	}
	return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
