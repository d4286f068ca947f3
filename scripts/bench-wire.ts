// CPU time of one 20,000-delta reply on each wire: a bare node:http client (read, split events, JSON.parse each:
// the floor any client pays) against gar's providers (SDK request, SSE decode, message builder, stream events).
// The server runs in another process so only the client's CPU is counted.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { createAnthropicProvider } from "../src/llm/anthropic.js";
import { createOpenAIProvider } from "../src/llm/openai.js";
import type { Provider } from "../src/llm/types.js";
import { median } from "./bench-stats.js";

const DELTAS = 20_000;
const ROOT = new URL("..", import.meta.url).pathname;

async function startServer(): Promise<{ url: string; stop(): void }> {
	const child = spawn(process.execPath, ["--import", "tsx", "scripts/bench-wire-server.ts", String(DELTAS)], {
		cwd: ROOT,
		stdio: ["ignore", "pipe", "inherit"],
	});
	const lines = createInterface({ input: child.stdout });
	const url = await new Promise<string>((resolve) => lines.once("line", resolve));
	return { url, stop: () => child.kill("SIGTERM") };
}

function cpuMs(start: NodeJS.CpuUsage): number {
	const used = process.cpuUsage(start);
	return (used.user + used.system) / 1000;
}

/** The floor: POST, read the body, split it into events, JSON.parse each event's data. */
function bare(url: string, path: string): Promise<number> {
	return new Promise((resolve, reject) => {
		const body = JSON.stringify({ model: "m", messages: [{ role: "user", content: "go" }], stream: true });
		const req = http.request(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json" } });
		req.on("response", (res) => {
			let rest = "";
			let events = 0;
			res.setEncoding("utf8");
			res.on("data", (chunk: string) => {
				const parts = (rest + chunk).split("\n\n");
				rest = parts.pop() ?? "";
				for (const part of parts) {
					const data = part.slice(part.indexOf("data: ") + 6);
					if (data !== "[DONE]") JSON.parse(data);
					events++;
				}
			});
			res.on("end", () => resolve(events));
		});
		req.on("error", reject);
		req.end(body);
	});
}

async function viaGar(provider: Provider): Promise<number> {
	let deltas = 0;
	for await (const event of provider.stream({
		model: "m",
		system: "",
		messages: [{ role: "user", content: "go" }],
		tools: [],
	})) {
		if (event.type === "text_delta") deltas++;
		if (event.type === "done" && event.message.stopReason !== "stop") throw new Error(event.message.error);
	}
	if (deltas !== DELTAS) throw new Error(`expected ${DELTAS} deltas, got ${deltas}`);
	return deltas;
}

/** CPU time of one run of `fn`. */
async function cpuOf(fn: () => Promise<unknown>): Promise<number> {
	globalThis.gc?.();
	const start = process.cpuUsage();
	await fn();
	return cpuMs(start);
}

/**
 * Runs a command and prints its CPU time (user and system, all its threads, from wait4's rusage) to stderr in
 * microseconds. GNU time prints the same in hundredths of a second: a step of 5 % of a 0.2 s process.
 */
const RUSAGE = `import os, sys
pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
_, status, ru = os.wait4(pid, 0)
sys.stderr.write("GAR_BENCH_CPU %.6f %.6f\\n" % (ru.ru_utime, ru.ru_stime))
sys.exit(os.waitstatus_to_exitcode(status))`;

/** How to time a command: python3's wait4 (microseconds) where there is python3, else GNU time. */
const TIMER =
	spawnSync("python3", ["-c", "import os; os.waitstatus_to_exitcode"]).status === 0
		? ["python3", "-c", RUSAGE]
		: ["/usr/bin/time", "-f", "GAR_BENCH_CPU %U %S"];

/**
 * CPU time (user + system) of one whole process that prints the reply: start-up, request, stream, output and exit.
 * What a script calling `gar -p` pays, against a bare client doing the same in its own process.
 */
function processCpuMs(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
	return new Promise((resolve, reject) => {
		const [timer, ...timerArgs] = TIMER as [string, ...string[]];
		const child = spawn(timer, [...timerArgs, process.execPath, ...args], {
			cwd,
			env,
			stdio: ["ignore", "ignore", "pipe"],
		});
		let stderr = "";
		child.stderr.setEncoding("utf8");
		child.stderr.on("data", (chunk: string) => {
			stderr += chunk;
		});
		child.on("error", reject);
		child.on("close", (code) => {
			const cpu = /GAR_BENCH_CPU ([\d.]+) ([\d.]+)/.exec(stderr);
			if (code !== 0 || !cpu) return reject(new Error(`${args.join(" ")} exited ${code}: ${stderr.slice(-400)}`));
			resolve((Number(cpu[1]) + Number(cpu[2])) * 1000);
		});
	});
}

/** Whole process against whole process, per wire: `gar -p` (text out, no session) and the bare client. */
async function wholeProcess(url: string, runs: number): Promise<string[]> {
	if (TIMER[0] !== "python3" && !existsSync("/usr/bin/time"))
		return ["  whole process: needs python3 or GNU time (apt-get install time): skipped"];
	const home = mkdtempSync(join(tmpdir(), "gar-bench-wire-"));
	// Without what makes every node start slower (extra CA certificates), as the start-up figures do.
	const { NODE_EXTRA_CA_CERTS: _certs, NODE_OPTIONS: _options, ...clean } = process.env;
	const env = { ...clean, HOME: home, XDG_CONFIG_HOME: join(home, "config"), XDG_DATA_HOME: join(home, "data") };
	const client = join(ROOT, "scripts", "bench-wire-client.cjs");
	const gar = (provider: string, base: string) => [
		join(ROOT, "bin", "gar.cjs"),
		...["-p", "go", "--provider", provider, "--base-url", base, "--no-session", "--model", "m"],
	];
	const wires = [
		{ name: "anthropic", path: "/v1/messages", base: url, key: "ANTHROPIC_API_KEY" },
		{ name: "openai", path: "/v1/chat/completions", base: `${url}/v1`, key: "OPENAI_API_KEY" },
	];
	try {
		const lines: string[] = [];
		for (const wire of wires) {
			const wireEnv = { ...env, [wire.key]: "bench" };
			const floor = () => processCpuMs([client, url, wire.path], home, wireEnv);
			const viaGar = () => processCpuMs(gar(wire.name, wire.base), home, wireEnv);
			await floor(); // warm the file cache and gar's code cache
			await viaGar();
			const floors: number[] = [];
			const gars: number[] = [];
			for (let i = 0; i < runs; i++) {
				floors.push(await floor());
				gars.push(await viaGar());
			}
			const [f, g] = [median(floors), median(gars)];
			lines.push(
				`  whole process, ${wire.name.padEnd(9)}  bare ${(f / 1000).toFixed(3)} s, gar -p ${(g / 1000).toFixed(3)} s CPU` +
					`  ${(g / f).toFixed(2)}× (target ≤ 2×)`,
			);
		}
		return lines;
	} finally {
		rmSync(home, { recursive: true, force: true });
	}
}

/** Lines for `npm run bench`: the floor and both wires, with gar's ratio to the floor (target ≤ 2×). */
export async function benchWire(runs = 10): Promise<string[]> {
	const server = await startServer();
	try {
		const anthropic = createAnthropicProvider({ apiKey: "bench", baseURL: server.url });
		const openai = createOpenAIProvider({ apiKey: "bench", baseURL: `${server.url}/v1` });
		await viaGar(anthropic); // warm up the JIT and the lazy chunks
		await viaGar(openai);
		// Interleaved, best of each: on a shared machine, neighbours' load then weighs on floor and gar alike.
		let [floorA, garA, floorO, garO] = [Infinity, Infinity, Infinity, Infinity];
		for (let i = 0; i < runs; i++) {
			floorA = Math.min(floorA, await cpuOf(() => bare(server.url, "/v1/messages")));
			garA = Math.min(garA, await cpuOf(() => viaGar(anthropic)));
			floorO = Math.min(floorO, await cpuOf(() => bare(server.url, "/v1/chat/completions")));
			garO = Math.min(garO, await cpuOf(() => viaGar(openai)));
		}
		const row = (label: string, ms: number, floor?: number) =>
			`  ${label.padEnd(34)}${(ms / 1000).toFixed(3)} s CPU${floor ? `  ${(ms / floor).toFixed(2)}× the floor (target ≤ 2×)` : ""}`;
		return [
			`streaming CPU, one reply of ${DELTAS.toLocaleString("en")} deltas (best of ${runs}, interleaved; server in another process):`,
			row("bare node:http client (anthropic)", floorA),
			row("gar anthropic provider", garA, floorA),
			row("bare node:http client (openai)", floorO),
			row("gar openai provider", garO, floorO),
			...(await wholeProcess(server.url, runs)),
		];
	} finally {
		server.stop();
	}
}

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await benchWire()) console.log(line);
