// Export: a 10,000-entry session as Markdown and as HTML, in process and with `gar export` in a new process.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ExportFormat, exportSession } from "../src/output/export/export-session.js";
import { loadSession } from "../src/session/index.js";
import { writeSyntheticSession } from "./synthetic-session.js";

const ENTRIES = 10_000;
const GAR = new URL("../bin/gar.cjs", import.meta.url).pathname;

/**
 * The best of three exports of the loaded session (its load not counted): wall time, CPU time (what a shared, busy
 * machine disturbs least) and the output's size.
 */
function inProcess(file: string, format: ExportFormat): { ms: number; cpuMs: number; mb: number } {
	const session = loadSession(file);
	let best = { ms: Number.POSITIVE_INFINITY, cpuMs: Number.POSITIVE_INFINITY };
	let size = 0;
	for (let i = 0; i < 3; i++) {
		const cpu = process.cpuUsage();
		const started = performance.now();
		size = exportSession(session, format).length;
		const ms = performance.now() - started;
		const used = process.cpuUsage(cpu);
		const cpuMs = (used.user + used.system) / 1000;
		if (cpuMs < best.cpuMs) best = { ms, cpuMs };
	}
	return { ...best, mb: size / 2 ** 20 };
}

/** `gar export FILE -o OUT` in a fresh process: start-up, load, export and write; the median of three. */
function cold(file: string, out: string): number {
	const times: number[] = [];
	for (let i = 0; i < 3; i++) {
		const started = performance.now();
		const child = spawnSync(process.execPath, [GAR, "export", file, "-o", out, "--force"], { encoding: "utf8" });
		times.push(performance.now() - started);
		if (child.status !== 0) throw new Error(`gar export failed: ${child.stderr}`);
	}
	return times.sort((a, b) => a - b)[1] ?? Number.NaN;
}

export async function benchExport(): Promise<string[]> {
	const dir = mkdtempSync(join(tmpdir(), "gar-bench-export-"));
	try {
		const file = writeSyntheticSession(dir, ENTRIES);
		const mb = statSync(file).size / 2 ** 20;
		const md = inProcess(file, "md");
		const html = inProcess(file, "html");
		const coldHtml = cold(file, join(dir, "out.html"));
		return [
			`export, ${ENTRIES.toLocaleString("en")} entries (${mb.toFixed(1)} MiB):`,
			`  Markdown in process           ${md.ms.toFixed(0)} ms, ${md.cpuMs.toFixed(0)} ms CPU (${md.mb.toFixed(1)} MiB written)`,
			`  HTML in process               ${html.ms.toFixed(0)} ms, ${html.cpuMs.toFixed(0)} ms CPU (${html.mb.toFixed(1)} MiB written)`,
			`  gar export -o x.html          ${coldHtml.toFixed(0)} ms wall in a new process (start-up and load included)`,
		];
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

// Alone: node --import tsx scripts/bench-export.ts
if (import.meta.url === `file://${process.argv[1]}`) for (const line of await benchExport()) console.log(line);
