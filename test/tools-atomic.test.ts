import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import {
	chmodSync,
	chownSync,
	lstatSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	readlinkSync,
	rmSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AtomicFs, writeFileAtomic } from "../src/tools/atomic-write.js";
import { createEditTool } from "../src/tools/edit.js";
import { createWriteTool } from "../src/tools/write.js";

let dir: string;
const ctx = () => ({ signal: new AbortController().signal });

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "gar-atomic-"));
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

/** node:fs with one call replaced by a failure, after the real temp file has been written. */
function failing(call: "renameSync" | "fsyncSync" | "writeSync", code = "EIO"): AtomicFs {
	const fail = () => {
		throw Object.assign(new Error(`${code}: injected failure`), { code });
	};
	if (call === "writeSync") {
		// Writes half the bytes for real, then fails: a temp file with partial content exists.
		let calls = 0;
		const writeSync = ((fd: number, buffer: Uint8Array, offset: number, length: number) => {
			if (calls++ > 0) fail();
			return fs.writeSync(fd, buffer, offset, Math.max(1, Math.floor(length / 2)));
		}) as AtomicFs["writeSync"];
		return { ...fs, writeSync };
	}
	return { ...fs, [call]: fail };
}

describe("writeFileAtomic", () => {
	it("leaves the old content and no temp file when a step after writing the temp file fails", () => {
		const file = join(dir, "f.txt");
		for (const call of ["writeSync", "fsyncSync", "renameSync"] as const) {
			writeFileSync(file, "old content\n");
			expect(() => writeFileAtomic(file, Buffer.from("new content, longer\n"), failing(call))).toThrow(
				/injected failure/,
			);
			expect(readFileSync(file, "utf8")).toBe("old content\n");
			expect(readdirSync(dir)).toEqual(["f.txt"]);
		}
	});

	it("keeps the mode (and, as root, the owner) of the file it replaces", () => {
		const file = join(dir, "run.sh");
		writeFileSync(file, "#!/bin/sh\n");
		chmodSync(file, 0o751);
		const root = process.getuid?.() === 0;
		if (root) chownSync(file, 1234, 5678);
		writeFileAtomic(file, Buffer.from("#!/bin/sh\necho hi\n"));
		expect(statSync(file).mode & 0o7777).toBe(0o751);
		if (root) expect([statSync(file).uid, statSync(file).gid]).toEqual([1234, 5678]);
		chmodSync(file, 0o600);
		writeFileAtomic(file, Buffer.from("x"));
		expect(statSync(file).mode & 0o7777).toBe(0o600);
	});

	it("writes through a symlink: the target changes, the link stays a link", () => {
		mkdirSync(join(dir, "real"));
		writeFileSync(join(dir, "real/target.txt"), "old\n");
		symlinkSync("real/target.txt", join(dir, "link.txt"));
		symlinkSync("link.txt", join(dir, "link2.txt"));
		writeFileAtomic(join(dir, "link2.txt"), Buffer.from("new\n"));
		expect(readFileSync(join(dir, "real/target.txt"), "utf8")).toBe("new\n");
		expect(lstatSync(join(dir, "link.txt")).isSymbolicLink()).toBe(true);
		expect(lstatSync(join(dir, "link2.txt")).isSymbolicLink()).toBe(true);
		expect(readlinkSync(join(dir, "link.txt"))).toBe("real/target.txt");
		expect(readdirSync(join(dir, "real"))).toEqual(["target.txt"]);
	});

	it("creates the target of a dangling symlink", () => {
		symlinkSync("made.txt", join(dir, "dangling"));
		writeFileAtomic(join(dir, "dangling"), Buffer.from("made\n"));
		expect(lstatSync(join(dir, "dangling")).isSymbolicLink()).toBe(true);
		expect(readFileSync(join(dir, "made.txt"), "utf8")).toBe("made\n");
	});
});

describe("write and edit are atomic", () => {
	it("a failed write or edit keeps the old bytes and leaves no temp file", async () => {
		const file = join(dir, "a.txt");
		writeFileSync(file, "one\ntwo\n");
		const write = createWriteTool({ cwd: dir, fs: failing("renameSync", "ENOSPC") });
		await expect(write.execute({ path: "a.txt", content: "other\n" }, ctx())).rejects.toThrow(
			"Cannot write a.txt: no space left on the device.",
		);
		const edit = createEditTool({ cwd: dir, fs: failing("fsyncSync") });
		await expect(edit.execute({ path: "a.txt", edits: [{ oldText: "two", newText: "2" }] }, ctx())).rejects.toThrow(
			/Cannot edit a\.txt: EIO: injected failure/,
		);
		expect(readFileSync(file, "utf8")).toBe("one\ntwo\n");
		expect(readdirSync(dir)).toEqual(["a.txt"]);
	});

	it("edit keeps the mode and writes through a symlink", async () => {
		writeFileSync(join(dir, "t.sh"), "echo a\n");
		chmodSync(join(dir, "t.sh"), 0o755);
		symlinkSync("t.sh", join(dir, "l.sh"));
		const r = await createEditTool({ cwd: dir }).execute(
			{ path: "l.sh", edits: [{ oldText: "a", newText: "b" }] },
			ctx(),
		);
		expect(r.isError).toBe(false);
		expect(readFileSync(join(dir, "t.sh"), "utf8")).toBe("echo b\n");
		expect(statSync(join(dir, "t.sh")).mode & 0o7777).toBe(0o755);
		expect(lstatSync(join(dir, "l.sh")).isSymbolicLink()).toBe(true);
	});

	it("SIGKILL during edits of a large file leaves the old or the new content, never a truncated one", async () => {
		const line = `${"x".repeat(999)}\n`;
		const a = `MARK-A\n${line.repeat(6000)}`;
		const b = `MARK-BBBBBBBB\n${line.repeat(6000)}`;
		const file = join(dir, "big.txt");
		const fixture = join(import.meta.dirname, "fixtures/tools/edit-loop.ts");
		for (let round = 0; round < 6; round++) {
			writeFileSync(file, a);
			// From the repository root, where `--import tsx` resolves.
			const child = spawn(process.execPath, ["--import", "tsx", fixture, file], {
				cwd: join(import.meta.dirname, ".."),
				stdio: ["ignore", "pipe", "inherit"],
			});
			await new Promise<void>((resolve, reject) => {
				child.stdout.once("data", () => resolve());
				child.once("exit", (code) => reject(new Error(`edit loop exited early (${code})`)));
			});
			await new Promise((r) => setTimeout(r, Math.random() * 300));
			// Kill while a write is under way: at the 1st to 3rd change seen in the folder (temp file made, written,
			// renamed; or, were the write not atomic, the file truncated and written).
			const exited = new Promise((r) => child.once("exit", r));
			let skip = round % 3;
			const watcher = fs.watch(dir, () => {
				if (skip-- === 0) child.kill("SIGKILL");
			});
			const fallback = setTimeout(() => child.kill("SIGKILL"), 1000);
			await exited;
			watcher.close();
			clearTimeout(fallback);
			const now = readFileSync(file, "utf8");
			expect(now === a || now === b, `round ${round}: ${now.length} bytes`).toBe(true);
		}
	}, 30_000);
});

/** Mounts a 64 KB tmpfs, or returns null where mounting is not allowed (not root, no privileges). */
function smallDisk(): string | null {
	const mount = join(dir, "disk");
	mkdirSync(mount);
	const r = spawnSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", mount], { stdio: "ignore" });
	return r.status === 0 ? mount : null;
}

describe("a full disk", () => {
	it("leaves the old file whole and says there is no space", async (t) => {
		const mount = smallDisk();
		if (!mount) {
			t.skip();
			return;
		}
		try {
			const file = join(mount, "f.txt");
			writeFileSync(file, "old\n".repeat(1000));
			const write = createWriteTool({ cwd: mount });
			await expect(write.execute({ path: "f.txt", content: "n".repeat(200_000) }, ctx())).rejects.toThrow(
				"Cannot write f.txt: no space left on the device.",
			);
			expect(readFileSync(file, "utf8")).toBe("old\n".repeat(1000));
			expect(readdirSync(mount)).toEqual(["f.txt"]);
		} finally {
			spawnSync("umount", [mount], { stdio: "ignore" });
		}
	});
});
