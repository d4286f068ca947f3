// In-process keypress cost: the real App bundled as the build bundles it (Ink patches, minified, production React),
// on a fake terminal. `node --import tsx scripts/bench-keys.ts [keys] [gapMs] [chatLines]`. Prints the first keys
// (cold code) and the median of the rest (warm), in ms from the key pushed to its first write (the typed row's echo)
// and to its frame written.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
// @ts-expect-error: a plain .mjs build script without type declarations
import { inkPatches } from "./ink-patches.mjs";

const [keys = 200, gap = 20, chat = 30] = process.argv.slice(2).map(Number);
const dir = process.env.BENCH_KEYS_DIR ?? mkdtempSync(join(tmpdir(), "gar-bench-keys-"));
try {
	const outfile = join(dir, "app.cjs");
	await build({
		entryPoints: [new URL("./bench-keys-app.tsx", import.meta.url).pathname],
		outfile,
		bundle: true,
		format: "cjs",
		platform: "node",
		target: "node20",
		minify: true,
		keepNames: false,
		sourcemap: Boolean(process.env.BENCH_KEYS_DIR),
		logLevel: "warning",
		define: { "process.env.NODE_ENV": '"production"', GAR_VERSION: '"0.0.0"' },
		plugins: [inkPatches],
	});
	const { run } = await import(pathToFileURL(outfile).href);
	type Figures = { ms: number[]; frame: number[]; bytes: number[]; layout: number[]; render: number[] };
	const { ms, frame, bytes, layout, render } = (await run(keys, gap, chat)) as Figures;
	const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? Number.NaN;
	const p90 = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length * 0.9)] ?? Number.NaN;
	const stage = (name: string, v: number[]) =>
		`${name} cold ${med(v.slice(0, 20)).toFixed(3)} warm ${med(v.slice(20)).toFixed(3)}`;
	console.log(`${stage("layout", layout)}; ${stage("renderer", render)}; ${stage("frame", frame)} ms`);
	console.log(
		`first 20: ${ms
			.slice(0, 20)
			.map((v) => v.toFixed(2))
			.join(" ")}`,
	);
	console.log(
		`keys 1–20 median ${med(ms.slice(0, 20)).toFixed(3)} ms; keys 21–: median ${med(ms.slice(20)).toFixed(3)} p90 ${p90(ms.slice(20)).toFixed(3)} ms; bytes median ${med(bytes)}`,
	);
} finally {
	if (!process.env.BENCH_KEYS_DIR) rmSync(dir, { recursive: true, force: true });
}
