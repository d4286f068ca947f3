// The `@` finder on a generated 100,000-file tree: listing it (git ls-files in a work tree, the bounded walk outside
// one), then typing a query letter by letter — how long each letter waits for its paths, and the longest the event
// loop was held meanwhile (what a keypress could wait: the search runs in slices between other work).
// Run alone: node --import tsx scripts/bench-finder.ts
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";

const FILES = Number(process.env.BENCH_FINDER_FILES ?? 100_000);
const TARGET = "src/ui/chat/window.ts";
const QUERY = "chatwin";
const WORDS = ["index", "main", "util", "parser", "render", "config", "store", "window", "cache", "lines", "model"];
const MORE = ["state", "view", "chat", "tool", "agent", "session", "theme", "keys", "editor", "layout", "screen"];

/** A tree of `count` files in folders 1 to 4 deep, and an ignored folder of 10,000 more that git must leave out. */
function makeTree(count: number): string {
	const root = mkdtempSync(join(tmpdir(), "gar-bench-finder-"));
	const words = [...WORDS, ...MORE];
	// mulberry32: the same tree every run.
	let seed = 7;
	const pick = () => {
		seed = (seed + 0x6d2b79f5) | 0;
		let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return words[((t ^ (t >>> 14)) >>> 0) % words.length] as string;
	};
	const dirs: string[] = [];
	for (let i = 0; i < 2000; i++) {
		const depth = 1 + (i % 4);
		dirs.push(Array.from({ length: depth }, (_, d) => `${pick()}${d}`).join("/"));
	}
	for (const dir of new Set(dirs)) mkdirSync(join(root, "src", dir), { recursive: true });
	for (let i = 0; i < count; i++)
		writeFileSync(join(root, "src", dirs[i % dirs.length] as string, `${pick()}-${i}.ts`), "");
	// The file a person means by "chatwin", among all the others that match it too.
	mkdirSync(join(root, "src", "ui", "chat"), { recursive: true });
	writeFileSync(join(root, "src", "ui", "chat", "window.ts"), "");
	mkdirSync(join(root, "build"));
	for (let i = 0; i < 10_000; i++) writeFileSync(join(root, "build", `out-${i}.js`), "");
	return root;
}

const ms = (t0: number) => `${(performance.now() - t0).toFixed(0)} ms`;

/** Lines for `npm run bench`: the finder's figures on a FILES-file tree. */
export async function benchFinder(): Promise<string[]> {
	// fzf-for-js slices a search with setImmediate where `require` exists (as in gar's CommonJS bundle); this script
	// is an ES module, so give it one before fzf loads.
	const global = globalThis as { require?: NodeJS.Require };
	const had = "require" in global;
	global.require ??= createRequire(import.meta.url);
	const { listFiles } = await import("../src/files/list.js");
	const { FileFinder } = await import("../src/files/finder.js");
	if (!had) delete global.require;
	const root = makeTree(FILES);
	const lines: string[] = [];
	try {
		let t0 = performance.now();
		const walked = await listFiles(root, { limit: 200_000 });
		lines.push(`@ finder: walk outside a repository   ${walked.files.length} files in ${ms(t0)}`);
		execFileSync("git", ["init", "-q"], { cwd: root });
		writeFileSync(join(root, ".gitignore"), "build/\n");
		t0 = performance.now();
		const listed = await listFiles(root);
		lines.push(`@ finder: git ls-files (untracked, .gitignore)   ${listed.files.length} files in ${ms(t0)}`);
		const finder = new FileFinder({ cwd: root, list: async () => listed });
		t0 = performance.now();
		// An empty query answers as soon as the matchers are made (in steps, after the list).
		await new Promise((resolve) => finder.search("", resolve));
		lines.push(`@ finder: the matchers made, in steps of 5,000 paths   ${ms(t0)}`);
		const delay = monitorEventLoopDelay({ resolution: 1 });
		delay.enable();
		const waits: string[] = [];
		let first: readonly string[] = [];
		for (let n = 1; n <= QUERY.length; n++) {
			t0 = performance.now();
			const paths = await new Promise<readonly string[]>((resolve) => finder.search(QUERY.slice(0, n), resolve));
			waits.push(`${QUERY.slice(0, n)} ${ms(t0)}`);
			if (n === QUERY.length) first = paths;
		}
		delay.disable();
		lines.push(`@ finder: each letter of "${QUERY}" → its paths   ${waits.join(" · ")}`);
		lines.push(`@ finder: longest the event loop was held while searching   ${(delay.max / 1e6).toFixed(1)} ms`);
		lines.push(
			`@ finder: "${QUERY}" ranks ${TARGET} #${first.indexOf(TARGET) + 1}; next: ${first.slice(0, 3).join(", ")}`,
		);
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
	return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
	for (const line of await benchFinder()) console.log(line);
}
