// The shipped bundle, built in memory with scripts/build.mjs's own options: what each path loads, read from
// esbuild's metafile. Static imports load with their chunk; dynamic imports load only when that code runs.
import { build, type Metafile } from "esbuild";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs build script without type declarations
import { buildOptions, vendorBuildOptions } from "../scripts/build.mjs";

const metafile = async (options: object) =>
	(await build({ ...options, write: false, metafile: true, logLevel: "silent" })).metafile as Metafile;
const [meta, vendorMeta] = await Promise.all([metafile(buildOptions), metafile(vendorBuildOptions)]);
const outputs = (meta as Metafile).outputs;
/** dist/ui-vendor.cjs: React, Ink and yoga, loaded through the code cache (src/ui/vendor.ts). */
const vendorInputs = Object.values((vendorMeta as Metafile).outputs).flatMap((o) => Object.keys(o.inputs));

/** The output that holds `source` (a path under src/). */
function chunkOf(source: string): string {
	const hit = Object.entries(outputs).find(([name, out]) => name.endsWith(".js") && source in out.inputs);
	if (!hit) throw new Error(`no chunk holds ${source}`);
	return hit[0];
}

/** Every input loaded once `chunk` loads: its own and those of the chunks it imports statically. */
function staticInputs(chunk: string): string[] {
	const seen = new Set<string>();
	const queue = [chunk];
	while (queue.length > 0) {
		const name = queue.pop() as string;
		if (seen.has(name)) continue;
		seen.add(name);
		for (const imp of outputs[name]?.imports ?? []) {
			if (imp.kind === "import-statement" && !imp.external) queue.push(imp.path);
		}
	}
	return [...seen].flatMap((name) => Object.keys(outputs[name]?.inputs ?? {}));
}

const packages = (inputs: string[]) =>
	[...new Set(inputs.flatMap((i) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(i)?.[1] ?? []))].sort();

const UI = ["ink", "react", "react-reconciler", "ink-text-input", "yoga-layout", "marked"];

describe("bundle", () => {
	it("is minified and bundles every dependency (nothing left external but node: built-ins)", () => {
		expect(buildOptions.minify).toBe(true);
		const external = Object.values(outputs).flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path));
		expect(external.filter((p) => !p.startsWith("node:") && !/^[a-z_]+$/.test(p))).toEqual([]);
	});

	it("gar --version loads no SDK, no zod, no UI", () => {
		const loaded = packages(staticInputs(chunkOf("src/cli.ts")));
		expect(loaded).toEqual(expect.not.arrayContaining(["@anthropic-ai/sdk", "openai", "zod", ...UI]));
	});

	it("the headless path (gar -p) loads neither Ink/React nor an SDK until a provider is chosen", () => {
		const loaded = packages(staticInputs(chunkOf("src/modes/print.ts")));
		expect(loaded).toEqual(expect.not.arrayContaining(["@anthropic-ai/sdk", "openai", ...UI]));
	});

	it("the full-screen app's first frame loads Ink and React (from the vendor file) but no SDK, zod, config, session, marked or lowlight", () => {
		const inputs = staticInputs(chunkOf("src/ui/run.tsx"));
		const loaded = packages(inputs);
		// gar's `ink` and `react` imports are handed out by the vendor loader; no copy of either is in the chunks.
		expect(inputs).toContain("src/ui/vendor.ts");
		expect(loaded).toEqual(expect.not.arrayContaining(UI));
		expect(loaded).toEqual(expect.not.arrayContaining(["@anthropic-ai/sdk", "openai", "zod", "smol-toml", "lowlight"]));
		expect(loaded).not.toContain("highlight.js");
		const own = inputs.filter((i) => /^src\/(config|session|modes|tools|llm\/(anthropic|openai))/.test(i));
		expect(own).toEqual([]);
	});

	it("the vendor file holds React, Ink and yoga, measuring with gar's string-width and splitting graphemes with gar's", () => {
		expect(vendorBuildOptions.format).toBe("cjs");
		expect(vendorBuildOptions.minify).toBe(true);
		expect(packages(vendorInputs)).toEqual(expect.arrayContaining(["ink", "react", "react-reconciler", "yoga-layout"]));
		expect(packages(vendorInputs)).toEqual(
			expect.not.arrayContaining(["@anthropic-ai/sdk", "openai", "zod", "marked"]),
		);
		// No 26 ms emoji regex and no Intl.Segmenter made at import before the first frame.
		expect(vendorInputs).toContain("src/term/string-width.ts");
		expect(vendorInputs).toContain("src/term/graphemes.ts");
		expect(vendorInputs.filter((i) => i.includes("node_modules/string-width/"))).toEqual([]);
		// gar's own modules stay out of it (they would exist twice, with their state).
		expect(vendorInputs.filter((i) => i.startsWith("src/") && !i.startsWith("src/term/"))).toEqual([
			"src/ui/vendor-entry.ts",
		]);
	});

	it("each adapter loads only its own SDK", () => {
		const anthropic = packages(staticInputs(chunkOf("src/llm/anthropic.ts")));
		const openai = packages(staticInputs(chunkOf("src/llm/openai.ts")));
		expect(anthropic).toContain("@anthropic-ai/sdk");
		expect(anthropic).not.toContain("openai");
		expect(openai).toContain("openai");
		expect(openai).not.toContain("@anthropic-ai/sdk");
		expect([...anthropic, ...openai]).toEqual(expect.not.arrayContaining(UI));
	});
});
