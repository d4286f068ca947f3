// The shipped bundle, built in memory with scripts/build.mjs's own options. dist/gar.cjs is one CommonJS file, where
// esbuild wraps each module reached only through import() and runs it when that import runs; so what each path runs
// is its static import closure. That closure is read from esbuild's metafile of a split build of the same source and
// options: static imports load with their chunk, dynamic imports only when that code runs.
import { build, type Metafile } from "esbuild";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs build script without type declarations
import { bootOptions, buildOptions, headlessOptions } from "../scripts/build.mjs";

const metafile = async (options: object) =>
	(await build({ ...options, write: false, metafile: true, logLevel: "silent" })).metafile as Metafile;
const split = {
	...buildOptions,
	format: "esm",
	splitting: true,
	outExtension: {},
	chunkNames: "chunks/[name]-[hash]",
	banner: { js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);' },
};
const [shipped, graph, boot, headless] = await Promise.all([
	metafile(buildOptions),
	metafile(split),
	metafile(bootOptions),
	metafile(headlessOptions),
]);
const outputs = (graph as Metafile).outputs;

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
const PROTOCOL_SDKS = ["@agentclientprotocol/sdk", "@modelcontextprotocol/sdk"];
/** What an HTTP server would bring; the stdio servers must not pull it in through an SDK's index. */
const HTTP_SERVERS = [
	"express",
	"hono",
	"@hono/node-server",
	"cors",
	"express-rate-limit",
	"raw-body",
	"jose",
	"eventsource",
];

describe("bundle", () => {
	it("is one minified CommonJS file bundling every dependency, started by a script of built-ins only", () => {
		expect(buildOptions.minify).toBe(true);
		expect(buildOptions.format).toBe("cjs");
		const files = Object.keys((shipped as Metafile).outputs).filter((name) => !name.endsWith(".map"));
		expect(files).toEqual(["dist/gar.cjs"]);
		const external = Object.values((shipped as Metafile).outputs).flatMap((o) =>
			o.imports.filter((i) => i.external).map((i) => i.path),
		);
		expect(external.filter((p) => !p.startsWith("node:") && !/^[a-z_]+$/.test(p))).toEqual([]);
		// Inside vm.Script with a code cache, Node 20 has no loader for import(): built-ins are imported statically.
		const dynamic = Object.values((shipped as Metafile).outputs).flatMap((o) =>
			o.imports.filter((i) => i.kind === "dynamic-import").map((i) => i.path),
		);
		expect(dynamic).toEqual([]);
		const start = Object.values((boot as Metafile).outputs).flatMap((o) => Object.keys(o.inputs));
		expect(start).toContain("src/boot.ts");
		expect(start.filter((input) => !input.startsWith("src/"))).toEqual([]);
	});

	it("dist/headless.cjs is all of gar but the app: each module of src/ui/ is a line that throws, and no Ink or React", () => {
		const outputs = Object.entries((headless as Metafile).outputs).filter(([name]) => !name.endsWith(".map"));
		expect(outputs.map(([name]) => name)).toEqual(["dist/headless.cjs"]);
		const inputs = outputs[0]?.[1].inputs ?? {};
		expect(packages(Object.keys(inputs))).toEqual(expect.not.arrayContaining(["ink", "react", "yoga-layout"]));
		// The modules cli.ts imports for the app are there, each a stub: a throw, none of its own code.
		const app = Object.entries(inputs).filter(([input]) => input.startsWith("src/ui/"));
		expect(app.map(([input]) => input).sort()).toEqual([
			"src/ui/replay.ts",
			"src/ui/run.tsx",
			"src/ui/terminal/background.ts",
		]);
		for (const [, input] of app) expect(input.bytesInOutput).toBeLessThan(300);
		// Everything else is the same code as in dist/gar.cjs.
		const whole = Object.keys(Object.values((shipped as Metafile).outputs).find((o) => o.entryPoint)?.inputs ?? {});
		expect(Object.keys(inputs).filter((input) => !input.startsWith("src/ui/") && !whole.includes(input))).toEqual([]);
	});

	it("gar --version loads no SDK, no zod, no UI", () => {
		const loaded = packages(staticInputs(chunkOf("src/cli.ts")));
		expect(loaded).toEqual(expect.not.arrayContaining(["@anthropic-ai/sdk", "openai", "zod", ...UI, ...PROTOCOL_SDKS]));
	});

	it("the headless path (gar -p) loads neither Ink/React nor an SDK until a provider is chosen", () => {
		for (const mode of ["src/modes/print.ts", "src/modes/print-stream.ts"]) {
			const loaded = packages(staticInputs(chunkOf(mode)));
			expect(loaded).toEqual(expect.not.arrayContaining(["@anthropic-ai/sdk", "openai", ...UI, ...PROTOCOL_SDKS]));
		}
	});

	it("the headless path builds schemas with zod's functional API (zod/mini), never its classic one", () => {
		// Classic makes all of its schema classes as it loads (~6 ms of a `gar -p`); src/text/zod.ts is mini.
		for (const mode of ["src/modes/print.ts", "src/modes/print-stream.ts"]) {
			const loaded = staticInputs(chunkOf(mode));
			expect(loaded).toContain("src/text/zod.ts");
			expect(loaded.filter((input) => /node_modules\/zod\/v4\/classic\//.test(input))).toEqual([]);
		}
	});

	it("gar acp loads the ACP SDK only: no Ink, no MCP SDK, no provider SDK until a session picks one", () => {
		const loaded = packages(staticInputs(chunkOf("src/modes/acp/run.ts")));
		expect(loaded).toContain("@agentclientprotocol/sdk");
		expect(loaded).toEqual(
			expect.not.arrayContaining(["@anthropic-ai/sdk", "openai", "@modelcontextprotocol/sdk", ...UI, ...HTTP_SERVERS]),
		);
	});

	it("gar mcp loads the MCP SDK's stdio server only: no Ink, no ACP SDK, no HTTP server", () => {
		const loaded = packages(staticInputs(chunkOf("src/modes/mcp/run.ts")));
		expect(loaded).toContain("@modelcontextprotocol/sdk");
		expect(loaded).toEqual(
			expect.not.arrayContaining(["@anthropic-ai/sdk", "openai", "@agentclientprotocol/sdk", ...UI, ...HTTP_SERVERS]),
		);
	});

	it("the headless path loads no hook code: src/hooks/ comes in only when a hook is configured", () => {
		const inputs = staticInputs(chunkOf("src/modes/print.ts"));
		expect(inputs.filter((input) => input.startsWith("src/hooks/") || input === "src/view/hook-line.ts")).toEqual([]);
		// The runner really is in the bundle, behind the import setup.ts makes when there are hooks.
		expect(chunkOf("src/hooks/hooks.ts")).not.toBe(chunkOf("src/modes/print.ts"));
	});

	it("the full-screen app's first frame loads Ink and React but no SDK, zod, config, session, marked, lowlight or fzf", () => {
		const inputs = staticInputs(chunkOf("src/ui/run.tsx"));
		const loaded = packages(inputs);
		expect(loaded).toEqual(expect.arrayContaining(["ink", "react", "yoga-layout"]));
		expect(loaded).toEqual(
			expect.not.arrayContaining([
				"@anthropic-ai/sdk",
				"openai",
				"zod",
				"smol-toml",
				"marked",
				"lowlight",
				"fzf",
				...PROTOCOL_SDKS,
			]),
		);
		expect(loaded).not.toContain("highlight.js");
		const own = inputs.filter((i) => /^src\/(config|session|modes|tools|files|llm\/(anthropic|openai))/.test(i));
		expect(own).toEqual([]);
		// The string-width every package measures with is gar's (no 26 ms emoji regex at the first frame), and the
		// grapheme splitter Ink's tokenizers use is gar's (no Intl.Segmenter made at import).
		expect(inputs).toContain("src/term/string-width.ts");
		expect(inputs).toContain("src/term/graphemes.ts");
		expect(inputs.filter((i) => i.includes("node_modules/string-width/"))).toEqual([]);
	});

	it("openai's client comes without its resource classes, which gar never uses (it posts one request)", () => {
		const inputs = Object.values((shipped as Metafile).outputs).flatMap((o) => Object.keys(o.inputs));
		expect(inputs).toContain("node_modules/openai/client.mjs");
		expect(inputs.filter((input) => input.startsWith("node_modules/openai/resources/"))).toEqual([]);
		// The package's index (Azure, Bedrock) is not imported either.
		expect(inputs).not.toContain("node_modules/openai/index.mjs");
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
