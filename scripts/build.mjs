// Bundles src/cli.ts into dist/ with esbuild: minified, self-contained (every dependency is bundled, so a user's
// install needs none), dist/ emptied first. Code splitting keeps each provider SDK and the UI in chunks of their own,
// loaded by dynamic import only when used (test/llm-bundle.test.ts checks it over the metafile).
import { readFileSync, renameSync, rmSync } from "node:fs";
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
const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));

/** The esbuild options of the shipped bundle (the bundle test builds with the same ones). */
export const buildOptions = {
	absWorkingDir: ROOT,
	entryPoints: { cli: "src/cli.ts" },
	outdir: "dist",
	bundle: true,
	splitting: true,
	format: "esm",
	platform: "node",
	target: "node20",
	minify: true,
	// Error and SDK class names stay readable: gar classifies SDK errors by their class.
	keepNames: true,
	sourcemap: "linked",
	legalComments: "none",
	logLevel: "warning",
	chunkNames: "chunks/[name]-[hash]",
	plugins: [inkPatches, zodEnglishOnly],
	define: {
		"process.env.NODE_ENV": '"production"',
		GAR_VERSION: JSON.stringify(pkg.version),
	},
	// Some bundled dependencies are CommonJS and call require() for Node built-ins.
	banner: {
		js: 'import { createRequire as __garRequire } from "node:module"; const require = __garRequire(import.meta.url);',
	},
};

/**
 * Builds a fresh dist/ (no stale chunks from an earlier build): into a temporary folder first, then swapped in, so a
 * CLI started meanwhile (another test run) never finds dist/ half-built.
 */
export async function buildDist() {
	const dist = fileURLToPath(new URL("../dist", import.meta.url));
	const next = `${dist}.next-${process.pid}`;
	rmSync(next, { recursive: true, force: true });
	try {
		const result = await build({ ...buildOptions, outdir: next });
		rmSync(dist, { recursive: true, force: true });
		renameSync(next, dist);
		return result;
	} finally {
		rmSync(next, { recursive: true, force: true });
	}
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildDist();
