// `npm run bench`: prints gar's figures next to `node -e 0` measured in the same run. Figures, not pass/fail:
// this 2-core machine is shared and noisy, so compare ratios, not absolute times.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWireServer } from "../test/support/wire-server.js";
import { benchAcp } from "./bench-acp.js";
import { benchDeltas } from "./bench-deltas.js";
import { benchExport } from "./bench-export.js";
import { benchFinder } from "./bench-finder.js";
import { benchHooks } from "./bench-hooks.js";
import { benchPicker } from "./bench-picker.js";
import { benchRequest } from "./bench-request.js";
import { benchRewind } from "./bench-rewind.js";
import { benchSessionLoad } from "./bench-session.js";
import { median } from "./bench-stats.js";
import { benchTree } from "./bench-tree.js";
import { benchTui } from "./bench-tui.js";
import { benchWire } from "./bench-wire.js";

const ROOT = new URL("..", import.meta.url).pathname;
const GAR = join(ROOT, "bin", "gar.cjs");
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const HAS_GNU_TIME = existsSync("/usr/bin/time");

type Sample = { ms: number; cpuMs: number | null; rssMb: number | null };

/**
 * The environment every measured process gets: the bench's own, without what makes every node start slower
 * (extra CA certificates are read at start-up, 35–60 ms here), which would hide gar's cost in the ratios.
 */
const { NODE_EXTRA_CA_CERTS: _certs, NODE_OPTIONS: _options, ...CLEAN_ENV } = process.env;

/** Runs a command once; wall time from spawn to exit, CPU time and peak RSS from GNU time when it is installed. */
function measure(cmd: string, args: string[], env: NodeJS.ProcessEnv = CLEAN_ENV, cwd = ROOT): Promise<Sample> {
	return new Promise((resolve, reject) => {
		const argv = HAS_GNU_TIME ? ["-f", "GAR_BENCH_RSS %M GAR_BENCH_CPU %U %S", cmd, ...args] : args;
		const started = performance.now();
		const child = spawn(HAS_GNU_TIME ? "/usr/bin/time" : cmd, argv, { env, cwd, stdio: ["ignore", "pipe", "pipe"] });
		let stderr = "";
		child.stdout.resume();
		child.stderr.on("data", (d: Buffer) => {
			stderr += d.toString();
		});
		child.on("error", reject);
		child.on("close", (code) => {
			const ms = performance.now() - started;
			if (code !== 0) return reject(new Error(`${cmd} ${args.join(" ")} exited ${code}: ${stderr.slice(-500)}`));
			const kb = /GAR_BENCH_RSS (\d+)/.exec(stderr)?.[1];
			const cpu = /GAR_BENCH_CPU ([\d.]+) ([\d.]+)/.exec(stderr);
			const cpuMs = cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : null;
			resolve({ ms, cpuMs, rssMb: kb ? Number(kb) / 1024 : null });
		});
	});
}

/**
 * Runs every probe once to warm the file cache, then RUNS rounds of all probes in turn: interleaved, so a
 * neighbour's load on this shared machine weighs on `node -e 0` and gar alike. Medians; the largest RSS.
 */
async function interleaved(probes: (() => Promise<Sample>)[]): Promise<Sample[]> {
	for (const probe of probes) await probe();
	const samples: Sample[][] = probes.map(() => []);
	for (let i = 0; i < RUNS; i++) for (const [k, probe] of probes.entries()) samples[k]?.push(await probe());
	return samples.map((list) => {
		const cpu = list.map((s) => s.cpuMs).filter((c): c is number => c !== null);
		const rss = list.map((s) => s.rssMb).filter((r): r is number => r !== null);
		return {
			ms: median(list.map((s) => s.ms)),
			cpuMs: cpu.length ? median(cpu) : null,
			rssMb: rss.length ? Math.max(...rss) : null,
		};
	});
}

const fmt = (s: Sample, base?: Sample) =>
	`${s.ms.toFixed(0).padStart(5)} ms` +
	(base ? `  ${(s.ms / base.ms).toFixed(2).padStart(5)}× node -e 0` : "                  ") +
	(s.cpuMs === null ? "" : `  CPU ${s.cpuMs.toFixed(0)} ms`) +
	(s.rssMb === null ? "" : `  peak RSS ${s.rssMb.toFixed(1)} MiB`);

async function main() {
	console.log(`gar bench — median of ${RUNS} interleaved runs after one warm-up; node ${process.version}\n`);
	const work = mkdtempSync(join(tmpdir(), "gar-bench-"));
	writeFileSync(join(work, "notes.txt"), "hello from the bench\n");
	const env = {
		...CLEAN_ENV,
		HOME: work,
		XDG_CONFIG_HOME: join(work, "config"),
		XDG_DATA_HOME: join(work, "data"),
		ANTHROPIC_API_KEY: "bench-key",
		OPENAI_API_KEY: "bench-key",
	};
	const providers = ["openai", "anthropic"] as const;
	const servers = await Promise.all(
		providers.map(() =>
			startWireServer((_req, call) =>
				call % 2 === 0
					? { toolCalls: [{ name: "read", args: { path: "notes.txt" } }], usage: { input: 900, output: 20 } }
					: { text: ["The file ", "says hello."], usage: { input: 950, output: 8 } },
			),
		),
	);
	const oneShot = (i: number) => () => {
		const url = servers[i]?.url ?? "";
		const args = [
			GAR,
			"-p",
			"read notes.txt",
			"--provider",
			providers[i] ?? "openai",
			"--base-url",
			url,
			"--cwd",
			work,
		];
		return measure(process.execPath, args, env, work);
	};
	const [node, version, help, ...oneShots] = await interleaved([
		() => measure(process.execPath, ["-e", "0"]),
		() => measure(process.execPath, [GAR, "--version"]),
		// Answered by the bundle, not the start script: what every other light command costs to start.
		() => measure(process.execPath, [GAR, "--help"], env, work),
		oneShot(0),
		oneShot(1),
	]);
	if (!node || !version || !help) throw new Error("bench: missing samples");
	console.log(`node -e 0                     ${fmt(node)}`);
	console.log(`gar --version                 ${fmt(version, node)}   (target ≤ 1.3×)`);
	console.log(`gar --help                    ${fmt(help, node)}`);
	for (const [i, sample] of oneShots.entries()) {
		console.log(
			`gar -p one tool call (${(providers[i] ?? "").padEnd(9)})${fmt(sample, node)}   (target ≤ 3×, ≤ 80 MiB)`,
		);
	}
	for (const server of servers) await server.close();

	console.log("");
	for (const line of await benchAcp()) console.log(line);
	console.log("");
	for (const line of await benchWire()) console.log(line);
	console.log("");
	for (const line of await benchDeltas()) console.log(line);
	console.log("");
	for (const line of await benchSessionLoad()) console.log(line);
	console.log("");
	for (const line of await benchPicker()) console.log(line);
	console.log("");
	for (const line of await benchExport()) console.log(line);
	console.log("");
	for (const line of await benchHooks()) console.log(line);
	console.log("");
	for (const line of await benchTree()) console.log(line);
	console.log("");
	for (const line of await benchRequest()) console.log(line);
	console.log("");
	for (const line of await benchFinder()) console.log(line);
	console.log("");
	for (const line of await benchRewind()) console.log(line);
	console.log("");
	for (const line of await benchTui()) console.log(line);
	if (!HAS_GNU_TIME) console.log("\n(peak RSS of child processes needs /usr/bin/time: apt-get install time)");
}

await main();
