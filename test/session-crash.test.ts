import { type ChildProcess, spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { loadSession } from "../src/session/load.js";
import { SessionWriter } from "../src/session/writer.js";
import { tempDir } from "./fixtures/session/run.js";

const CHILD = new URL("./fixtures/session/crash-writer.ts", import.meta.url).pathname;

let cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups) cleanup();
	cleanups = [];
});

type Writer = { child: ChildProcess; file: Promise<string>; ids: () => string[]; exited: Promise<void> };

/** Starts a child that appends until killed; `ids` are those whose append had returned (complete stdout lines). */
function startWriter(args: string[]): Writer {
	const child = spawn(process.execPath, ["--import", "tsx", CHILD, ...args], { stdio: ["ignore", "pipe", "pipe"] });
	let out = "";
	let stderr = "";
	let resolveFile: (file: string) => void = () => {};
	let rejectFile: (error: Error) => void = () => {};
	const file = new Promise<string>((resolve, reject) => {
		resolveFile = resolve;
		rejectFile = reject;
	});
	child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
		out += chunk;
		// Resolve once the first id is out: the child is appending by then.
		const lines = out.split("\n");
		if (lines.length > 2) resolveFile(lines[0]?.replace(/^file /, "") ?? "");
	});
	child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
		stderr += chunk;
	});
	const exited = new Promise<void>((resolve) => {
		child.on("close", () => {
			rejectFile(new Error(`writer exited before writing: ${stderr}`));
			resolve();
		});
	});
	const ids = () => out.split("\n").slice(1, -1);
	return { child, file, ids, exited };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("crash safety", () => {
	it("keeps every entry whose append returned when the writer is SIGKILLed, and stays appendable", async () => {
		const { dir, cleanup } = tempDir();
		cleanups.push(cleanup);
		let file: string | undefined;
		const acknowledged = new Set<string>();
		for (let round = 0; round < 5; round++) {
			const writer = startWriter(file === undefined ? ["create", dir, "/p/crash"] : ["open", file]);
			file = await writer.file;
			await sleep(20 + Math.random() * 150);
			writer.child.kill("SIGKILL");
			await writer.exited;
			for (const id of writer.ids()) acknowledged.add(id);

			const session = loadSession(file);
			const stored = new Set(session.entries.map((e) => e.id));
			for (const id of acknowledged) expect(stored.has(id), `entry ${id} lost in round ${round}`).toBe(true);
			// At most one entry per round was written but not yet acknowledged when the kill landed.
			expect(stored.size - acknowledged.size).toBeLessThanOrEqual(round + 1);
		}
		if (file === undefined) throw new Error("no file");
		const writer = SessionWriter.open(file);
		const last = writer.appendUser("after the crashes");
		writer.close();
		const session = loadSession(file);
		expect(session.leafId).toBe(last.id);
		expect(session.entries.length).toBeGreaterThanOrEqual(acknowledged.size + 1);
	});

	it("two writers appending to two sessions in the same folder never interfere", async () => {
		const { dir, cleanup } = tempDir();
		cleanups.push(cleanup);
		const writers = [startWriter(["create", dir, "/p/shared"]), startWriter(["create", dir, "/p/shared"])];
		const files = await Promise.all(writers.map((w) => w.file));
		await sleep(200);
		for (const w of writers) w.child.kill("SIGKILL");
		await Promise.all(writers.map((w) => w.exited));
		expect(files[0]).not.toBe(files[1]);

		for (const [i, file] of files.entries()) {
			const mine = writers[i]?.ids() ?? [];
			const theirs = new Set(writers[1 - i]?.ids() ?? []);
			const stored = loadSession(file).entries.map((e) => e.id);
			expect(mine.length).toBeGreaterThan(0);
			expect(stored.slice(0, mine.length)).toEqual(mine);
			expect(stored.length - mine.length).toBeLessThanOrEqual(1);
			expect(stored.filter((id) => theirs.has(id))).toEqual([]);
			// Every entry of a file chains to the previous one of the same file.
			const session = loadSession(file);
			expect(session.pathTo(session.leafId)).toHaveLength(stored.length);
		}
	});
});
