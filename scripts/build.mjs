// Bundles src/cli.ts into dist/ with esbuild: minified, self-contained (every dependency is bundled, so a user's
// install needs none), dist/ emptied first. Code splitting keeps each provider SDK and the UI in chunks of their own,
// loaded by dynamic import only when used (test/llm-bundle.test.ts checks it over the metafile). React, Ink and yoga
// are a CommonJS file of their own, dist/ui-vendor.cjs, for the V8 code cache (src/ui/vendor.ts).
import { readFileSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
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

/** The packages that live in dist/ui-vendor.cjs, with the key each has in its exports (src/ui/vendor-entry.ts). */
const VENDORED = { ink: "ink", react: "react", "react/jsx-runtime": "jsxRuntime" };
const LOADER = fileURLToPath(new URL("../src/ui/vendor.ts", import.meta.url));
const require = createRequire(import.meta.url);

/** Every name a vendored package exports, read from the package itself. */
async function exportNames(spec) {
	const names = spec === "ink" ? Object.keys(await import("ink")) : Object.keys(require(spec));
	return names.filter((name) => name !== "default" && /^[A-Za-z_$][\w$]*$/.test(name));
}

/**
 * In the main bundle, `ink`, `react` and `react/jsx-runtime` are small modules that hand out what
 * dist/ui-vendor.cjs exports (one React for gar's components and Ink's reconciler alike).
 */
const fromVendor = {
	name: "from-ui-vendor",
	setup(build) {
		const filter = new RegExp(`^(${Object.keys(VENDORED).join("|").replaceAll("/", "\\/")})$`);
		build.onResolve({ filter }, (args) => ({ path: args.path, namespace: "ui-vendor" }));
		build.onLoad({ filter: /.*/, namespace: "ui-vendor" }, async (args) => {
			const names = await exportNames(args.path);
			return {
				contents: [
					`import { vendor } from ${JSON.stringify(LOADER)};`,
					`const m = vendor().${VENDORED[args.path]};`,
					`export const { ${names.join(", ")} } = m;`,
					"export default m;",
				].join("\n"),
				loader: "js",
				resolveDir: ROOT,
			};
		});
	},
};

const shared = {
	absWorkingDir: ROOT,
	bundle: true,
	platform: "node",
	target: "node20",
	minify: true,
	legalComments: "none",
	logLevel: "warning",
	define: { "process.env.NODE_ENV": '"production"' },
};

/** dist/ui-vendor.cjs: React, Ink and yoga in one CommonJS file, loaded with a V8 code cache (src/ui/vendor.ts). */
export const vendorBuildOptions = {
	...shared,
	entryPoints: { "ui-vendor": "src/ui/vendor-entry.ts" },
	outdir: "dist",
	outExtension: { ".js": ".cjs" },
	format: "cjs",
	plugins: [inkPatches],
};

/** The esbuild options of the shipped bundle (the bundle test builds with the same ones). */
export const buildOptions = {
	...shared,
	entryPoints: { cli: "src/cli.ts" },
	outdir: "dist",
	splitting: true,
	format: "esm",
	// Error and SDK class names stay readable: gar classifies SDK errors by their class.
	keepNames: true,
	sourcemap: "linked",
	chunkNames: "chunks/[name]-[hash]",
	plugins: [fromVendor, inkPatches, zodEnglishOnly],
	define: { ...shared.define, GAR_VERSION: JSON.stringify(pkg.version) },
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
		await build({ ...vendorBuildOptions, outdir: next });
		const result = await build({ ...buildOptions, outdir: next });
		rmSync(dist, { recursive: true, force: true });
		renameSync(next, dist);
		return result;
	} finally {
		rmSync(next, { recursive: true, force: true });
	}
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildDist();
