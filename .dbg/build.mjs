import { build } from "esbuild";
import { inkPatches } from "/work/wt/perf/scripts/ink-patches.mjs";
await build({ entryPoints: ["/tmp/dbg-entry.mjs"], outfile: "/work/wt/perf/.dbg/dbg.mjs", absWorkingDir: "/work/wt/perf", nodePaths: ["/work/wt/perf/node_modules"], bundle: true, format: "esm", platform: "node", logLevel: "warning", define: { "process.env.NODE_ENV": '"production"' },
 banner: { js: 'import { createRequire as __r } from "node:module"; const require = __r(import.meta.url);' }, plugins: [inkPatches] });
