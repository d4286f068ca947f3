// gar's start (dist/cli.cjs). All of gar is one CommonJS file, dist/gar.cjs, which this runs through vm.Script with a
// V8 code cache: a launch after the first neither parses nor compiles the code it runs (Node 20 has no
// module.enableCompileCache, and its ES module loader takes no cached data). Compiling the code was a third of a
// `gar -p` and of the full-screen app's first frame.
//
// One cache per kind of launch, as each runs different code: `-p` (written when it exits), in a terminal (written by
// the full-screen app once its first frame is drawn, through `garBoot` below; other commands run in a terminal leave
// it alone), and piped (written at exit). V8 refuses a cache made by another V8, other flags or another bundle, and
// it is then made again. A cache that cannot be read or written only costs speed.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import { Script } from "node:vm";

declare const GAR_VERSION: string;

/** What gar.cjs sees as the free variable `garBoot` (src/code-cache.ts). */
export type GarBoot = { saveCodeCache(): void };

type Kind = "print" | "terminal" | "piped";

const PREFIX = "code-";
const DAY_MS = 86_400_000;

/** Which cache a launch uses: its code differs by kind. */
function launchKind(argv: readonly string[], tty: boolean): Kind {
	if (argv.some((arg) => arg === "-p" || arg === "--print")) return "print";
	return tty ? "terminal" : "piped";
}

/** gar's cache folder: `$XDG_CACHE_HOME/gar`, else `~/.cache/gar` (a relative XDG variable is ignored). */
function cacheDir(env: NodeJS.ProcessEnv): string {
	const home = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : join(homedir(), ".cache");
	return join(home, "gar");
}

/**
 * One cache per gar version, bundle build, kind of launch, Node and Node options: a new one never meets an old
 * one's file, and launches with other V8 flags (which make V8 refuse a cache) do not take turns remaking one.
 */
function cacheFile(dir: string, bundle: string, kind: Kind, env: NodeJS.ProcessEnv): string {
	const { size, mtimeMs } = statSync(bundle);
	const node = process.version.replace(/[^\w.]/g, "");
	const flags = fnv1a(`${process.execArgv.join(" ")}\n${env.NODE_OPTIONS ?? ""}`);
	return join(
		dir,
		`${PREFIX}${GAR_VERSION}-${size}-${Math.trunc(mtimeMs)}-${kind}-${node}-${process.arch}-${flags}.v8`,
	);
}

/** A short hash for a file name (FNV-1a, 32 bits). */
function fnv1a(text: string): string {
	let hash = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
	return hash.toString(16).padStart(8, "0");
}

function readOrUndefined(file: string): Buffer | undefined {
	try {
		return readFileSync(file);
	} catch {
		return undefined;
	}
}

/**
 * Writes the script's code cache to `file`: through a temporary file and a rename, so a gar starting meanwhile reads
 * a whole cache or none. Caches of other builds are removed once a day old (two installs used in turn then remake
 * theirs at most daily).
 */
function writeCache(script: Script, file: string): void {
	const dir = dirname(file);
	const temporary = `${file}.${process.pid}.tmp`;
	try {
		// Only this user may change what the next launch runs.
		mkdirSync(dir, { recursive: true, mode: 0o700 });
		writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
		renameSync(temporary, file);
		const dayAgo = Date.now() - DAY_MS;
		for (const name of readdirSync(dir)) {
			const other = join(dir, name);
			if (name.startsWith(PREFIX) && other !== file && statSync(other).mtimeMs < dayAgo) rmSync(other, { force: true });
		}
	} catch {
		try {
			rmSync(temporary, { force: true });
		} catch {
			// The folder itself is unusable: there is nothing to clean.
		}
	}
}

/** Runs the bundle `bundle` (CommonJS) with the code cache for this launch. */
function boot(bundle: string, argv: readonly string[], env: NodeJS.ProcessEnv): void {
	const kind = launchKind(argv, Boolean(process.stdout.isTTY && process.stdin.isTTY));
	let file: string | undefined;
	try {
		file = cacheFile(cacheDir(env), bundle, kind, env);
	} catch {
		file = undefined;
	}
	const cachedData = file === undefined ? undefined : readOrUndefined(file);
	let source: string;
	try {
		source = readFileSync(bundle, "latin1"); // the bundle is ASCII (esbuild escapes the rest), and latin1 reads fastest
	} catch (error) {
		const why = (error as NodeJS.ErrnoException).code === "ENOENT" ? "is missing" : `cannot be read (${error})`;
		process.stderr.write(`gar: ${bundle} ${why}: build gar with \`npm install\` or \`npm run build\` in its folder\n`);
		process.exitCode = 1;
		return;
	}
	const wrapped = `(function (exports, require, module, __filename, __dirname, garBoot) {${source}\n})`;
	const script = new Script(wrapped, { filename: bundle, ...(cachedData ? { cachedData } : {}) });
	const wanted = file !== undefined && (cachedData === undefined || script.cachedDataRejected === true);
	let saved = false;
	const save = () => {
		if (!wanted || saved || file === undefined) return;
		saved = true;
		writeCache(script, file);
	};
	if (kind !== "terminal") process.on("exit", save);
	const garBoot: GarBoot = { saveCodeCache: save };
	const module = { exports: {} };
	script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, dirname(bundle), garBoot);
}

const argv = process.argv.slice(2);
// `gar --version` alone is answered here, as the CLI would answer it, without loading the bundle.
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v")) process.stdout.write(`${GAR_VERSION}\n`);
else boot(join(__dirname, "gar.cjs"), argv, process.env);
