// The stat scan around each bash call (README "Rewind"): what a command created, changed or deleted under its cwd,
// .gitignore respected in a git work tree, bounded in files and time, contents never read.
import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { BashDetails } from "../src/tools/details.js";
import { createTools, runTool } from "../src/tools/index.js";
import { TreeScan } from "../src/tools/tree-scan.js";
import { bashFilesLine } from "../src/view/format.js";
import { tempHome } from "./support/cli.js";

/** A project with a few files in folders, and a node_modules. */
function project(): string {
	const { project: dir } = tempHome();
	mkdirSync(join(dir, "src", "deep"), { recursive: true });
	mkdirSync(join(dir, "node_modules", "pkg"), { recursive: true });
	writeFileSync(join(dir, "a.txt"), "a\n");
	writeFileSync(join(dir, "src", "b.ts"), "b\n");
	writeFileSync(join(dir, "src", "deep", "c.ts"), "c\n");
	writeFileSync(join(dir, "node_modules", "pkg", "index.js"), "x\n");
	return dir;
}

const git = (dir: string, ...args: string[]) =>
	execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd: dir, stdio: "ignore" });

/** What `change` does to the tree, as a scan around it sees it. */
async function around(scan: TreeScan, change: () => void) {
	const baseline = await scan.before();
	change();
	return scan.after(baseline);
}

describe("the tree scan", () => {
	it("sees what a command created, changed and deleted, and nothing when nothing changed", async () => {
		const dir = project();
		const scan = new TreeScan(dir);
		expect(await around(scan, () => {})).toBeUndefined();
		const seen = await around(scan, () => {
			appendFileSync(join(dir, "a.txt"), "more\n");
			writeFileSync(join(dir, "src", "new.ts"), "n\n");
			rmSync(join(dir, "src", "deep"), { recursive: true });
			// Outside a git work tree, node_modules is left out.
			writeFileSync(join(dir, "node_modules", "pkg", "index.js"), "y\n");
		});
		expect(seen).toEqual({
			paths: [
				{ path: "a.txt", how: "changed" },
				{ path: "src/deep/c.ts", how: "deleted" },
				{ path: "src/new.ts", how: "created" },
			],
			total: 3,
		});
		expect(seen && bashFilesLine(seen)).toBe("changed 3 files: a.txt, src/deep/c.ts (deleted), src/new.ts (new)");
		// The next command starts from the tree as the last one left it.
		expect(await around(scan, () => {})).toBeUndefined();
	});

	it("does not count a change made before the command started (a write just before, or a person's edit)", async () => {
		const dir = project();
		const scan = new TreeScan(dir);
		await around(scan, () => {});
		writeFileSync(join(dir, "a.txt"), "written by the write tool\n");
		writeFileSync(join(dir, "made-before.txt"), "x\n");
		expect(await around(scan, () => {})).toBeUndefined();
		// A rename over the file (what sed -i does) is a change.
		const seen = await around(scan, () => {
			writeFileSync(join(dir, "src", ".b.tmp"), "B\n");
			execFileSync("mv", [join(dir, "src", ".b.tmp"), join(dir, "src", "b.ts")]);
		});
		expect(seen?.paths).toEqual([{ path: "src/b.ts", how: "changed" }]);
	});

	it("leaves out what git ignores in a work tree, even a folder made by the command", async () => {
		const dir = project();
		writeFileSync(join(dir, ".gitignore"), "build/\n*.log\n");
		git(dir, "init", "-q");
		git(dir, "add", "a.txt", "src", ".gitignore");
		git(dir, "commit", "-qm", "init");
		const scan = new TreeScan(dir);
		const seen = await around(scan, () => {
			mkdirSync(join(dir, "build", "out"), { recursive: true });
			writeFileSync(join(dir, "build", "out", "app.js"), "x\n");
			writeFileSync(join(dir, "debug.log"), "x\n");
			writeFileSync(join(dir, "src", "kept.ts"), "k\n");
			// Not ignored by .gitignore: inside a work tree, node_modules is like any folder.
			writeFileSync(join(dir, "node_modules", "pkg", "index.js"), "y\n");
		});
		expect(seen?.paths).toEqual([
			{ path: "node_modules/pkg/index.js", how: "changed" },
			{ path: "src/kept.ts", how: "created" },
		]);
		// git's own folder is never looked at: a commit changes nothing the scan reports.
		expect(await around(scan, () => git(dir, "commit", "-qm", "empty", "--allow-empty"))).toBeUndefined();
	});

	it("stops at its caps and says so: files, then time", async () => {
		const dir = project();
		for (let i = 0; i < 30; i++) writeFileSync(join(dir, `z${String(i).padStart(2, "0")}.txt`), `${i}\n`);
		const capped = new TreeScan(dir, { maxFiles: 10 });
		const seen = await around(capped, () => appendFileSync(join(dir, "src", "b.ts"), "x\n"));
		expect(seen?.cut).toBe("saw 0 files of a larger tree (the scan's cap is 10 files): changes beyond are not seen");
		const slow = new TreeScan(dir, { maxMs: 0 });
		const cut = await around(slow, () => appendFileSync(join(dir, "a.txt"), "x\n"));
		expect(cut?.cut).toMatch(/^stopped after \d+ ms, 0 of 33 files looked at: changes to the others are not seen$/);
		expect(cut && bashFilesLine(cut)).toBe("changes not all seen (scan incomplete)");
	});

	it("counts the work before the command against the same cap: what is left is all the after-pass gets", async () => {
		const dir = project();
		const scan = new TreeScan(dir, { maxMs: 50 });
		const baseline = await scan.before();
		appendFileSync(join(dir, "a.txt"), "x\n");
		const spent = await scan.after({ ...baseline, spentMs: 50 });
		expect(spent?.cut).toMatch(/^stopped after \d+ ms, 0 of 3 files looked at/);
		const left = await scan.after({ ...(await scan.before()), spentMs: 0 });
		expect(left?.cut).toBeUndefined();
	});

	it("goes in the bash tool's details (never in what the model reads)", async () => {
		const dir = project();
		const bash = createTools({ cwd: dir, env: process.env }).find((t) => t.name === "bash");
		if (!bash) throw new Error("bash");
		const result = await runTool(
			bash,
			{ command: "sed -i 's/a/A/' a.txt && echo done" },
			{ signal: new AbortController().signal },
		);
		expect((result.details as BashDetails).files).toEqual({ paths: [{ path: "a.txt", how: "changed" }], total: 1 });
		expect(result.content).toBe("done");
	});
});
