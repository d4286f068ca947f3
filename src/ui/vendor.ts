// Loads dist/ui-vendor.cjs (React, Ink and yoga; see vendor-entry.ts) through vm.Script with a V8 code cache, so a
// launch after the first skips parsing and compiling them: Node 20 has no module.enableCompileCache, and its ES
// module loader takes no cached data. The cache is written once, after the first frame, so the functions that frame
// compiled are in it; V8 refuses a cache made by another V8 or for other source, and it is then made again.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import { Script } from "node:vm";

declare const GAR_VERSION: string;
const VERSION = typeof GAR_VERSION === "string" ? GAR_VERSION : "dev";

export type Vendor = {
	ink: typeof import("ink");
	react: typeof import("react");
	jsxRuntime: typeof import("react/jsx-runtime");
};

/** How the bundle was loaded: from the code cache, compiled (no cache yet), or compiled after V8 refused the cache. */
export type VendorLoad = "cached" | "compiled" | "refused";

const CACHE_PREFIX = "ui-vendor-";

let bundle: string | undefined;
let cacheDir: string | undefined;
let loaded:
	| { vendor: Vendor; how: VendorLoad; script: Script; cacheFile: string | undefined; saved: boolean }
	| undefined;

/** Where the bundle is and where its cache goes (undefined: none); cli.ts calls this before the UI chunk loads. */
export function locateVendor(file: string, cache: string | undefined): void {
	bundle = file;
	cacheDir = cache;
}

/** gar's cache folder: `$XDG_CACHE_HOME/gar`, else `~/.cache/gar` (a relative XDG variable is ignored). */
export function defaultCacheDir(env: NodeJS.ProcessEnv): string {
	const home = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : join(homedir(), ".cache");
	return join(home, "gar");
}

/** The libraries, loaded on first use. */
export function vendor(): Vendor {
	loaded ??= load();
	return loaded.vendor;
}

export function vendorLoad(): VendorLoad | undefined {
	return loaded?.how;
}

function load(): NonNullable<typeof loaded> {
	if (bundle === undefined) throw new Error("the UI libraries were used before locateVendor() named their bundle");
	const file = bundle;
	const source = readFileSync(file, "utf8");
	const cacheFile = cacheDir === undefined ? undefined : join(cacheDir, cacheName(file));
	const cachedData = cacheFile === undefined ? undefined : readOrUndefined(cacheFile);
	const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
	const script = new Script(wrapped, { filename: file, ...(cachedData ? { cachedData } : {}) });
	const module = { exports: {} };
	script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
	const how = cachedData === undefined ? "compiled" : script.cachedDataRejected ? "refused" : "cached";
	return { vendor: module.exports as Vendor, how, script, cacheFile, saved: false };
}

/** One cache per gar version, bundle build and Node: a new one never meets an old one's file. */
function cacheName(file: string): string {
	const { size, mtimeMs } = statSync(file);
	const node = process.version.replace(/[^\w.]/g, "");
	return `${CACHE_PREFIX}${VERSION}-${size}-${Math.trunc(mtimeMs)}-${node}-${process.arch}.v8`;
}

function readOrUndefined(file: string): Buffer | undefined {
	try {
		return readFileSync(file);
	} catch {
		return undefined;
	}
}

/**
 * Writes the code cache when this launch had none it could use (call once the first frame is drawn). Written to a
 * temporary file and renamed, so a gar starting meanwhile reads a whole cache or none. Caches of other builds are
 * removed once a day old (two installs in turn then rebuild theirs at most daily). A
 * cache that cannot be written (read-only home, full disk) only costs the next launch its speed.
 */
export function saveVendorCache(): void {
	if (loaded === undefined || loaded.how === "cached" || loaded.saved || loaded.cacheFile === undefined) return;
	loaded.saved = true;
	const { script, cacheFile } = loaded;
	const dir = dirname(cacheFile);
	const temporary = `${cacheFile}.${process.pid}.tmp`;
	try {
		mkdirSync(dir, { recursive: true });
		writeFileSync(temporary, script.createCachedData());
		renameSync(temporary, cacheFile);
		const dayAgo = Date.now() - 86_400_000;
		for (const name of readdirSync(dir)) {
			const other = join(dir, name);
			if (name.startsWith(CACHE_PREFIX) && other !== cacheFile && statSync(other).mtimeMs < dayAgo) {
				rmSync(other, { force: true });
			}
		}
	} catch {
		try {
			rmSync(temporary, { force: true });
		} catch {
			// The folder itself is unusable: there is nothing to clean.
		}
	}
}
