// The @ finder's files: git-aware listing (or a bounded walk), fzf's ranking of paths, and a list made again when
// stale or when a file it names is gone.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileFinder } from "../src/files/finder.js";
import { type FileList, listFiles } from "../src/files/list.js";

const HAS_GIT = spawnSync("git", ["--version"]).status === 0;

function tree(files: string[]): string {
	const root = mkdtempSync(join(tmpdir(), "gar-finder-"));
	for (const file of files) {
		mkdirSync(join(root, file, ".."), { recursive: true });
		writeFileSync(join(root, file), "x\n");
	}
	return root;
}

const git = (cwd: string, ...args: string[]) =>
	execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, stdio: "ignore" });

/** The finder's paths for `query`, once it answers. */
const find = (finder: FileFinder, query: string) =>
	new Promise<readonly string[]>((resolve) => finder.search(query, resolve));

const listed = (files: string[]) => async (): Promise<FileList> => ({ files, source: "git", truncated: false });

const PROJECT = [
	"README.md",
	"package.json",
	"src/ui/chat/window.ts",
	"src/ui/chat/window-cache.ts",
	"src/ui/state/store.ts",
	"src/ui/state/use-store.ts",
	"src/config/trust-store.ts",
	"src/ui/screens/chat-keys.ts",
	"src/ui/keys/key-table.ts",
	"test/ui-chat-window.test.ts",
	"test/ui-store.test.ts",
	"docs/windows/setup.md",
	"vendor/w/i/n/d/o/w/x.ts",
];

describe("the @ finder's ranking", () => {
	it("puts the file name's match first, letters together before scattered ones, the shorter path on a tie", async () => {
		const finder = new FileFinder({ cwd: "/", list: listed(PROJECT) });
		expect(await find(finder, "window")).toEqual([
			"src/ui/chat/window.ts",
			"src/ui/chat/window-cache.ts",
			"test/ui-chat-window.test.ts",
			"docs/windows/setup.md",
			"vendor/w/i/n/d/o/w/x.ts",
		]);
		expect((await find(finder, "store")).slice(0, 3)).toEqual([
			"src/ui/state/store.ts",
			"test/ui-store.test.ts",
			"src/ui/state/use-store.ts",
		]);
		expect(await find(finder, "chatkeys")).toEqual(["src/ui/screens/chat-keys.ts"]);
		expect((await find(finder, "ktable"))[0]).toBe("src/ui/keys/key-table.ts");
		// Lower case matches either case; a capital letter only a capital.
		expect(await find(finder, "readme")).toEqual(["README.md"]);
		expect(await find(finder, "Readme")).toEqual([]);
		expect(await find(finder, "zzz")).toEqual([]);
		// Nothing typed yet: the shortest paths.
		expect((await find(finder, "")).slice(0, 2)).toEqual(["README.md", "package.json"]);
	});

	it("ranks over more paths than one matcher holds (the list is matched in shards)", async () => {
		const many = Array.from({ length: 12_000 }, (_, i) => `gen/dir${i % 97}/file-${i}.ts`);
		many.splice(7_777, 0, "src/ui/chat/window.ts");
		const finder = new FileFinder({ cwd: "/", list: listed(many) });
		expect((await find(finder, "chatwin"))[0]).toBe("src/ui/chat/window.ts");
		expect(await find(finder, "file-11999")).toEqual(["gen/dir68/file-11999.ts"]);
	});

	it("answers only the newest of several searches typed quickly", async () => {
		const finder = new FileFinder({ cwd: "/", list: listed(PROJECT) });
		const answers: string[] = [];
		for (const query of ["w", "wi", "win"]) finder.search(query, () => answers.push(query));
		await find(finder, "wind");
		expect(answers).toEqual([]);
	});
});

describe("the @ finder's list", () => {
	it.skipIf(!HAS_GIT)(
		"in a git work tree: tracked and untracked files, .gitignore respected, relative to cwd",
		async () => {
			const root = tree(["src/a.ts", "src/new.ts", "build/out.js", "notes.tmp", "docs/guide.md"]);
			writeFileSync(join(root, ".gitignore"), "build/\n*.tmp\n");
			git(root, "init", "-q");
			git(root, "add", "src/a.ts", ".gitignore");
			git(root, "commit", "-qm", "first");
			const list = await listFiles(root);
			expect(list.source).toBe("git");
			expect([...list.files].sort()).toEqual([".gitignore", "docs/guide.md", "src/a.ts", "src/new.ts"]);
			expect([...(await listFiles(join(root, "src"))).files].sort()).toEqual(["a.ts", "new.ts"]);
			rmSync(root, { recursive: true, force: true });
		},
	);

	it("outside a repository: a walk, nearest files first, past hidden folders and node_modules, bounded", async () => {
		const root = tree(["b.txt", "a/deep/c.txt", ".git-less/x", ".hidden/y", "node_modules/z/index.js", ".env"]);
		const list = await listFiles(root);
		expect(list).toEqual({ files: [".env", "b.txt", "a/deep/c.txt"], source: "walk", truncated: false });
		expect(await listFiles(root, { limit: 2 })).toEqual({ files: [".env", "b.txt"], source: "walk", truncated: true });
		expect((await listFiles(root, { depth: 1 })).files).toEqual([".env", "b.txt"]);
		rmSync(root, { recursive: true, force: true });
	});

	it("is made again once stale, the old one answering meanwhile", async () => {
		let clock = 0;
		let calls = 0;
		const lists = [["old.ts"], ["old.ts", "new.ts"]];
		const finder = new FileFinder({
			cwd: "/",
			now: () => clock,
			staleMs: 1000,
			list: async () => ({ files: lists[Math.min(calls++, 1)] as string[], source: "git", truncated: false }),
		});
		expect(await find(finder, "ts")).toEqual(["old.ts"]);
		clock = 500;
		expect(await find(finder, "new")).toEqual([]);
		expect(calls).toBe(1);
		// A run ended: the next search lists again; it answers from the old list, then from the new one.
		finder.stale();
		const answers: (readonly string[])[] = [];
		await new Promise<void>((resolve) =>
			finder.search("new", (paths) => {
				answers.push(paths);
				if (paths.length > 0) resolve();
			}),
		);
		expect(answers.at(-1)).toEqual(["new.ts"]);
		expect(calls).toBe(2);
	});

	it("says a file removed since it was listed is gone, and lists again", async () => {
		const root = tree(["keep.ts", "gone.ts"]);
		let calls = 0;
		const list = (cwd: string) => {
			calls++;
			return listFiles(cwd);
		};
		const finder = new FileFinder({ cwd: root, list });
		expect(await find(finder, "gone")).toEqual(["gone.ts"]);
		rmSync(join(root, "gone.ts"));
		expect(finder.missing("keep.ts")).toBeNull();
		expect(finder.missing("gone.ts")).toBe(
			"not inserted: gone.ts was removed since the file list was made (listing the files again)",
		);
		expect(calls).toBe(2);
		// The old list answers at once, the new one once it is made.
		await new Promise<void>((resolve) => finder.search("gone", (paths) => paths.length === 0 && resolve()));
		rmSync(root, { recursive: true, force: true });
	});
});
