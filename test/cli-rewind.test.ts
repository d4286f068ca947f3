// gar rewind and gar -p --rewind-to, run as a person runs them (the built bin/gar.cjs), on sessions made by real runs
// against the wire-level test server.
import { mkdirSync, readdirSync, readFileSync, rmSync, watch, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runGar, spawnGar } from "./support/cli.js";
import { type RewindWorld, rewindWorld } from "./support/rewind-world.js";

let world: RewindWorld | undefined;
afterEach(async () => {
	await world?.close();
	world = undefined;
});

const edit = (path: string, oldText: string, newText: string) => ({
	name: "edit",
	args: { path, edits: [{ oldText, newText }] },
});

/** A session that edits a.txt and creates b.txt after one prompt; returns the world, its id and the prompt's id. */
async function edited() {
	world = await rewindWorld();
	world.put("a.txt", "one\ntwo\n");
	const prompt = await world.turn(
		"change",
		[edit("a.txt", "two", "TWO")],
		[{ name: "write", args: { path: "b.txt", content: "b\n" } }],
	);
	return { w: world, id: world.writer().session.header.id, prompt: prompt.id };
}

const text = (bytes: Buffer | null) => bytes?.toString("utf8") ?? null;
const gar = (w: RewindWorld, args: string[]) => runGar(args, { env: w.env, cwd: w.project });
const session = (w: RewindWorld) => readFileSync(w.writer().file, "utf8");

describe("gar rewind", () => {
	it("restores and removes, and prints the JSON shape the README gives (exit 0)", async () => {
		const { w, id, prompt } = await edited();
		const run = await gar(w, ["rewind", id, "--to", `${prompt}^`, "--json"]);
		expect(run.stderr).toBe("");
		expect(run.code).toBe(0);
		const json = JSON.parse(run.stdout);
		expect(Object.keys(json)).toEqual(
			expect.arrayContaining(["ok", "from", "to", "restored", "skipped", "bashChanged", "notRestorable"]),
		);
		expect(json).toMatchObject({ ok: true, mode: "both", skipped: [], bashChanged: [], notRestorable: [] });
		// Undone newest first: b.txt was written after a.txt was edited.
		expect(json.restored).toEqual([
			{ path: join(w.project, "b.txt"), action: "removed", insertions: 0, deletions: 1 },
			{ path: join(w.project, "a.txt"), action: "restored", insertions: 1, deletions: 1 },
		]);
		expect(readFileSync(join(w.project, "a.txt"), "utf8")).toBe("one\ntwo\n");
		expect(w.read("b.txt")).toBeNull();
		expect(session(w)).toContain('"type":"rewind"');
		const tree = JSON.parse((await gar(w, ["show", id, "--json"])).stdout);
		expect(tree.rewinds.map((r: { status: string }) => r.status)).toEqual(["started", "done"]);
		const shown = await gar(w, ["show", id]);
		expect(shown.stdout).toMatch(
			/rewinds:\n {2}\S+ {2}\w+ {2}rewind: the conversation and the files, leaf \w+ → \w+, files \w+ → \w+: 2 files restored/,
		);
	});

	it("a hand-edited file is skipped with its reason and keeps the person's bytes (exit 1)", async () => {
		const { w, id, prompt } = await edited();
		w.put("a.txt", "mine\n");
		const run = await gar(w, ["rewind", id, "--to", `${prompt}^`]);
		expect(run.code).toBe(1);
		expect(run.stdout).toMatch(/skipped\s+a\.txt: was changed since gar's last change/);
		expect(run.stdout).toMatch(/removed\s+b\.txt/);
		expect(run.stdout).toMatch(/done in part: 1 file restored, 1 skipped/);
		expect(readFileSync(join(w.project, "a.txt"), "utf8")).toBe("mine\n");
	});

	it("--dry-run changes nothing, on disk or in the session", async () => {
		const { w, id, prompt } = await edited();
		const before = session(w);
		const run = await gar(w, ["rewind", id, "--to", `${prompt}^`, "--dry-run"]);
		expect(run.code).toBe(0);
		expect(run.stdout).toMatch(/would restore\s+a\.txt\s+\+1 −1/);
		expect(run.stdout).toMatch(/dry run, nothing was changed/);
		expect(readFileSync(join(w.project, "a.txt"), "utf8")).toBe("one\nTWO\n");
		expect(session(w)).toBe(before);
	});

	it("bad usage exits 2 with a message and changes nothing", async () => {
		const { w, id, prompt } = await edited();
		const before = session(w);
		const cases: [string[], RegExp][] = [
			[["rewind", id], /needs --to ENTRY/],
			[["rewind", id, "--to", prompt, "--files", "--both"], /give one of --files, --conversation and --both/],
			[["rewind", id, "--to", "zzzzzz"], /zzzzzz/],
		];
		for (const [args, message] of cases) {
			const run = await gar(w, args);
			expect(run.code, args.join(" ")).toBe(2);
			expect(run.stderr).toMatch(message);
		}
		const elsewhere = join(w.root, "other");
		mkdirSync(elsewhere);
		const other = await runGar(["rewind", w.writer().file, "--to", prompt], { env: w.env, cwd: elsewhere });
		expect(other.code).toBe(2);
		expect(other.stderr).toMatch(/was recorded in .*project, not in .*other/);
		expect(session(w)).toBe(before);
		expect(readFileSync(join(w.project, "a.txt"), "utf8")).toBe("one\nTWO\n");
	});

	it("a second gar waits for the first one's rewind of the same session", async () => {
		const { w, id, prompt } = await edited();
		const lock = `${w.writer().file}.lock`;
		writeFileSync(lock, `${process.pid} ${Date.now()}`);
		const running = gar(w, ["rewind", id, "--to", `${prompt}^`]);
		await new Promise((resolve) => setTimeout(resolve, 700));
		expect(readFileSync(join(w.project, "a.txt"), "utf8")).toBe("one\nTWO\n");
		rmSync(lock);
		const run = await running;
		expect(run.code).toBe(0);
		expect(readFileSync(join(w.project, "a.txt"), "utf8")).toBe("one\ntwo\n");
	});
});

describe("gar rewind killed half way", () => {
	it("a SIGKILL in the middle of a 200-file restore: no file torn, and the same rewind again finishes the job", async () => {
		world = await rewindWorld();
		const w = world;
		const body = `${Array.from({ length: 400 }, (_, i) => `line ${i} of a file`).join("\n")}\n`;
		const calls = Array.from({ length: 200 }, (_, i) => {
			w.put(`f${i}.txt`, body);
			return edit(`f${i}.txt`, "line 7 of", "LINE 7 of");
		});
		const prompt = await w.turn("all of them", calls);
		const edited = body.replace("line 7 of", "LINE 7 of");
		const id = w.writer().session.header.id;
		const { child, closed } = spawnGar(["rewind", id, "--to", `${prompt.id}^`, "--files"], {
			env: w.env,
			cwd: w.project,
		});
		// Killed once files are being written (each is a temp file renamed over the old one: a few events per file).
		let events = 0;
		const watcher = watch(w.project, () => {
			if (++events === 60) child.kill("SIGKILL");
		});
		await closed;
		watcher.close();
		expect(session(w)).toContain('"status":"started"');
		expect(session(w)).not.toContain('"status":"done"');
		const names = () => readdirSync(w.project).filter((n) => n.endsWith(".txt"));
		const states = names().map((n) => text(w.read(n)));
		expect(states.every((s) => s === body || s === edited)).toBe(true);
		// It stopped half way: some files restored, some not yet.
		expect(states).toContain(body);
		expect(states).toContain(edited);
		const again = await gar(w, ["rewind", id, "--to", `${prompt.id}^`, "--files", "--json"]);
		expect(again.code, again.stderr).toBe(0);
		expect(names().map((n) => text(w.read(n)))).toEqual(names().map(() => body));
		expect(readdirSync(w.project).filter((n) => n.endsWith(".tmp"))).toEqual([]);
		const shown = await gar(w, ["show", id]);
		expect(shown.stdout).not.toMatch(/interrupted/);
	});
});

describe("gar -p --rewind-to", () => {
	const model = (w: RewindWorld) => ["--provider", "openai", "--model", "gpt-5", "--base-url", w.server.url];
	const env = (w: RewindWorld) => ({ ...w.env, OPENAI_API_KEY: "test-key" });

	it("rewinds the files, then runs the prompt", async () => {
		const { w, id, prompt } = await edited();
		const asked = w.server.requests.length;
		const args = ["-p", "--session", id, "--rewind-to", `${prompt}^`, "--files", ...model(w), "again"];
		const run = await runGar(args, { env: env(w), cwd: w.project });
		expect(run.code, run.stderr).toBe(0);
		expect(run.stderr).toMatch(/restored\s+a\.txt/);
		expect(readFileSync(join(w.project, "a.txt"), "utf8")).toBe("one\ntwo\n");
		expect(w.server.requests.length).toBe(asked + 1);
	});

	it("when the rewind skips a conflict, the run does not start (exit 1)", async () => {
		const { w, id, prompt } = await edited();
		w.put("a.txt", "mine\n");
		const asked = w.server.requests.length;
		const args = ["-p", "--session", id, "--rewind-to", `${prompt}^`, "--files", ...model(w), "again"];
		const run = await runGar(args, { env: env(w), cwd: w.project });
		expect(run.code).toBe(1);
		expect(run.stderr).toMatch(/skipped\s+a\.txt/);
		expect(run.stderr).toMatch(/the run did not start/);
		expect(w.server.requests.length).toBe(asked);
		expect(readFileSync(join(w.project, "a.txt"), "utf8")).toBe("mine\n");
	});

	it("--files without --rewind-to, and --rewind-to without -p, are usage errors", async () => {
		const { w, id, prompt } = await edited();
		const files = await runGar(["-p", "--session", id, "--files", "x"], { env: env(w), cwd: w.project });
		expect(files.code).toBe(2);
		expect(files.stderr).toMatch(/--files goes with --rewind-to/);
		const plain = await runGar(["--session", id, "--rewind-to", prompt, "x"], { env: env(w), cwd: w.project });
		expect(plain.code).toBe(2);
		expect(plain.stderr).toMatch(/use it with -p/);
	});
});
