// Session load: a 10,000-entry session (tens of MB) must load in well under a second with bounded memory.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadSession } from "../src/session/index.js";
import { writeSyntheticSession } from "./synthetic-session.js";

const ENTRIES = 10_000;
const GAR = new URL("../bin/gar.cjs", import.meta.url).pathname;

function inProcess(file: string): { ms: number; heapMb: number } {
	const gc = (globalThis as { gc?: () => void }).gc;
	const times: number[] = [];
	let heapMb = Number.NaN;
	let held: unknown;
	for (let i = 0; i < 3; i++) {
		held = undefined;
		gc?.();
		const before = process.memoryUsage().heapUsed;
		const started = performance.now();
		const session = loadSession(file);
		times.push(performance.now() - started);
		held = session; // keep it alive across the gc, so the heap figure is what a loaded session holds
		gc?.();
		// Only the first load: later ones may still see the previous session alive in a stack slot.
		if (i === 0) heapMb = (process.memoryUsage().heapUsed - before) / 2 ** 20;
		if (session.entries.length !== ENTRIES) throw new Error(`loaded ${session.entries.length} entries`);
	}
	void held;
	return { ms: Math.min(...times), heapMb };
}

/** Cold load in a fresh process: `gar replay FILE --at FIRST` reads and validates the whole file. */
function coldCli(file: string, firstEntry: string): { ms: number; rssMb: number | null } {
	const timed = existsSync("/usr/bin/time");
	const args = [process.execPath, GAR, "replay", file, "--at", firstEntry, "--output", "stream-json"];
	const started = performance.now();
	const child = spawnSync(
		timed ? "/usr/bin/time" : process.execPath,
		timed ? ["-f", "RSS %M", ...args] : args.slice(1),
		{
			encoding: "utf8",
			stdio: ["ignore", "ignore", "pipe"],
		},
	);
	const ms = performance.now() - started;
	if (child.status !== 0) throw new Error(`gar replay failed: ${child.stderr}`);
	const kb = /RSS (\d+)/.exec(child.stderr)?.[1];
	return { ms, rssMb: kb ? Number(kb) / 1024 : null };
}

export async function benchSessionLoad(): Promise<string[]> {
	const dir = mkdtempSync(join(tmpdir(), "gar-bench-session-"));
	try {
		const file = writeSyntheticSession(dir, ENTRIES);
		const mb = statSync(file).size / 2 ** 20;
		const first = loadSession(file).entries[0]?.id ?? "";
		const warm = inProcess(file);
		const cold = [coldCli(file, first), coldCli(file, first), coldCli(file, first)].sort((a, b) => a.ms - b.ms)[1];
		const gcNote = (globalThis as { gc?: () => void }).gc ? "" : " (run node with --expose-gc for an exact figure)";
		return [
			`session load, ${ENTRIES.toLocaleString("en")} entries (${mb.toFixed(1)} MiB):`,
			`  in process (warm)             ${warm.ms.toFixed(0)} ms, heap held ${warm.heapMb.toFixed(1)} MiB${gcNote}`,
			`  gar replay in a new process   ${cold?.ms.toFixed(0)} ms wall${cold?.rssMb ? `, peak RSS ${cold.rssMb.toFixed(1)} MiB` : ""} (includes node start-up)`,
		];
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
