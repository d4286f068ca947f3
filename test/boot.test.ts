// The start script (src/boot.ts → dist/cli.cjs) runs dist/gar.cjs through a V8 code cache, one per kind of launch.
// Each case launches the built CLI as a person would; the cache files show what each launch did: a cache that was
// used is left as it was, one that was missing or refused is written.
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GAR_BIN, runGar, tempHome } from "./support/cli.js";
import { HAS_TMUX, TmuxSession } from "./support/tmux.js";
import { startWireServer, type WireServer } from "./support/wire-server.js";

const ROOT = join(import.meta.dirname, "..");
const VERSION = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version as string;

let server: WireServer | undefined;
let tmux: TmuxSession | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
	tmux?.kill();
	tmux = undefined;
});

/** A home whose code cache is a folder of its own. */
function home() {
	const { root, project, env } = tempHome();
	const cache = join(root, "cache");
	return { root, project, cache, env: { ...env, XDG_CACHE_HOME: cache } };
}

/** The cache files in `cache/gar`, by kind of launch, each with its bytes and time. */
function caches(cache: string): Record<string, { bytes: Buffer; mtimeMs: number }> {
	const dir = join(cache, "gar");
	const out: Record<string, { bytes: Buffer; mtimeMs: number }> = {};
	for (const name of readdirSync(dir)) {
		const kind = /^code-.*-(print|terminal|piped)-[^-]+-[^-]+-[0-9a-f]{8}\.v8$/.exec(name)?.[1];
		if (kind) out[kind] = { bytes: readFileSync(join(dir, name)), mtimeMs: statSync(join(dir, name)).mtimeMs };
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
		expect(caches(cache).print?.bytes.length).toBeGreaterThan(100_000);
		// Only the user may change what the next launch runs.
		expect(statSync(join(cache, "gar")).mode & 0o777).toBe(0o700);
		for (const name of readdirSync(join(cache, "gar")))
			expect(statSync(join(cache, "gar", name)).mode & 0o777).toBe(0o600);
	});

	it("a damaged cache is refused and written again; the launch works all the same", async () => {
		const { project, cache, env } = home();
		const expected = (await runGar(["--help"], { env, cwd: project })).stdout;
		const [name] = readdirSync(join(cache, "gar"));
		writeFileSync(join(cache, "gar", name as string), "not a code cache");
		const run = await runGar(["--help"], { env, cwd: project });
		expect(run.stdout).toBe(expected);
		const rewritten = caches(cache).piped;
		expect(rewritten?.bytes.toString()).not.toBe("not a code cache");
		expect(rewritten?.bytes.length).toBeGreaterThan(100_000);
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
		const contents = () => files().map((name) => readFileSync(join(cache, "gar", name)));
		expect(files()).toHaveLength(2);
		const before = contents();
		await runGar(["--help"], { env, cwd: project });
		await runGar(["--help"], { env: flagged, cwd: project });
		expect(contents()).toEqual(before);
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
			`gar: ${join(root, "gar", "dist", "gar.cjs")} is missing: build gar with \`npm install\` or \`npm run build\` in its folder\n`,
		);
	});

	it("answers gar --version and -v itself, as the CLI does", async () => {
		const { project, env } = home();
		const cli = execFileSync(process.execPath, [join(ROOT, "dist", "gar.cjs"), "--version"], { encoding: "utf8" });
		expect(cli).toBe(`${VERSION}\n`);
		for (const flag of ["--version", "-v"]) expect((await runGar([flag], { env, cwd: project })).stdout).toBe(cli);
	});

	it.skipIf(!HAS_TMUX)(
		"the full-screen app writes the terminal's cache at its first frame; the next launch uses it",
		async () => {
			const { project, cache, env } = home();
			const vars = Object.entries(env)
				.map(([k, v]) => `${k}='${v}'`)
				.join(" ");
			const start = () => {
				const command = `cd '${project}' && env -i ${vars} TERM=xterm-256color '${process.execPath}' '${GAR_BIN}' --no-session --base-url http://127.0.0.1:9/v1 --model m; sleep 5`;
				return TmuxSession.start(command, { columns: 100, rows: 30 });
			};
			tmux = start();
			await tmux.waitFor(/Enter send/);
			const written = caches(cache).terminal;
			expect(written?.bytes.length).toBeGreaterThan(100_000);
			tmux.kill();
			tmux = start();
			await tmux.waitFor(/Enter send/);
			expect(caches(cache)).toEqual({ terminal: written });
		},
	);
});
