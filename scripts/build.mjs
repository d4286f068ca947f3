// Bundles src/cli.ts into dist/ with esbuild. Code splitting keeps each provider SDK and the UI in
// chunks of their own, loaded by dynamic import only when used.
import { readFileSync } from "node:fs";
import { build } from "esbuild";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));

await build({
	entryPoints: { cli: "src/cli.ts" },
	outdir: "dist",
	bundle: true,
	splitting: true,
	format: "esm",
	platform: "node",
	target: "node20",
	sourcemap: "linked",
	legalComments: "none",
	logLevel: "warning",
	chunkNames: "chunks/[name]-[hash]",
	define: {
		"process.env.NODE_ENV": '"production"',
		GAR_VERSION: JSON.stringify(pkg.version),
	},
	// Some bundled dependencies are CommonJS and call require() for Node built-ins.
	banner: {
		js: 'import { createRequire as __garRequire } from "node:module"; const require = __garRequire(import.meta.url);',
	},
});
