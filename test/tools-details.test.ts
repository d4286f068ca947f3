import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTools, runTool, toolDetailsOf } from "../src/tools/index.js";

let dir: string;
const ctx = () => ({ signal: new AbortController().signal });

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "gar-details-"));
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

const hash = "a".repeat(64);

/** Records as the previous version wrote them to session files: same fields, no `kind`. */
const old = {
	read: { path: "/p/a.txt", startLine: 1, endLine: 3, totalLines: 3, truncated: false },
	writeCreated: {
		path: "/p/new.txt",
		diff: "--- new.txt\n+++ new.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n",
		oldHash: null,
		newHash: hash,
		undo: "delete",
		action: "created",
		bytes: 8,
	},
	writeOverwritten: {
		path: "/p/x.txt",
		diff: "--- x.txt\n+++ x.txt\n@@ -1,3 +1,4 @@\n one\n-two\n+2\n three\n+four\n",
		oldHash: hash,
		newHash: hash,
		undo: "patch",
		action: "overwritten",
		bytes: 17,
	},
	edit: {
		path: "/p/a.ts",
		diff: "--- a.ts\n+++ a.ts\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n",
		oldHash: hash,
		newHash: hash,
		undo: "previous_content",
		previousContent: "b25lCnR3bwp0aHJlZQo=",
		firstChangedLine: 2,
		matchLevels: ["exact", "line_endings"],
	},
	bash: {
		command: "seq 1 100",
		exitCode: 0,
		signal: null,
		durationMs: 12,
		timedOut: false,
		aborted: false,
		truncated: true,
		totalLines: 100,
		totalBytes: 292,
		fullOutputPath: "/tmp/gar-bash-0123456789ab.log",
	},
	error: { error: "invalid_arguments", message: "Invalid arguments for read: …" },
};

describe("toolDetailsOf", () => {
	it("reads records of the previous version, inferring kind and the new counts", () => {
		expect(toolDetailsOf("read", old.read)).toEqual({ kind: "read", ...old.read });
		expect(toolDetailsOf("write", old.writeCreated)).toEqual({
			kind: "write",
			...old.writeCreated,
			lines: 2,
			added: 2,
			removed: 0,
		});
		expect(toolDetailsOf("write", old.writeOverwritten)).toMatchObject({
			kind: "write",
			lines: 4,
			added: 2,
			removed: 1,
		});
		expect(toolDetailsOf("edit", old.edit)).toEqual({ kind: "edit", ...old.edit, added: 1, removed: 1 });
		expect(toolDetailsOf("bash", old.bash)).toEqual({ kind: "bash", ...old.bash, cwd: "" });
		expect(toolDetailsOf("read", old.error)).toEqual({ kind: "error", ...old.error });
		expect(toolDetailsOf("bash", { ...old.bash, fullOutputPath: undefined })).not.toHaveProperty("fullOutputPath");
	});

	it("returns what the tools make today unchanged", async () => {
		writeFileSync(join(dir, "a.txt"), "one\ntwo\n");
		const calls: [string, unknown][] = [
			["read", { path: "a.txt" }],
			["edit", { path: "a.txt", edits: [{ oldText: "two", newText: "2" }] }],
			["write", { path: "b.txt", content: "b\n" }],
			["bash", { command: "echo hi" }],
			["read", { path: "missing.txt" }],
			["write", { content: 3 }],
		];
		const tools = createTools({ cwd: dir, outputDir: dir });
		for (const [name, args] of calls) {
			const tool = tools.find((t) => t.name === name);
			if (!tool) throw new Error(name);
			const { details } = await runTool(tool, args, ctx());
			const stored = JSON.parse(JSON.stringify(details));
			expect(toolDetailsOf(name, stored), name).toEqual(stored);
		}
	});

	it("returns null for anything that does not fit, and never throws", () => {
		const odd: [string, unknown][] = [
			["read", null],
			["read", "text"],
			["read", [1, 2]],
			["read", { path: "/a" }],
			["write", { ...old.writeCreated, action: "moved" }],
			["write", { ...old.writeCreated, undo: "magic" }],
			["edit", { ...old.edit, matchLevels: ["fuzzy"] }],
			["edit", { ...old.edit, previousContent: 5 }],
			["bash", { ...old.bash, exitCode: "0" }],
			["mystery", { a: 1 }],
			["read", { kind: "toString" }],
			["read", { kind: "__proto__" }],
			["error", { path: "x" }],
			["read", { error: "exploded", message: "x" }],
			["write", { kind: "bash", command: "x" }],
		];
		for (const [name, details] of odd) expect(toolDetailsOf(name, details), JSON.stringify(details)).toBeNull();
		const hostile = Object.defineProperty({}, "path", {
			enumerable: true,
			get() {
				throw new Error("boom");
			},
		});
		expect(toolDetailsOf("read", hostile)).toBeNull();
	});
});
