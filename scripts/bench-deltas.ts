// Per-delta cost: a reply of 20,000 small deltas through the loop, the event channel, the stream-json writer and
// the event-to-view reducer (what the UI subscribes). gar's own time per delta must stay O(delta): ~5 µs at most.
import { Writable } from "node:stream";
import { EventChannel } from "../src/agent/channel.js";
import { Agent } from "../src/agent/loop.js";
import { createProvider } from "../src/llm/index.js";
import { createScriptedProvider } from "../src/llm/scripted.js";
import type { Provider } from "../src/llm/types.js";
import { PrintWriter } from "../src/output/print-output.js";
import { reduce } from "../src/view/reducer.js";
import { initialView } from "../src/view/state.js";
import { startWireServer } from "../test/support/wire-server.js";

const DELTAS = 20_000;
const chunks = Array.from({ length: DELTAS }, (_, i) => `w${i % 10} `);

class NullSink extends Writable {
	bytes = 0;
	override _write(chunk: Buffer, _enc: string, done: () => void) {
		this.bytes += chunk.length;
		done();
	}
}

async function timeProviderOnly(provider: Provider): Promise<number> {
	const started = performance.now();
	for await (const _ of provider.stream({ model: "m", system: "", messages: [], tools: [] }));
	return performance.now() - started;
}

async function timeThroughGar(provider: Provider): Promise<{ ms: number; bytes: number }> {
	const channel = new EventChannel();
	const sink = new NullSink();
	const writer = new PrintWriter("stream-json", sink, sink);
	channel.subscribe(writer.onEvent);
	let view = initialView({ provider: provider.name, model: "m" });
	channel.subscribe((event) => {
		view = reduce(view, event, Date.now());
	});
	const agent = new Agent({ provider, model: "m", system: { text: "", parts: [] }, tools: [], channel });
	const started = performance.now();
	const run = await agent.run("go");
	await writer.finish({
		type: "result",
		ok: true,
		result: "",
		stopReason: run.stopReason,
		turns: 1,
		usage: run.usage,
		costUsd: null,
		totalCostUsd: null,
		durationMs: 0,
		sessionId: null,
	});
	return { ms: performance.now() - started, bytes: sink.bytes };
}

function best(values: number[]): number {
	return Math.min(...values);
}

export async function benchDeltas(): Promise<string[]> {
	const lines = [`per-delta cost, a reply of ${DELTAS.toLocaleString("en")} deltas (best of 5):`];
	const scripted = () => createScriptedProvider([{ text: chunks }]);
	const bare: number[] = [];
	const full: number[] = [];
	let bytes = 0;
	for (let i = 0; i < 5; i++) {
		bare.push(await timeProviderOnly(scripted()));
		const r = await timeThroughGar(scripted());
		full.push(r.ms);
		bytes = r.bytes;
	}
	const own = ((best(full) - best(bare)) * 1000) / DELTAS;
	lines.push(
		`  scripted provider alone       ${((best(bare) * 1000) / DELTAS).toFixed(2)} µs/delta`,
		`  + loop, channel, stream-json, view reducer  ${((best(full) * 1000) / DELTAS).toFixed(2)} µs/delta  → gar's own ${own.toFixed(2)} µs/delta (target ≤ 5)`,
		`  stream-json output            ${(bytes / 1024).toFixed(0)} KiB (${(bytes / DELTAS).toFixed(0)} B/delta: linear)`,
	);
	const server = await startWireServer(() => ({ text: chunks }));
	const wire: number[] = [];
	for (let i = 0; i < 3; i++) {
		const provider = await createProvider("openai", { apiKey: "bench", baseURL: `${server.url}/v1` });
		wire.push((await timeThroughGar(provider)).ms);
	}
	await server.close();
	lines.push(
		`  openai wire over loopback SSE ${((best(wire) * 1000) / DELTAS).toFixed(2)} µs/delta (includes HTTP and gar's SSE decoding)`,
	);
	return lines;
}
