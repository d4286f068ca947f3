// read, write and edit through an editor's text of the files (ACP's fs methods), given as a FileAccess.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEditTool, createReadTool, createWriteTool, type FileAccess, previousBytes } from "../src/tools/index.js";

let dir: string;
const ctx = () => ({ signal: new AbortController().signal });

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "gar-files-"));
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

/** An editor holding buffers (unsaved text) that never saves them: every call is recorded. */
function editor(buffers: Record<string, string>, failReads = false) {
	const calls: string[] = [];
	const files: FileAccess = {
		readText: async (abs) => {
			calls.push(`read ${abs}`);
			if (failReads) throw new Error("the editor is gone");
			const text = buffers[abs];
			if (text === undefined) return readFileSync(abs, "utf8");
			return text;
		},
		writeText: async (abs, text) => {
			calls.push(`write ${abs}`);
			buffers[abs] = text;
		},
	};
	return { files, calls, buffers };
}

describe("tools through an editor's files", () => {
	it("read shows the editor's unsaved text, not the disk's", async () => {
		writeFileSync(join(dir, "a.txt"), "saved\n");
		const { files } = editor({ [join(dir, "a.txt")]: "unsaved one\nunsaved two\n" });
		const r = await createReadTool({ cwd: dir, files }).execute({ path: "a.txt" }, ctx());
		expect(r.content).toBe("1\tunsaved one\n2\tunsaved two");
		expect(r.details).toMatchObject({ startLine: 1, endLine: 2, totalLines: 2 });
	});

	it("read shows a new buffer the editor has not saved yet", async () => {
		const { files } = editor({ [join(dir, "new.txt")]: "draft\n" });
		const r = await createReadTool({ cwd: dir, files }).execute({ path: "new.txt" }, ctx());
		expect(r.content).toBe("1\tdraft");
	});

	it("read never asks the editor for a binary file, and falls back to the disk when the editor fails", async () => {
		writeFileSync(join(dir, "b.bin"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1]));
		writeFileSync(join(dir, "c.txt"), "on disk\n");
		const { files, calls } = editor({}, true);
		const read = createReadTool({ cwd: dir, files });
		await expect(read.execute({ path: "b.bin" }, ctx())).rejects.toThrow(/not a text file \(PNG image/);
		expect(calls).toEqual([]);
		expect((await read.execute({ path: "c.txt" }, ctx())).content).toBe("1\ton disk");
	});

	it("edit applies to the editor's text and writes through it; the undo record gives that text back", async () => {
		const path = join(dir, "e.ts");
		writeFileSync(path, "const a = 1;\n");
		const { files, buffers, calls } = editor({ [path]: "const a = 1;\nconst b = 2;\n" });
		const tool = createEditTool({ cwd: dir, files });
		const preview = await tool.preview?.({ path: "e.ts", edits: [{ oldText: "b = 2", newText: "b = 3" }] }, ctx());
		expect(preview).toMatchObject({ kind: "edit", firstChangedLine: 2, added: 1, removed: 1 });
		const r = await tool.execute({ path: "e.ts", edits: [{ oldText: "b = 2", newText: "b = 3" }] }, ctx());
		expect(buffers[path]).toBe("const a = 1;\nconst b = 3;\n");
		// The disk is the editor's to save.
		expect(readFileSync(path, "utf8")).toBe("const a = 1;\n");
		expect(calls.at(-1)).toBe(`write ${path}`);
		const undone = previousBytes(r.details, Buffer.from(buffers[path] as string));
		expect(undone?.toString("utf8")).toBe("const a = 1;\nconst b = 2;\n");
	});

	it("write takes the old text from the editor and writes through it", async () => {
		const path = join(dir, "w.md");
		writeFileSync(path, "old on disk\n");
		const { files, buffers } = editor({ [path]: "old in the editor\n" });
		const r = await createWriteTool({ cwd: dir, files }).execute({ path: "w.md", content: "new\n" }, ctx());
		expect(buffers[path]).toBe("new\n");
		expect(r.details).toMatchObject({ action: "overwritten", added: 1, removed: 1 });
		expect(previousBytes(r.details, Buffer.from("new\n"))?.toString("utf8")).toBe("old in the editor\n");
	});

	it("write creates a file through the editor (its folders made on disk)", async () => {
		const { files, buffers } = editor({});
		const r = await createWriteTool({ cwd: dir, files }).execute({ path: "sub/n.txt", content: "hi\n" }, ctx());
		expect(buffers[join(dir, "sub/n.txt")]).toBe("hi\n");
		expect(r.details).toMatchObject({ action: "created", undo: "delete" });
	});

	it("a failed write through the editor is the model's error, in words", async () => {
		const files: FileAccess = {
			writeText: async () => {
				throw new Error("buffer is read-only");
			},
		};
		await expect(createWriteTool({ cwd: dir, files }).execute({ path: "x", content: "y" }, ctx())).rejects.toThrow(
			"Cannot write x: buffer is read-only",
		);
	});
});
