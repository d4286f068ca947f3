// Bundles gar into dist/ with esbuild, dist/ emptied first. All of gar is one minified, self-contained CommonJS file,
// dist/gar.cjs (every dependency bundled, so a user's install needs none), and all but the full-screen app is another,
// dist/headless.cjs; dist/cli.cjs, built from src/boot.ts, runs one of them through a V8 code cache. Modules reached
// only by dynamic import (each provider SDK, the UI, the commands) stay unevaluated until used (test/llm-bundle.test.ts
// checks the import graph).
import { createHash } from "node:crypto";
import { readFileSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { inkPatches } from "./ink-patches.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/**
 * zod re-exports all of its ~40 message locales as `z.locales` (≈ 250 KiB of the bundle, parsed on every
 * `gar -p`); gar uses none but the default English one, which zod imports directly. So `z.locales` holds English
 * only.
 */
const zodEnglishOnly = {
	name: "zod-english-only",
	setup(build) {
		build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => {
			if (!/[\\/]zod[\\/]v4[\\/](classic|core|mini)$/.test(args.resolveDir)) return undefined;
			return { path: "zod-locales-en", namespace: "zod-english-only", pluginData: args.resolveDir };
		});
		build.onLoad({ filter: /.*/, namespace: "zod-english-only" }, (args) => ({
			contents: 'export { default as en } from "../locales/en.js";',
			resolveDir: args.pluginData,
			loader: "js",
		}));
	},
};
const HEADERS = fileURLToPath(new URL("../src/llm/headers.ts", import.meta.url));

/** The SDK modules whose classes' names are read: gar classifies the SDKs' errors by class, openai's User-Agent. */
const NAMED_CLASSES = /[\\/](core[\\/]error|client)\.mjs$/;

/**
 * Each `export class X` of `text` keeps its name in the bundle (which keeps no function names: see buildOptions).
 * gar tells the SDKs' errors apart by their class (src/llm/errors.ts); openai's User-Agent is its client class's name.
 */
function keepClassNames(text) {
	const names = [...text.matchAll(/^export class (\w+)/gm)].map((match) => match[1]);
	return `${text}\n${names.map((name) => `Object.defineProperty(${name}, "name", { value: "${name}" });`).join("\n")}\n`;
}

/**
 * openai's client without its resource layer: gar posts to /chat/completions with the client's own `post` (request
 * building, auth, errors), so the ~150 modules of resource classes the client imports and makes at construction are
 * left out (~2 ms of a `gar -p`), as the Anthropic adapter leaves them out with the SDK's BaseAnthropic. Throws when
 * the SDK's text no longer has the expected shape, so an upgrade cannot leave a half-stripped client.
 */
function withoutResources(text) {
	const names = [];
	let stripped = text.replace(/^import \* as API from "\.\/resources\/index\.mjs";\n/m, "");
	stripped = stripped.replace(/^import \{([^}]*)\} from "\.\/resources\/[^"]+";\n/gm, (_line, list) => {
		for (const part of list.split(",")) {
			const name = part
				.trim()
				.split(/\s+as\s+/)
				.pop();
			if (name) names.push(name);
		}
		return "";
	});
	stripped = stripped.replace(/^\s*this\.\w+ = new API\.\w+\(this\);\n/gm, "");
	stripped = stripped.replace(/^OpenAI\.\w+ = (\w+);\n/gm, (line, name) => (names.includes(name) ? "" : line));
	const code = stripped.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
	const left = [/\bAPI\./, ...names.map((name) => new RegExp(`\\b${name}\\b`))].find((re) => re.test(code));
	if (stripped === text || names.length === 0 || left) {
		throw new Error(
			`build: openai/client.mjs has changed shape (${left ?? "no resources found"}): update withoutResources`,
		);
	}
	return stripped;
}

/** The SDKs' `globalThis.ReadableStream && body instanceof globalThis.ReadableStream`, in both spellings. */
const WEB_STREAM_TEST =
	/(?:globalThis\.ReadableStream|typeof globalThis\.ReadableStream !== 'undefined')\s*&&\s*([\w.]+) instanceof globalThis\.ReadableStream/g;

/**
 * In Node 20 the first touch of the global `Headers` or `FormData` loads undici (~20 ms and several MB of a
 * `gar -p`), which gar's own fetch (src/llm/http-fetch.ts) exists to avoid, and of `ReadableStream` Node's web
 * streams (~1 ms). The SDKs build every request's headers with `Headers` and test every body with `instanceof
 * FormData` and `instanceof ReadableStream`; in the bundle their `Headers` is gar's (src/llm/headers.ts) and the body
 * tests read the body's own tag. Their client and error classes keep their names, and openai's client has no
 * resources (withoutResources).
 */
const sdkGlobals = {
	name: "sdk-globals",
	setup(build) {
		build.onLoad({ filter: /node_modules[\\/](openai|@anthropic-ai[\\/]sdk)[\\/].*\.mjs$/ }, (args) => {
			const text = readFileSync(args.path, "utf8");
			let patched = (/[\\/]openai[\\/]client\.mjs$/.test(args.path) ? withoutResources(text) : text)
				.replaceAll("body instanceof FormData", 'Object.prototype.toString.call(body) === "[object FormData]"')
				.replace(
					WEB_STREAM_TEST,
					(_test, body) => `Object.prototype.toString.call(${body}) === "[object ReadableStream]"`,
				);
			if (/\b(new|instanceof) Headers\b/.test(patched)) {
				patched = `import { Headers } from ${JSON.stringify(HEADERS)};\n${patched}`;
			}
			if (NAMED_CLASSES.test(args.path)) patched = keepClassNames(patched);
			return patched === text ? undefined : { contents: patched, loader: "js" };
		});
	},
};

const CHILD_PROCESS = "const childProcess = require('node:child_process');";

/**
 * commander loads node:child_process as it loads (~0.5 ms of every launch), for the executable subcommands gar does
 * not have: here it is loaded by a spawn, if one ever comes. Throws when commander no longer has that line.
 */
const commanderLazySpawn = {
	name: "commander-lazy-spawn",
	setup(build) {
		build.onLoad({ filter: /node_modules[\\/]commander[\\/]lib[\\/]command\.js$/ }, (args) => {
			const text = readFileSync(args.path, "utf8");
			const uses = text.match(/\bchildProcess\.\w+/g) ?? [];
			if (!text.includes(CHILD_PROCESS) || uses.some((use) => use !== "childProcess.spawn")) {
				throw new Error(
					"build: commander's lib/command.js has changed how it uses child_process: update commanderLazySpawn",
				);
			}
			const lazy = "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };";
			return { contents: text.replace(CHILD_PROCESS, lazy), loader: "js" };
		});
	},
};

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));

/** What both outputs share: minified CommonJS for Node 20, into dist/ as .cjs. */
const common = {
	absWorkingDir: ROOT,
	outdir: "dist",
	outExtension: { ".js": ".cjs" },
	bundle: true,
	format: "cjs",
	platform: "node",
	target: "node20",
	minify: !process.env.GAR_NO_MINIFY,
	legalComments: "none",
	logLevel: "warning",
	define: { "process.env.NODE_ENV": '"production"', GAR_VERSION: JSON.stringify(pkg.version) },
};

/** What the start script passes a bundle (src/boot.ts): Node's module wrapper's parameters, and gar's own. */
export const BUNDLE_PARAMS = ["exports", "require", "module", "__filename", "__dirname", "garBoot"];

/** dist/gar.cjs: all of gar (the bundle test reads its import graph from a split build with these same options). */
export const buildOptions = {
	...common,
	entryPoints: { gar: "src/cli.ts" },
	// No function names kept: esbuild's keepNames wraps every function and class made (zod builds its schemas of
	// thousands: ~20 ms of opening a session). The SDK classes whose names are read keep theirs (sdkGlobals).
	keepNames: false,
	sourcemap: "linked",
	plugins: [inkPatches, zodEnglishOnly, sdkGlobals, commanderLazySpawn],
	// The start script runs the file as is: a function of these, the rest of what Node's module wrapper gives (V8 would
	// copy a bundle wrapped at start-up, a megabyte, before reading its code cache).
	banner: { js: `(function (${BUNDLE_PARAMS.join(", ")}) {` },
	footer: { js: "})" },
};

/** The full-screen app's folder. */
const APP = join(ROOT, "src", "ui") + sep;

/**
 * Each module of the full-screen app (src/ui/) as one line that throws, and so none of what it imports (Ink, React,
 * yoga): dist/headless.cjs runs only where the app cannot be shown (src/boot.ts), and is 40 % smaller to read and to
 * start than dist/gar.cjs.
 */
const appLeftOut = {
	name: "app-left-out",
	setup(build) {
		build.onLoad({ filter: /[\\/]src[\\/]ui[\\/]/ }, (args) => {
			if (!args.path.startsWith(APP)) return undefined;
			const why = `gar: ${relative(ROOT, args.path)} is not in dist/headless.cjs, which runs only without the app`;
			return { contents: `throw new Error(${JSON.stringify(why)});`, loader: "js" };
		});
	},
};

/** dist/headless.cjs: gar without the full-screen app, for the launches that cannot show it (`-p`, pipes). */
export const headlessOptions = {
	...buildOptions,
	entryPoints: { headless: "src/cli.ts" },
	plugins: [appLeftOut, ...buildOptions.plugins],
};

/** dist/cli.cjs: the start script (src/boot.ts), Node built-ins only. */
export const bootOptions = { ...common, entryPoints: { cli: "src/boot.ts" } };

/**
 * The four tools' JSON Schemas, made from their zod schemas (src/tools/index.ts, builtInJsonSchemas) by a bundle of
 * that module run here: the bundles get them as GAR_TOOL_SCHEMAS, so a run sends them without running zod's JSON
 * Schema code.
 */
export async function toolSchemas() {
	const { outputFiles } = await build({
		stdin: {
			contents: 'export { builtInJsonSchemas } from "./src/tools/index.ts";',
			resolveDir: ROOT,
			sourcefile: "tool-schemas.ts",
			loader: "ts",
		},
		bundle: true,
		platform: "node",
		format: "cjs",
		target: "node20",
		write: false,
		logLevel: "warning",
		plugins: [zodEnglishOnly],
	});
	const module = { exports: {} };
	new Function("module", "exports", "require", outputFiles[0].text)(
		module,
		module.exports,
		createRequire(import.meta.url),
	);
	return module.exports.builtInJsonSchemas();
}

/** What keys the code caches (src/boot-cache.ts): the first 16 hex digits of the sha256 of a bundle. */
function bundleHash(file) {
	return createHash("sha256").update(readFileSync(file)).digest("hex").slice(0, 16);
}

/**
 * Builds a fresh dist/ (no stale files from an earlier build): into a temporary folder first, then swapped in, so a
 * CLI started meanwhile (another test run) never finds dist/ half-built.
 */
export async function buildDist() {
	const dist = fileURLToPath(new URL("../dist", import.meta.url));
	const next = `${dist}.next-${process.pid}`;
	rmSync(next, { recursive: true, force: true });
	try {
		const withSchemas = { ...buildOptions.define, GAR_TOOL_SCHEMAS: JSON.stringify(await toolSchemas()) };
		const [result] = await Promise.all([
			build({ ...buildOptions, define: withSchemas, outdir: next }),
			build({ ...headlessOptions, define: withSchemas, outdir: next }),
		]);
		const define = {
			...bootOptions.define,
			GAR_BUNDLE_HASH: JSON.stringify(bundleHash(`${next}/gar.cjs`)),
			GAR_HEADLESS_HASH: JSON.stringify(bundleHash(`${next}/headless.cjs`)),
		};
		await build({ ...bootOptions, define, outdir: next });
		rmSync(dist, { recursive: true, force: true });
		renameSync(next, dist);
		return result;
	} finally {
		rmSync(next, { recursive: true, force: true });
	}
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildDist();
