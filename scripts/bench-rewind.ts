// Rewind's two figures (issue 19): a rewind of 200 files edited by a real run (the wire-level test server, the real
// edit tool), in process (applyRewind; rewind and redo alternating) and as `gar rewind` from the shell; and the stat
// scan around a bash call on a 20,000-file tree (before + after, what each bash call pays; target ≤ 50 ms or the cap),
// in a plain folder and in a git work tree with a .gitignore.
// Run alone: `node --import tsx scripts/bench-rewind.ts` (after `node scripts/build.mjs`).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { redoRewind } from "../src/rewind/api.js";
import { TreeScan } from "../src/tools/tree-scan.js";
import { rewindWorld } from "../test/support/rewind-world.js";
import { median } from "./bench-stats.js";

const FILES = 200;
const LINES = 400;
const TREE = 20_000;
const RUNS = 5;
const GAR = new URL("../bin/gar.cjs", import.meta.url).pathname;
const ms = (value: number) => `${value.toFixed(1).padStart(7)} ms`;

/** 200 files of 400 lines each, one line of each changed by the edit tool in one run. */
async function rewindFigures(): Promise<string[]> {
	const world = await rewindWorld();
	try {
		const body = Array.from({ length: LINES }, (_, i) => `line ${i} of a file that a model edits in one place`);
		const calls = Array.from({ length: FILES }, (_, i) => {
			writeFileSync(join(world.project, `f${i}.txt`), `${body.join("\n")}\n`);
			return { name: "edit", args: { path: `f${i}.txt`, edits: [{ oldText: "line 7 of", newText: "LINE 7 of" }] } };
		});
		const prompt = await world.turn("edit them all", calls);
		const back: number[] = [];
		const forth: number[] = [];
		for (let i = 0; i < RUNS; i++) {
			let started = performance.now();
			const report = world.rewind({ mode: "both", to: prompt.parentId });
			back.push(performance.now() - started);
			if (!report.ok || report.restored.length !== FILES) throw new Error("the rewind did not restore every file");
			started = performance.now();
			redoRewind(world.writer(), { moveLeaf: (to) => world.setup.conversation.branch(to) });
			forth.push(performance.now() - started);
		}
		const id = world.writer().session.header.id;
		const shell: number[] = [];
		for (let i = 0; i < RUNS; i++) {
			const to = i % 2 === 0 ? `${prompt.id}^` : String(world.writer().session.leafId);
			const started = performance.now();
			const run = spawnSync(process.execPath, [GAR, "rewind", id, "--to", to, "--files"], {
				env: world.env,
				cwd: world.project,
			});
			shell.push(performance.now() - started);
			if (run.status !== 0) throw new Error(`gar rewind exited ${run.status}: ${run.stderr}`);
		}
		return [
			`rewind of ${FILES} files (${LINES} lines each), in process   ${ms(median(back))}   redo ${ms(median(forth))}`,
			`gar rewind of ${FILES} files, from the shell          ${ms(median(shell))}`,
		];
	} finally {
		await world.close();
		rmSync(world.root, { recursive: true, force: true });
	}
}

/** A tree of TREE files in 200 folders (and an ignored folder as large again, inside git). */
function makeTree(root: string, git: boolean): void {
	for (let d = 0; d < 200; d++) {
		const dir = join(root, `d${d}`);
		mkdirSync(dir);
		for (let f = 0; f < TREE / 200; f++) writeFileSync(join(dir, `f${f}.ts`), "x");
	}
	if (!git) return;
	mkdirSync(join(root, "build"));
	for (let f = 0; f < 2000; f++) writeFileSync(join(root, "build", `o${f}.js`), "y");
	writeFileSync(join(root, ".gitignore"), "build/\n");
	execFileSync("git", ["init", "-q"], { cwd: root });
}

/** One bash call's scans (before and after), medians of RUNS after a first call (the first lists every folder). */
async function scanFigures(git: boolean): Promise<string> {
	const root = mkdtempSync(join(tmpdir(), "gar-bench-scan-"));
	try {
		makeTree(root, git);
		const scan = new TreeScan(root);
		const first = performance.now();
		await scan.after(await scan.before());
		const firstMs = performance.now() - first;
		const times: number[] = [];
		let note = "";
		for (let i = 0; i < RUNS; i++) {
			const started = performance.now();
			const baseline = await scan.before();
			writeFileSync(join(root, "d3", "f1.ts"), `changed ${i}`);
			const files = await scan.after(baseline);
			times.push(performance.now() - started);
			note = files?.cut ? ` (cut: ${files.cut})` : ` (${files?.total ?? 0} change seen)`;
		}
		const where = git ? "git work tree + .gitignore" : "plain folder";
		return `bash scan, ${TREE.toLocaleString("en")} files, ${where.padEnd(26)} ${ms(median(times))} per call   first ${ms(firstMs)}${note}`;
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
}

/** The figures as lines for `npm run bench`. */
export async function benchRewind(): Promise<string[]> {
	return [...(await rewindFigures()), await scanFigures(false), await scanFigures(true)];
}

if (import.meta.url === `file://${process.argv[1]}`) {
	for (const line of await benchRewind()) console.log(line);
}
