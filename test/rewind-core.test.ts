import { chmodSync, existsSync, mkdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
	applyRewind,
	filesOnTheWay,
	previewRewind,
	promptsOnPath,
	RewindBusyError,
	redoRewind,
	redoTarget,
	withRewindLock,
} from "../src/rewind/api.js";
import { loadSession } from "../src/session/index.js";
import { type RewindWorld, rewindWorld } from "./support/rewind-world.js";

let world: RewindWorld | undefined;
afterEach(async () => {
	await world?.close();
	world = undefined;
});

const text = (bytes: Buffer | null) => bytes?.toString("utf8") ?? null;
const edit = (path: string, oldText: string, newText: string) => ({
	name: "edit",
	args: { path, edits: [{ oldText, newText }] },
});
const write = (path: string, content: string) => ({ name: "write", args: { path, content } });

describe("rewind (core): files follow the leaf", () => {
	it("restores an edited file and removes a created one; the leaf goes to the prompt's parent", async () => {
		world = await rewindWorld();
		world.put("old.txt", "one\ntwo\n");
		const first = await world.turn("make notes", [write("new.txt", "a\nb\n")], [edit("old.txt", "two", "TWO")]);
		expect(text(world.read("old.txt"))).toBe("one\nTWO\n");
		const report = world.rewind({ mode: "both", to: first.parentId });
		expect(text(world.read("old.txt"))).toBe("one\ntwo\n");
		expect(world.read("new.txt")).toBeNull();
		expect(report.ok).toBe(true);
		expect(report.restored.map((f) => [f.path.slice(world?.project.length), f.action])).toEqual([
			["/old.txt", "restored"],
			["/new.txt", "removed"],
		]);
		expect(report.restored[0]).toMatchObject({ insertions: 1, deletions: 1 });
		expect(world.writer().session.leafId).toBe(first.parentId);
	});

	it("never overwrites a hand-edited file: a conflict with its reason, the person's bytes kept", async () => {
		world = await rewindWorld();
		world.put("a.txt", "x\n");
		const first = await world.turn("edit", [edit("a.txt", "x", "y")], [write("b.txt", "b\n")]);
		world.put("a.txt", "mine\n");
		const report = world.rewind({ mode: "both", to: first.parentId });
		expect(text(world.read("a.txt"))).toBe("mine\n");
		expect(world.read("b.txt")).toBeNull();
		expect(report.ok).toBe(false);
		expect(report.skipped).toEqual([
			{ path: join(world.project, "a.txt"), reason: expect.stringMatching(/changed since gar's last change/) },
		]);
	});

	it("a created file deleted by hand is already gone; a redo makes it again", async () => {
		world = await rewindWorld();
		const first = await world.turn("make", [write("c.txt", "made\n")]);
		rmSync(join(world.project, "c.txt"));
		const report = world.rewind({ mode: "both", to: first.parentId });
		expect(report.ok).toBe(true);
		expect(report.restored).toMatchObject([{ action: "already" }]);
		const redo = redoRewind(world.writer());
		expect(redo).toMatchObject({ ok: true, restored: [{ action: "created" }] });
		expect(text(world.read("c.txt"))).toBe("made\n");
	});

	it("binary and CRLF/BOM files come back byte for byte, and go forward again on redo", async () => {
		world = await rewindWorld();
		const binary = Buffer.from([0, 1, 2, 255, 254, 10, 13, 0]);
		const crlf = Buffer.from("\uFEFFfirst\r\nsecond\r\n", "utf8");
		world.put("bin.dat", binary);
		world.put("crlf.txt", crlf);
		const first = await world.turn("change", [write("bin.dat", "text now\n")], [edit("crlf.txt", "second", "2nd")]);
		const after = { bin: world.read("bin.dat"), crlf: world.read("crlf.txt") };
		expect(world.rewind({ mode: "files", to: first.parentId }).ok).toBe(true);
		expect(world.read("bin.dat")?.equals(binary)).toBe(true);
		expect(world.read("crlf.txt")?.equals(crlf)).toBe(true);
		expect(redoRewind(world.writer())).toMatchObject({ ok: true });
		expect(world.read("bin.dat")?.equals(after.bin as Buffer)).toBe(true);
		expect(world.read("crlf.txt")?.equals(after.crlf as Buffer)).toBe(true);
	});

	it("an old file over 10 MB that a write replaced is reported as not restorable", async () => {
		world = await rewindWorld();
		world.put("big.log", Buffer.alloc(11 * 1024 * 1024, "z"));
		const first = await world.turn("shrink", [write("big.log", "small\n")]);
		const report = world.rewind({ mode: "files", to: first.parentId });
		expect(report.ok).toBe(false);
		expect(report.notRestorable).toEqual([
			{ path: join(world.project, "big.log"), reason: expect.stringMatching(/over 10 MB/) },
		]);
		expect(text(world.read("big.log"))).toBe("small\n");
	});

	it("rewind then redo: the bytes and the leaf are back as before, and it survives a reload", async () => {
		world = await rewindWorld();
		world.put("f.txt", "1\n2\n3\n");
		const first = await world.turn("go", [edit("f.txt", "2", "two")], [write("g.txt", "g\n")]);
		await world.turn("more", [edit("f.txt", "3", "three")]);
		chmodSync(join(world.project, "g.txt"), 0o750);
		const before = { f: world.read("f.txt"), g: world.read("g.txt"), leaf: world.writer().leafId };
		world.rewind({ mode: "both", to: first.parentId });
		expect(text(world.read("f.txt"))).toBe("1\n2\n3\n");
		const reloaded = loadSession(world.writer().file);
		expect(redoTarget(reloaded)).toMatchObject({ mode: "both", to: before.leaf });
		expect(redoRewind(world.writer(), { moveLeaf: (to) => world?.setup.conversation.branch(to) })).toMatchObject({
			ok: true,
		});
		expect(world.read("f.txt")?.equals(before.f as Buffer)).toBe(true);
		expect(world.read("g.txt")?.equals(before.g as Buffer)).toBe(true);
		expect(statSync(join(world.project, "g.txt")).mode & 0o777).toBe(0o750);
		expect(world.writer().session.leafId).toBe(before.leaf);
		expect(redoTarget(world.writer().session)).toEqual({ none: expect.stringMatching(/last rewind was a redo/) });
	});

	it("--conversation moves the leaf only; --files moves the files only; a redo takes each back", async () => {
		world = await rewindWorld();
		world.put("m.txt", "m\n");
		const first = await world.turn("m", [edit("m.txt", "m", "M")]);
		const leaf = world.writer().leafId;
		const talk = world.rewind({ mode: "conversation", to: first.parentId });
		expect(talk).toMatchObject({ ok: true, from: leaf, to: first.parentId, restored: [] });
		expect(talk.filesTo).toBeUndefined();
		expect(text(world.read("m.txt"))).toBe("M\n");
		expect(redoRewind(world.writer(), { moveLeaf: (to) => world?.setup.conversation.branch(to) })).toMatchObject({
			to: leaf,
		});
		const files = world.rewind({ mode: "files", to: first.parentId });
		expect(files).toMatchObject({ ok: true, from: leaf, to: leaf, filesTo: first.parentId });
		expect(text(world.read("m.txt"))).toBe("m\n");
		expect(world.writer().leafId).toBe(leaf);
		expect(redoRewind(world.writer())).toMatchObject({ ok: true, filesTo: leaf });
		expect(text(world.read("m.txt"))).toBe("M\n");
	});

	it("switches between two branches that edited one file differently, back and forth three times", async () => {
		world = await rewindWorld();
		world.put("s.txt", "base\n");
		const a = await world.turn("branch a", [edit("s.txt", "base", "from a")]);
		const leafA = world.writer().leafId;
		world.rewind({ mode: "both", to: a.parentId });
		await world.turn("branch b", [edit("s.txt", "base", "from b")], [write("only-b.txt", "b\n")]);
		const leafB = world.writer().leafId;
		for (let i = 0; i < 3; i++) {
			expect(world.rewind({ mode: "both", to: leafA }).ok).toBe(true);
			expect(text(world.read("s.txt"))).toBe("from a\n");
			expect(world.read("only-b.txt")).toBeNull();
			expect(world.rewind({ mode: "both", to: leafB }).ok).toBe(true);
			expect(text(world.read("s.txt"))).toBe("from b\n");
			expect(text(world.read("only-b.txt"))).toBe("b\n");
		}
	});

	it("a bash sed -i on the way is reported as bash-changed and not restored", async () => {
		world = await rewindWorld();
		world.put("cfg.ini", "port=1\n");
		const first = await world.turn("tweak", [{ name: "bash", args: { command: "sed -i 's/1/2/' cfg.ini" } }]);
		expect(text(world.read("cfg.ini"))).toBe("port=2\n");
		const report = world.rewind({ mode: "both", to: first.parentId });
		expect(report.bashChanged).toEqual([{ path: join(world.project, "cfg.ini"), entry: expect.any(String) }]);
		expect(text(world.read("cfg.ini"))).toBe("port=2\n");
	});

	it("the preview writes nothing, on disk or in the session", async () => {
		world = await rewindWorld();
		world.put("p.txt", "p\n");
		const first = await world.turn("p", [edit("p.txt", "p", "q")]);
		const lines = world.writer().session.entries.length;
		const preview = previewRewind(world.writer().session, { mode: "both", to: first.parentId });
		expect(preview).toMatchObject({ ok: true, dryRun: true, restored: [{ action: "restored" }] });
		expect(text(world.read("p.txt"))).toBe("q\n");
		expect(world.writer().session.entries.length).toBe(lines);
	});

	it("lists the prompts on the path, newest first, with the files changed after each", async () => {
		world = await rewindWorld();
		await world.turn("one", [write("1.txt", "1\n")]);
		await world.turn("two", [write("2.txt", "2\n"), write("1.txt", "one\n")]);
		await world.turn("three", [{ name: "bash", args: { command: "echo x > 3.txt" } }]);
		const session = world.writer().session;
		const rows = promptsOnPath(session);
		expect(filesOnTheWay(session, rows[1]?.parentId ?? null)).toEqual({ edited: 2, bashChanged: 1 });
		expect(filesOnTheWay(session, rows[0]?.id ?? null)).toEqual({ edited: 0, bashChanged: 1 });
		expect(rows.map((r) => [r.text, r.edited, r.bashChanged])).toEqual([
			["three", 0, 1],
			["two", 2, 1],
			["one", 2, 1],
		]);
	});
});

describe("rewind (core): bad input loses nothing", () => {
	it("a file that became a folder or a symlink, or lost its write permission, is skipped with why", async () => {
		world = await rewindWorld();
		for (const name of ["d", "l", "r"]) world.put(`${name}.txt`, "0\n");
		const first = await world.turn("all", [edit("d.txt", "0", "1"), edit("l.txt", "0", "1"), edit("r.txt", "0", "1")]);
		rmSync(join(world.project, "d.txt"));
		mkdirSync(join(world.project, "d.txt"));
		rmSync(join(world.project, "l.txt"));
		symlinkSync(join(world.project, "r.txt"), join(world.project, "l.txt"));
		chmodSync(join(world.project, "r.txt"), 0o444);
		const report = world.rewind({ mode: "files", to: first.parentId });
		expect(report.ok).toBe(false);
		const reasons = Object.fromEntries(report.skipped.map((s) => [s.path.slice(-5), s.reason]));
		expect(reasons).toEqual({
			"d.txt": expect.stringMatching(/is a folder now/),
			"l.txt": expect.stringMatching(/symbolic link/),
			"r.txt": expect.stringMatching(/no write permission/),
		});
		expect(text(world.read("r.txt"))).toBe("1\n");
	});

	it("a disk that fills during a restore: that file keeps its bytes, the rest go on, all reported", async () => {
		world = await rewindWorld();
		world.put("a.txt", "a\n");
		world.put("b.txt", "b\n");
		const first = await world.turn("both", [edit("a.txt", "a", "A"), edit("b.txt", "b", "B")]);
		const fs = await import("node:fs");
		const full = {
			...fs,
			writeSync: ((fd: number, ...rest: unknown[]) => {
				if (fs.fstatSync(fd).size === 0 && (rest[0] as Buffer).toString() === "a\n") {
					throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
				}
				return (fs.writeSync as (...args: unknown[]) => number)(fd, ...rest);
			}) as typeof fs.writeSync,
		};
		const report = world.rewind({ mode: "files", to: first.parentId }, { fs: full });
		expect(text(world.read("a.txt"))).toBe("A\n");
		expect(text(world.read("b.txt"))).toBe("b\n");
		expect(report.skipped).toEqual([
			{ path: join(world.project, "a.txt"), reason: expect.stringMatching(/no space left on device \(ENOSPC\)/) },
		]);
		// Run again once there is room: the rest of the job is done.
		expect(world.rewind({ mode: "files", to: first.parentId })).toMatchObject({ ok: true });
		expect(text(world.read("a.txt"))).toBe("a\n");
	});

	it("an entry that is not in the session is refused before anything moves", async () => {
		world = await rewindWorld();
		world.put("n.txt", "n\n");
		await world.turn("n", [edit("n.txt", "n", "m")]);
		expect(() => world?.rewind({ mode: "both", to: "nosuchentry" })).toThrow(/nosuchentry/);
		expect(text(world.read("n.txt"))).toBe("m\n");
	});

	it("two rewinds of one session never interleave: the second refuses after its wait, saying who holds it", async () => {
		world = await rewindWorld();
		world.put("k.txt", "k\n");
		const first = await world.turn("k", [edit("k.txt", "k", "K")]);
		const file = world.writer().file;
		writeFileSync(`${file}.lock`, `${process.pid} ${Date.now()}`);
		const writer = world.writer();
		const attempt = () => withRewindLock(file, () => applyRewind(writer, { mode: "files", to: first.parentId }), 50);
		expect(attempt).toThrow(RewindBusyError);
		expect(attempt).toThrow(new RegExp(`another gar \\(process ${process.pid}\\) is rewinding this session`));
		expect(text(world.read("k.txt"))).toBe("K\n");
		rmSync(`${file}.lock`);
		expect(withRewindLock(file, () => applyRewind(writer, { mode: "files", to: first.parentId }), 50).ok).toBe(true);
		expect(text(world.read("k.txt"))).toBe("k\n");
		expect(existsSync(`${file}.lock`)).toBe(false);
	});
});
