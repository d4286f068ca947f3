// What a user installs: `npm pack` of the built package, installed globally into a temp prefix with no registry
// (the bundle is self-contained, so the package has no dependencies), then run against the wire server.
import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { startWireServer } from "./support/wire-server.js";

const ROOT = new URL("..", import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), "gar-pack-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const npm = (args: string[], cwd: string) =>
	execFileSync("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], { cwd, encoding: "utf8" });

describe("the npm package", () => {
	const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));

	it("has no runtime dependencies: the bundle carries them", () => {
		expect(pkg.dependencies ?? {}).toEqual({});
	});

	it("installs from its tarball offline and runs: --version and a gar -p with a tool call", async () => {
		// dist/ is built by `npm test` before vitest runs; --ignore-scripts keeps pack from rebuilding it meanwhile.
		npm(["pack", "--ignore-scripts", "--pack-destination", work], ROOT);
		const tarball = readdirSync(work).find((f) => f.endsWith(".tgz"));
		expect(tarball).toBeDefined();
		const prefix = join(work, "prefix");
		npm(["install", "-g", "--offline", "--ignore-scripts", "--prefix", prefix, join(work, tarball as string)], work);
		const installed = join(prefix, "lib", "node_modules", pkg.name);
		expect(readdirSync(installed)).not.toContain("node_modules");
		const gar = join(prefix, "bin", "gar");
		expect(execFileSync(gar, ["--version"], { encoding: "utf8" }).trim()).toBe(pkg.version);
		// The demo session README's quick start replays ships with the package.
		const demo = execFileSync(gar, ["replay", join(installed, "examples", "demo-session.jsonl")], {
			encoding: "utf8",
			env: { ...process.env, HOME: work, XDG_CONFIG_HOME: join(work, "c"), XDG_DATA_HOME: join(work, "d") },
		});
		expect(demo).toContain("[done · 5 turns");

		const server = await startWireServer((_req, call) =>
			call === 0 ? { toolCalls: [{ name: "read", args: { path: "notes.txt" } }] } : { text: "It says hello." },
		);
		try {
			const project = join(work, "project");
			mkdirSync(project);
			writeFileSync(join(project, "notes.txt"), "hello\n");
			const env = { ...process.env, HOME: work, XDG_CONFIG_HOME: join(work, "c"), XDG_DATA_HOME: join(work, "d") };
			const args = ["-p", "read notes.txt", "--provider", "openai", "--base-url", server.url, "--cwd", project];
			// Asynchronously: the wire server answers from this process.
			const run = await promisify(execFile)(gar, args, { env: { ...env, OPENAI_API_KEY: "k" }, cwd: project });
			expect(run.stderr).toBe("");
			expect(run.stdout.trim()).toBe("It says hello.");
			expect(server.requests.length).toBe(2);
		} finally {
			await server.close();
		}
	}, 60_000);
});
