// CPU time of one 20,000-delta reply on each wire: a bare node:http client (read, split events, JSON.parse each:
// the floor any client pays) against gar's providers (SDK request, SSE decode, message builder, stream events).
// The server runs in another process so only the client's CPU is counted.
import { spawn } from "node:child_process";
import http from "node:http";
import { createInterface } from "node:readline";
import { createAnthropicProvider } from "../src/llm/anthropic.js";
import { createOpenAIProvider } from "../src/llm/openai.js";
import type { Provider } from "../src/llm/types.js";

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
		];
	} finally {
		server.stop();
	}
}

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await benchWire()) console.log(line);
