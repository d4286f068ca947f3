// `npm run bench`: prints gar's figures next to `node -e 0` measured in the same run. Figures, not pass/fail:
// this 2-core machine is shared and noisy, so compare ratios, not absolute times.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWireServer } from "../test/support/wire-server.js";
import { benchDeltas } from "./bench-deltas.js";
import { benchSessionLoad } from "./bench-session.js";

const ROOT = new URL("..", import.meta.url).pathname;
const GAR = join(ROOT, "bin", "gar.js");
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const HAS_GNU_TIME = existsSync("/usr/bin/time");

type Sample = { ms: number; rssMb: number | null };

/** Runs a command once; wall time from spawn to exit, peak RSS from GNU time when it is installed. */
function measure(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env, cwd = ROOT): Promise<Sample> {
	return new Promise((resolve, reject) => {
		const argv = HAS_GNU_TIME ? ["-f", "GAR_BENCH_RSS %M", cmd, ...args] : args;
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
			resolve({ ms, rssMb: kb ? Number(kb) / 1024 : null });
		});
	});
}

async function series(label: string, run: () => Promise<Sample>): Promise<Sample> {
	await run(); // warm the file cache
	const samples: Sample[] = [];
	for (let i = 0; i < RUNS; i++) samples.push(await run());
	const ms = median(samples.map((s) => s.ms));
	const rss = samples.map((s) => s.rssMb).filter((r): r is number => r !== null);
	const result = { ms, rssMb: rss.length ? Math.max(...rss) : null };
	void label;
	return result;
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const fmt = (s: Sample, base?: Sample) =>
	`${s.ms.toFixed(0).padStart(5)} ms` +
	(base ? `  ${(s.ms / base.ms).toFixed(2).padStart(5)}× node -e 0` : "                  ") +
	(s.rssMb === null ? "" : `  peak RSS ${s.rssMb.toFixed(1)} MiB`);

async function main() {
	console.log(`gar bench — median of ${RUNS} runs after one warm-up; node ${process.version}\n`);
	const node = await series("node", () => measure(process.execPath, ["-e", "0"]));
	console.log(`node -e 0                     ${fmt(node)}`);
	const version = await series("version", () => measure(process.execPath, [GAR, "--version"]));
	console.log(`gar --version                 ${fmt(version, node)}   (target ≤ 1.5×)`);

	const work = mkdtempSync(join(tmpdir(), "gar-bench-"));
	writeFileSync(join(work, "notes.txt"), "hello from the bench\n");
	for (const provider of ["openai", "anthropic"] as const) {
		const server = await startWireServer((_req, call) =>
			call % 2 === 0
				? { toolCalls: [{ name: "read", args: { path: "notes.txt" } }], usage: { input: 900, output: 20 } }
				: { text: ["The file ", "says hello."], usage: { input: 950, output: 8 } },
		);
		const env = {
			...process.env,
			HOME: work,
			XDG_CONFIG_HOME: join(work, "config"),
			XDG_DATA_HOME: join(work, "data"),
			ANTHROPIC_API_KEY: "bench-key",
			OPENAI_API_KEY: "bench-key",
		};
		const args = [GAR, "-p", "read notes.txt", "--provider", provider, "--base-url", server.url, "--cwd", work];
		if (provider === "anthropic") args[args.indexOf(server.url)] = server.url.replace(/\/v1$/, "");
		const oneShot = await series(provider, () => measure(process.execPath, args, env, work));
		console.log(`gar -p one tool call (${provider.padEnd(9)})${fmt(oneShot, node)}   (target ≤ 4×, ≤ 80 MiB)`);
		await server.close();
	}

	console.log("");
	for (const line of await benchDeltas()) console.log(line);
	console.log("");
	for (const line of await benchSessionLoad()) console.log(line);
	if (!HAS_GNU_TIME) console.log("\n(peak RSS of child processes needs /usr/bin/time: apt-get install time)");
}

await main();
