// The start script (src/boot.ts → dist/cli.cjs) runs dist/gar.cjs through a V8 code cache, one per kind of launch.
// Each case launches the built CLI as a person would; the cache files show what each launch did: a cache that was
// used is left as it was, one that was missing or refused is written.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
	chmodSync,
	chownSync,
	copyFileSync,
	existsSync,
	lstatSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	symlinkSync,
	utimesSync,
	writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SessionWriter } from "../src/session/writer.js";
import { atBundleRead, runGar, runProgram, tempHome } from "./support/cli.js";
import { garInTerminal, HAS_TMUX, TmuxSession } from "./support/tmux.js";
import { startWireServer, type WireServer } from "./support/wire-server.js";

const ROOT = join(import.meta.dirname, "..");
const REPLY = {
	role: "assistant" as const,
	provider: "openai",
	model: "m",
	usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 },
	stopReason: "stop" as const,
};
const VERSION = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version as string;

let server: WireServer | undefined;
let tmux: TmuxSession | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
	tmux?.kill();
	tmux = undefined;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A home whose code cache is a folder of its own. */
function home() {
	const { root, project, env } = tempHome();
	const cache = join(root, "cache");
	return { root, project, cache, env: { ...env, XDG_CACHE_HOME: cache } };
}

/**
 * A copy of the built gar in `dir` (bin/gar.cjs, dist/cli.cjs and both bundles, dist/gar.cjs and dist/headless.cjs);
 * returns its bin/gar.cjs. `edit` changes each bundle's text (keep its length: V8 itself compares only that); with
 * `build`, the start script is the one the build would make for those bundles (it carries the hash of each bundle's
 * content). Every copy's bundles have the same time.
 */
function install(dir: string, options: { edit?: (text: string) => string; build?: boolean } = {}): string {
	mkdirSync(join(dir, "bin"), { recursive: true });
	mkdirSync(join(dir, "dist"));
	copyFileSync(join(ROOT, "bin", "gar.cjs"), join(dir, "bin", "gar.cjs"));
	let start = readFileSync(join(ROOT, "dist", "cli.cjs"), "utf8");
	for (const name of ["gar.cjs", "headless.cjs"]) {
		const bundle = readFileSync(join(ROOT, "dist", name), "latin1");
		const edited = options.edit?.(bundle) ?? bundle;
		expect(edited.length).toBe(bundle.length);
		writeFileSync(join(dir, "dist", name), edited, "latin1");
		utimesSync(join(dir, "dist", name), new Date(2026, 0, 2), new Date(2026, 0, 2));
		if (options.build) {
			const hash = (text: string) => createHash("sha256").update(text, "latin1").digest("hex").slice(0, 16);
			expect(start).toContain(hash(bundle));
			start = start.replaceAll(hash(bundle), hash(edited));
		}
	}
	writeFileSync(join(dir, "dist", "cli.cjs"), start);
	return join(dir, "bin", "gar.cjs");
}

/** Runs the gar at `bin` to its end. */
function launch(bin: string, args: string[], env: NodeJS.ProcessEnv, cwd: string) {
	const run = spawnSync(process.execPath, [bin, ...args], { env, cwd, encoding: "utf8", timeout: 15_000 });
	expect({ status: run.status, signal: run.signal, stderr: run.stderr }).toEqual({
		status: 0,
		signal: null,
		stderr: "",
	});
	return run;
}

/**
 * A cache file as these tests compare it: size, digest, the code paths it holds (its tags) and time. Never its
 * megabyte of bytes: printing a failed comparison of those takes vitest minutes.
 */
type CacheFile = { size: number; sha256: string; tags: string[]; mtimeMs: number };

function cacheFile(file: string): CacheFile {
	const bytes = readFileSync(file);
	const tagsAt = bytes.length >= 40 ? 40 + bytes.readUInt32LE(24) : bytes.length;
	const tags = bytes.toString("utf8", Math.min(tagsAt, bytes.length)).split("\n").filter(Boolean);
	const sha256 = createHash("sha256").update(bytes).digest("hex");
	return { size: bytes.length, sha256, tags, mtimeMs: statSync(file).mtimeMs };
}

/** The cache files in `cache/gar`, by kind of launch. */
function caches(cache: string): Record<string, CacheFile> {
	const dir = join(cache, "gar");
	const out: Record<string, CacheFile> = {};
	for (const name of existsSync(dir) ? readdirSync(dir) : []) {
		const kind = /^code-.*-(print|terminal|resume|session|piped)-[^-]+-[^-]+-[0-9a-f]{8}\.v8$/.exec(name)?.[1];
		if (kind) out[kind] = cacheFile(join(dir, name));
	}
	return out;
}

describe("the start script's code cache", () => {
	it("a launch writes the cache of its kind, the next launch of that kind uses it as it is", async () => {
		const { project, cache, env } = home();
		const first = await runGar(["--help"], { env, cwd: project });
		expect(first.code).toBe(0);
		expect(Object.keys(caches(cache))).toEqual(["piped"]);
		const written = caches(cache).piped;
		const second = await runGar(["--help"], { env, cwd: project });
		expect(second.stdout).toBe(first.stdout);
		expect(caches(cache).piped).toEqual(written);

		server = await startWireServer([{ text: ["done"], usage: { input: 10, output: 1 } }]);
		const print = await runGar(["-p", "hi", "--provider", "openai", "--base-url", server.url], {
			env: { ...env, OPENAI_API_KEY: "test-key" },
			cwd: project,
		});
		expect(print.stdout.trim()).toBe("done");
		expect(Object.keys(caches(cache)).sort()).toEqual(["piped", "print"]);
		expect(caches(cache).print?.size).toBeGreaterThan(100_000);
		// Only the user may change what the next launch runs.
		expect(statSync(join(cache, "gar")).mode & 0o777).toBe(0o700);
		for (const name of readdirSync(join(cache, "gar")))
			expect(statSync(join(cache, "gar", name)).mode & 0o777).toBe(0o600);
	});

	it("a -p launch that ran a provider or a tool its cache does not hold writes it again with that code, once", async () => {
		const { project, cache, env } = home();
		server = await startWireServer((_request, call) =>
			call === 2 ? { toolCalls: [{ name: "read", args: { path: "notes.txt" } }] } : { text: ["done"] },
		);
		writeFileSync(join(project, "notes.txt"), "hello\n");
		const keys = { OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: "k" };
		const print = async (provider: string) => {
			const args = ["-p", "hi", "--provider", provider, "--base-url", server?.url ?? ""];
			const run = await runGar(args, { env: { ...env, ...keys }, cwd: project });
			expect(run).toMatchObject({ code: 0, stderr: "" });
			return caches(cache).print as CacheFile;
		};
		const openai = await print("openai");
		expect(openai.tags).toEqual(["provider:openai"]);
		const both = await print("anthropic");
		expect(both.tags).toEqual(["provider:anthropic", "provider:openai"]);
		// With the Anthropic adapter's code added to the OpenAI one's.
		expect(both.size).toBeGreaterThan(openai.size);
		// A tool call (the server's third answer) adds the read tool's code; then every path is held and kept.
		const withRead = await print("anthropic");
		expect(withRead.tags).toEqual(["provider:anthropic", "provider:openai", "tool:read"]);
		expect(await print("openai")).toEqual(withRead);
		expect(await print("anthropic")).toEqual(withRead);
	});

	it("a damaged cache is refused and written again; the launch works all the same", async () => {
		const { project, cache, env } = home();
		const expected = (await runGar(["--help"], { env, cwd: project })).stdout;
		const [name] = readdirSync(join(cache, "gar"));
		writeFileSync(join(cache, "gar", name as string), "not a code cache");
		const run = await runGar(["--help"], { env, cwd: project });
		expect(run.stdout).toBe(expected);
		const rewritten = caches(cache).piped;
		expect(rewritten?.size).toBeGreaterThan(100_000);
		await runGar(["--help"], { env, cwd: project });
		expect(caches(cache).piped).toEqual(rewritten);
		expect(readdirSync(join(cache, "gar"))).toEqual([name]);
	});

	it("launches with other V8 flags keep a cache of their own instead of taking turns remaking one", async () => {
		const { project, cache, env } = home();
		const flagged = { ...env, NODE_OPTIONS: "--max-semi-space-size=16" };
		await runGar(["--help"], { env, cwd: project });
		await runGar(["--help"], { env: flagged, cwd: project });
		const files = () => readdirSync(join(cache, "gar")).sort();
		const contents = () => files().map((name) => cacheFile(join(cache, "gar", name)).sha256);
		expect(files()).toHaveLength(2);
		const before = contents();
		await runGar(["--help"], { env, cwd: project });
		await runGar(["--help"], { env: flagged, cwd: project });
		expect(contents()).toEqual(before);
	});

	it("damaged caches (single-bit flips, a zeroed tail) never crash a launch: each is refused and made again", async () => {
		const { project, cache, env } = home();
		const expected = await runGar(["--help"], { env, cwd: project });
		const [name] = readdirSync(join(cache, "gar"));
		const file = join(cache, "gar", name as string);
		const whole = readFileSync(file);
		// A flipped bit anywhere (V8 itself checks no checksum in a release build), and what a power loss can leave.
		const damaged = [0.05, 0.25, 0.5, 0.75, 0.95].map((at, i) => {
			const bytes = Buffer.from(whole);
			const index = Math.floor(at * bytes.length);
			bytes.writeUInt8(bytes.readUInt8(index) ^ (1 << (i % 8)), index);
			return bytes;
		});
		const tail = Buffer.from(whole);
		tail.fill(0, Math.floor(tail.length * 0.75));
		for (const bytes of [...damaged, tail]) {
			writeFileSync(file, bytes);
			const run = await runGar(["--help"], { env, cwd: project });
			expect({ code: run.code, signal: run.signal, stdout: run.stdout }).toEqual({
				code: 0,
				signal: null,
				stdout: expected.stdout,
			});
			const remade = readFileSync(file);
			expect(remade.equals(bytes)).toBe(false);
			expect(remade.length).toBeGreaterThan(100_000);
		}
		const remade = caches(cache).piped;
		await runGar(["--help"], { env, cwd: project });
		expect(caches(cache).piped).toEqual(remade);
	});

	it("a cache of another build is refused, even one whose bundle has the same size and time", async () => {
		const { root, project, cache, env } = home();
		const a = install(join(root, "a"));
		const b = install(join(root, "b"), {
			build: true,
			edit: (text) => text.replace("watch gar work", "watch GAR work"),
		});
		const help = async (bin: string) => (await launch(bin, ["--help"], env, project)).stdout;
		const files = () => readdirSync(join(cache, "gar")).map((name) => join(cache, "gar", name));
		expect(await help(a)).toContain("watch gar work");
		const [fileA] = files();
		expect(await help(b)).toContain("watch GAR work");
		const [fileB, ...more] = files().filter((file) => file !== fileA);
		expect(more).toEqual([]);
		// A's cache where B keeps its own.
		copyFileSync(fileA as string, fileB as string);
		expect(await help(b)).toContain("watch GAR work");
		expect(readFileSync(fileB as string).equals(readFileSync(fileA as string))).toBe(false);
		expect(await help(a)).toContain("watch gar work");
	});

	it("a planted cache is refused: in a folder others may change, not the user's own, writable by others, a link", async () => {
		const { root, project, cache, env } = home();
		const real = install(join(root, "real"));
		// The same start script with other code: its cache names this very build and passes every check but where
		// it lies and whose it is.
		const other = install(join(root, "other"), { edit: (text) => text.replace("watch gar work", "watch bad work") });
		const scratch = { ...env, XDG_CACHE_HOME: join(root, "scratch") };
		await launch(other, ["--help"], scratch, project);
		const [plantedName] = readdirSync(join(root, "scratch", "gar"));
		const planted = readFileSync(join(root, "scratch", "gar", plantedName as string));
		const dir = join(cache, "gar");
		const file = join(dir, plantedName as string);
		const plant = (setUp: () => void) => {
			rmSync(dir, { recursive: true, force: true });
			mkdirSync(dir, { recursive: true, mode: 0o700 });
			writeFileSync(file, planted, { mode: 0o600 });
			setUp();
		};
		const help = async () => (await launch(real, ["--help"], env, project)).stdout;
		plant(() => undefined);
		// The user's own file in the user's own folder is used: only the user (or root) could have put it there.
		expect(await help()).toContain("watch bad work");

		plant(() => chmodSync(dir, 0o777));
		expect(await help()).toContain("watch gar work");
		expect(readFileSync(file).equals(planted)).toBe(true); // nothing is read or written in such a folder
		plant(() => chmodSync(file, 0o666));
		expect(await help()).toContain("watch gar work");
		expect(statSync(file).mode & 0o777).toBe(0o600);
		plant(() => {
			writeFileSync(join(root, "elsewhere.v8"), planted);
			rmSync(file);
			symlinkSync(join(root, "elsewhere.v8"), file);
		});
		expect(await help()).toContain("watch gar work");
		expect(lstatSync(file).isFile()).toBe(true);
		if (process.getuid?.() !== 0) return; // only root can give a file to another user
		plant(() => chownSync(file, 4321, 4321));
		expect(await help()).toContain("watch gar work");
		expect(statSync(file).uid).toBe(0);
		plant(() => chownSync(dir, 4321, 4321));
		expect(await help()).toContain("watch gar work");
	});

	it("a FIFO or a device where the cache should be is refused at once and replaced by a cache", async () => {
		const { project, cache, env } = home();
		await runGar(["--help"], { env, cwd: project });
		const [name] = readdirSync(join(cache, "gar"));
		const file = join(cache, "gar", name as string);
		const specials: [string, string[]][] = [["mkfifo", [file]]];
		if (process.getuid?.() === 0) specials.push(["mknod", [file, "c", "1", "3"]]); // /dev/null's numbers
		for (const [command, args] of specials) {
			rmSync(file);
			execFileSync(command, args);
			const run = await runGar(["--help"], { env, cwd: project, timeoutMs: 5000 });
			expect({ code: run.code, signal: run.signal }).toEqual({ code: 0, signal: null });
			expect(lstatSync(file).isFile()).toBe(true);
		}
	});

	it.skipIf(!existsSync("/proc/sys"))(
		"a cache folder where no folder can be made (under /proc/sys) costs only speed",
		async () => {
			const { project, env } = home();
			const run = await runGar(["--help"], {
				env: { ...env, XDG_CACHE_HOME: "/proc/sys/gar-test" },
				cwd: project,
				timeoutMs: 5000,
			});
			expect({ code: run.code, signal: run.signal }).toEqual({ code: 0, signal: null });
		},
	);

	it("a signal while the start script loads the bundle ends a run with its result line and exit 130", async () => {
		const { root, project, env } = home();
		// A real signal at a moment within start-up, every time: as the start script reads the bundle.
		const preload = atBundleRead(
			join(root, "signal-at-load.cjs"),
			"process.kill(process.pid, process.env.GAR_TEST_SIGNAL);",
		);
		server = await startWireServer([{ text: ["never sent"] }]);
		const early = (signal: string) => ({ ...env, NODE_OPTIONS: `--require ${preload}`, GAR_TEST_SIGNAL: signal });
		for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
			const run = await runGar(["-p", "hi", "--output", "json", "--provider", "openai", "--base-url", server.url], {
				env: { ...early(signal), OPENAI_API_KEY: "k" },
				cwd: project,
			});
			expect({ signal, code: run.code, killedBy: run.signal }).toEqual({ signal, code: 130, killedBy: null });
			expect(JSON.parse(run.stdout)).toMatchObject({ type: "result", ok: false, stopReason: "aborted" });
		}
		expect(server.requests).toHaveLength(0);
	});

	it("a cache folder that cannot be made only costs speed", async () => {
		const { project, cache, env } = home();
		writeFileSync(cache, "a file where the cache folder would be");
		const run = await runGar(["--help"], { env, cwd: project });
		expect(run.code).toBe(0);
		expect(run.stderr).toBe("");
		expect(run.stdout).toContain("Usage: gar");
	});

	it("a missing bundle is one line saying how to build it, exit 1", () => {
		const { root } = home();
		for (const [from, to] of [
			["bin/gar.cjs", "bin"],
			["dist/cli.cjs", "dist"],
		]) {
			mkdirSync(join(root, "gar", to as string), { recursive: true });
			copyFileSync(join(ROOT, from as string), join(root, "gar", from as string));
		}
		const run = spawnSync(process.execPath, [join(root, "gar", "bin", "gar.cjs"), "-p", "hi"], { encoding: "utf8" });
		expect(run.status).toBe(1);
		expect(run.stderr).toBe(
			`gar: ${join(root, "gar", "dist", "headless.cjs")} is missing: build gar with \`npm install\` or \`npm run build\` in its folder\n`,
		);
	});

	it("answers gar --version and -v itself, as the CLI does", async () => {
		const { project, env } = home();
		// With another flag after it, --version reaches the bundle: the CLI's own answer.
		const cli = (await runGar(["--version", "--plain"], { env, cwd: project })).stdout;
		expect(cli).toBe(`${VERSION}\n`);
		for (const flag of ["--version", "-v"]) expect((await runGar([flag], { env, cwd: project })).stdout).toBe(cli);
	});

	it.skipIf(!HAS_TMUX)(
		"a launch that cannot show the app runs dist/headless.cjs, and the app's launches dist/gar.cjs",
		async () => {
			const { root, project, env } = home();
			const bin = install(join(root, "gar"));
			const bundle = (name: string) => join(root, "gar", "dist", name);
			const missing = (name: string) =>
				`gar: ${bundle(name)} is missing: build gar with \`npm install\` or \`npm run build\` in its folder`;
			// Without the whole bundle, what runs in a pipe works: help, and a -p run.
			rmSync(bundle("gar.cjs"));
			expect(launch(bin, ["--help"], env, project).stdout).toContain("Usage: gar");
			server = await startWireServer([{ text: ["done"] }, { text: ["done in a terminal"] }]);
			const print = ["-p", "hi", "--provider", "openai", "--base-url", server.url];
			const run = await runProgram(process.execPath, [bin, ...print], {
				env: { ...env, OPENAI_API_KEY: "k" },
				cwd: project,
			});
			expect(run).toMatchObject({ code: 0, stdout: "done\n", stderr: "" });
			// In a terminal, -p as the first word runs the headless bundle too; anywhere else the app's bundle, which a
			// word before it may have taken as its value.
			const terminal = (args: string) =>
				TmuxSession.start(
					`cd '${project}' && env -i ${Object.entries({ ...env, OPENAI_API_KEY: "k" })
						.map(([k, v]) => `${k}='${v}'`)
						.join(" ")} TERM=xterm-256color '${process.execPath}' '${bin}' ${args}; sleep 5`,
					{ columns: 100, rows: 30 },
				);
			tmux = terminal(`-p hi --provider openai --base-url ${server.url}`);
			await tmux.waitFor(/done in a terminal/);
			tmux.kill();
			tmux = terminal("--no-session --model m -p hi");
			await tmux.waitFor(/is missing: build gar/);
			expect(tmux.screen().replace(/\s+/g, "")).toContain(missing("gar.cjs").replace(/\s+/g, ""));
			tmux.kill();
			// The app runs without the headless bundle.
			copyFileSync(join(ROOT, "dist", "gar.cjs"), bundle("gar.cjs"));
			utimesSync(bundle("gar.cjs"), new Date(2026, 0, 2), new Date(2026, 0, 2));
			rmSync(bundle("headless.cjs"));
			tmux = terminal("--no-session --base-url http://127.0.0.1:9/v1 --model m");
			await tmux.waitFor(/Enter send/);
			const help = spawnSync(process.execPath, [bin, "--help"], { env, cwd: project, encoding: "utf8" });
			expect(help.stderr.trim()).toBe(missing("headless.cjs"));
		},
	);

	it.skipIf(!HAS_TMUX)(
		"the full-screen app writes the terminal's cache at its first frame; the next launch uses it",
		async () => {
			const { project, cache, env } = home();
			const garCmd = garInTerminal(env);
			const start = () => {
				const command = `cd '${project}' && ${garCmd} --no-session --base-url http://127.0.0.1:9/v1 --model m; sleep 5`;
				return TmuxSession.start(command, { columns: 100, rows: 30 });
			};
			tmux = start();
			await tmux.waitFor(/Enter send/);
			// Written (and synced to disk) just after the frame reached the terminal.
			for (let waited = 0; caches(cache).terminal === undefined && waited < 5000; waited += 20) await sleep(20);
			const written = caches(cache).terminal;
			expect(written?.size).toBeGreaterThan(100_000);
			tmux.kill();
			tmux = start();
			await tmux.waitFor(/Enter send/);
			expect(caches(cache)).toEqual({ terminal: written });
		},
	);

	it.skipIf(!HAS_TMUX)(
		"gar -r keeps a cache of its own, written once the picker's rows are drawn; the next gar -r uses it",
		async () => {
			const { project, cache, env } = home();
			const garCmd = garInTerminal(env);
			const start = () => {
				const command = `cd '${project}' && ${garCmd} -r --base-url http://127.0.0.1:9/v1 --model m; sleep 5`;
				return TmuxSession.start(command, { columns: 100, rows: 30 });
			};
			tmux = start();
			await tmux.waitFor(/no sessions|sessions? in this project/i);
			for (let waited = 0; caches(cache).resume === undefined && waited < 5000; waited += 20) await sleep(20);
			const written = caches(cache).resume;
			expect(written?.size).toBeGreaterThan(100_000);
			// Not the terminal's: that one holds just what a plain launch's first frame needs.
			expect(caches(cache).terminal).toBeUndefined();
			tmux.kill();
			tmux = start();
			await tmux.waitFor(/no sessions|sessions? in this project/i);
			await sleep(300);
			expect(caches(cache)).toEqual({ resume: written });
		},
	);

	it.skipIf(!HAS_TMUX)(
		"gar --session keeps a cache of its own, written once the session's last screen is drawn; the next one uses it",
		async () => {
			const { root, project, cache, env } = home();
			const writer = SessionWriter.create({ dir: join(root, "sessions"), cwd: project });
			writer.appendUser("the prompt");
			writer.appendAssistant({ ...REPLY, content: [{ type: "text", text: "The last reply of the session." }] });
			writer.close();
			const garCmd = garInTerminal(env);
			const start = () => {
				const command = `cd '${project}' && ${garCmd} --session '${writer.file}' --base-url http://127.0.0.1:9/v1 --model m; sleep 5`;
				return TmuxSession.start(command, { columns: 100, rows: 30 });
			};
			tmux = start();
			await tmux.waitFor(/The last reply of the session/);
			for (let waited = 0; caches(cache).session === undefined && waited < 5000; waited += 20) await sleep(20);
			const written = caches(cache).session;
			expect(written?.size).toBeGreaterThan(100_000);
			expect(caches(cache).terminal).toBeUndefined();
			tmux.kill();
			tmux = start();
			await tmux.waitFor(/The last reply of the session/);
			await sleep(300);
			expect(caches(cache)).toEqual({ session: written });
		},
	);
});
