// The ACP prompt round trip against gar -p on the same script (one read, then the answer), both against the wire
// server on loopback. gar -p pays a process start per task; an editor's `gar acp` stays up, so a prompt costs the run
// plus the protocol: the JSON-RPC request and response, and one session/update per event, read by the SDK's client.
// The overhead is the round trip less the run's own duration (its run record in the session).
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listSessions, loadSession } from "../src/session/index.js";
import { startAcp } from "../test/support/acp-client.js";
import { startWireServer } from "../test/support/wire-server.js";
import { median } from "./bench-stats.js";

const ROOT = new URL("..", import.meta.url).pathname;
const GAR = join(ROOT, "bin", "gar.cjs");
const PROMPTS = Number(process.env.BENCH_RUNS ?? 10) * 2;

/** One `gar -p --output json`: its wall time and the run's own durationMs. */
function printRun(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<{ wall: number; run: number }> {
	return new Promise((resolve, reject) => {
		const started = performance.now();
		const child = spawn(process.execPath, [GAR, ...args], { env, cwd, stdio: ["ignore", "pipe", "pipe"] });
		let out = "";
		child.stdout.on("data", (d: Buffer) => {
			out += d.toString();
		});
		child.stderr.resume();
		child.on("error", reject);
		child.on("close", (code) => {
			if (code !== 0) return reject(new Error(`gar -p exited ${code}`));
			resolve({ wall: performance.now() - started, run: JSON.parse(out).durationMs });
		});
	});
}

/** Lines for `npm run bench`. */
export async function benchAcp(): Promise<string[]> {
	const work = mkdtempSync(join(tmpdir(), "gar-bench-acp-"));
	writeFileSync(join(work, "notes.txt"), "hello from the bench\n");
	const { NODE_EXTRA_CA_CERTS: _certs, NODE_OPTIONS: _options, ...clean } = process.env;
	const env = {
		...clean,
		HOME: work,
		XDG_CONFIG_HOME: join(work, "config"),
		XDG_DATA_HOME: join(work, "data"),
		OPENAI_API_KEY: "bench-key",
	};
	const server = await startWireServer((_req, call) =>
		call % 2 === 0
			? { toolCalls: [{ name: "read", args: { path: "notes.txt" } }], usage: { input: 900, output: 20 } }
			: { text: ["The file ", "says hello."], usage: { input: 950, output: 8 } },
	);
	const root = ["--provider", "openai", "--base-url", server.url];
	try {
		const print: { wall: number; run: number }[] = [];
		const args = [...root, "-p", "read notes.txt", "--output", "json", "--cwd", work];
		await printRun(args, env, work);
		for (let i = 0; i < PROMPTS / 2; i++) print.push(await printRun(args, env, work));

		const acp = startAcp({ env, cwd: work, args: root });
		const ready = performance.now();
		await acp.initialize();
		const { sessionId } = await acp.connection.agent.request("session/new", { cwd: work, mcpServers: [] });
		const setupMs = performance.now() - ready;
		const trips: number[] = [];
		for (let i = 0; i <= PROMPTS; i++) {
			const sent = performance.now();
			await acp.connection.agent.request("session/prompt", {
				sessionId,
				prompt: [{ type: "text", text: "read notes.txt" }],
			});
			if (i > 0) trips.push(performance.now() - sent);
		}
		const updates = acp.updates.length / (PROMPTS + 1);
		acp.child.stdin?.end();
		await acp.exited;
		// The runs' own durations, as the session recorded them (the first, with the session's set-up, left out).
		const saved = listSessions(join(work, "data", "gar", "sessions"), work).find((s) => s.id === sessionId);
		const runs = loadSession(saved?.file ?? "")
			.entries.flatMap((e) => (e.type === "run" ? [e.durationMs] : []))
			.slice(1);
		const overheads = trips.map((trip, i) => trip - (runs[i] ?? Number.NaN));

		const wall = median(print.map((p) => p.wall));
		const trip = median(trips);
		return [
			`ACP prompt round trip (one read + answer; median of ${trips.length} prompts, ${updates.toFixed(0)} updates each)`,
			`  gar -p, whole process       ${wall.toFixed(0).padStart(5)} ms   (its run alone: ${median(print.map((p) => p.run)).toFixed(0)} ms)`,
			`  gar acp start + session/new ${setupMs.toFixed(0).padStart(5)} ms   (once per editor session)`,
			`  gar acp session/prompt      ${trip.toFixed(0).padStart(5)} ms   (its run alone: ${median(runs).toFixed(0)} ms; ACP overhead ${median(overheads).toFixed(1)} ms; ${(wall / trip).toFixed(1)}× less than a gar -p per task)`,
		];
	} finally {
		await server.close();
	}
}
