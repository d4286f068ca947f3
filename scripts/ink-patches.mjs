// Bundle-time fixes to Ink 6.8 for a full-screen app (see shared notes: tui-performance.md). Each patch fails the
// build when its pattern is missing, so an Ink upgrade cannot silently drop a fix.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const STUB = fileURLToPath(new URL("./stubs/react-devtools-core.mjs", import.meta.url));

/** [file suffix, exact text, replacement, why]. */
const PATCHES = [
	[
		"ink/build/log-update.js",
		"buffer.push(ansiEscapes.cursorUp(previousVisible - 1));",
		"buffer.push(ansiEscapes.cursorUp(previousLines.length - 1));",
		// Upstream #910 (Ink 7): incremental frames landed one row low and scrolled a full-screen app.
	],
];

/** The esbuild plugin: the devtools stub and the patches above. */
export const inkPatches = {
	name: "ink-patches",
	setup(build) {
		build.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: STUB }));
		// Ink loads its devtools bridge (and through it the ws package) only with DEV=true: never bundled.
		build.onResolve({ filter: /^\.\/devtools\.js$/ }, (args) =>
			/ink[\\/]build/.test(args.importer) ? { path: STUB } : undefined,
		);
		build.onLoad({ filter: /ink[\\/]build[\\/]log-update\.js$/ }, (args) => {
			let text = readFileSync(args.path, "utf8");
			for (const [suffix, from, to] of PATCHES) {
				if (!args.path.replaceAll("\\", "/").endsWith(suffix)) continue;
				if (!text.includes(from)) throw new Error(`ink patch for ${suffix} no longer applies: "${from}" not found`);
				text = text.replace(from, to);
			}
			return { contents: text, loader: "js" };
		});
	},
};
