// An app for a test, bundled as esbuild bundles gar: with the build's Ink patches (scripts/ink-patches.mjs), or with
// stock Ink; loaded as an ES module.
import { join } from "node:path";
import { build } from "esbuild";
// @ts-expect-error: a plain .mjs build script without type declarations
import { inkPatches } from "../../scripts/ink-patches.mjs";

/** Bundles `entry` into `outfile` (ESM), with the build's Ink patches when `patched`, else stock Ink. */
export async function bundleApp(entry: string, outfile: string, patched: boolean): Promise<void> {
	await build({
		entryPoints: [entry],
		outfile,
		absWorkingDir: process.cwd(),
		nodePaths: [join(process.cwd(), "node_modules")],
		bundle: true,
		format: "esm",
		platform: "node",
		logLevel: "silent",
		define: { "process.env.NODE_ENV": '"production"' },
		banner: { js: 'import { createRequire as __r } from "node:module"; const require = __r(import.meta.url);' },
		// Stock Ink still needs its devtools import stubbed to bundle (it is loaded only with DEV=true).
		...(patched
			? { plugins: [inkPatches] }
			: { alias: { "react-devtools-core": join(process.cwd(), "scripts/stubs/react-devtools-core.mjs") } }),
	});
}
