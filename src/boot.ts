// gar's start (dist/cli.cjs). All of gar is one CommonJS bundle, dist/gar.cjs, and all of it but the full-screen app
// another, dist/headless.cjs, run where the app cannot be shown (see `headless`); each is written as one function of
// what Node's module wrapper passes, and garBoot. This runs one through vm.Script with
// a V8 code cache: a launch after the first neither parses nor compiles the code it runs (Node 20 has no
// module.enableCompileCache, and its ES module loader takes no cached data). Compiling the code was a third of a
// `gar -p` and of the full-screen app's first frame.
//
// One cache per bundle and kind of launch, as each runs different code: `-p` (written when it exits, and again by a
// launch that ran a code path it lacks: see `save`), in a terminal (written by the full-screen app once its first
// frame is drawn, through `garBoot` below; other commands run in a terminal leave it alone), `gar -r` in a terminal
// (written once the picker's rows are drawn), `gar --session`/`-c` in a terminal (written once the session's last
// screen is drawn), and piped (as `-p`). src/boot-cache.ts checks a cache before V8 sees it; V8 itself refuses one
// made by another V8 or other flags, and it is then made again. A cache that cannot be read or written only costs
// speed.
import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import { Script } from "node:vm";
import { CACHE_PREFIX, type CacheCheck, cacheFolder, fnv1a, readCache, writeCache } from "./boot-cache.js";
import type { GarBoot } from "./code-cache.js";
import { firstPaint } from "./first-paint.js";
import { SIGNALS } from "./signals.js";

declare const GAR_VERSION: string;
/** The first 16 hex digits of the sha256 of dist/gar.cjs, set by the build (scripts/build.mjs). */
declare const GAR_BUNDLE_HASH: string;
/** The same of dist/headless.cjs. */
declare const GAR_HEADLESS_HASH: string;

type Kind = "print" | "terminal" | "resume" | "session" | "piped";

/** How long a launch may have run and still write its cache again for a code path it ran (see `save`). */
const REWRITE_WITHIN_S = 30;

/** Whether the app continues a session (`--session`, `-c`): it draws the session's last screen before the rest. */
const continues = (arg: string) =>
	arg === "-c" || arg === "--continue" || arg === "--session" || arg.startsWith("--session=");

/**
 * Whether the launch can never show the full-screen app, and so runs dist/headless.cjs: stdin or stdout is not a
 * terminal (the app, `gar demo` and `gar replay`'s player need both), or the first word is -p (a word before it might
 * be an option's value, leaving the prompt to the app).
 */
const headless = (argv: readonly string[], tty: boolean) => !tty || argv[0] === "-p" || argv[0] === "--print";

/**
 * Which cache a launch uses: its code differs by kind (`gar -r` in a terminal runs the picker before the chat, `gar
 * --session`/`-c` the session's preview).
 */
function launchKind(argv: readonly string[], tty: boolean): Kind {
	if (argv.some((arg) => arg === "-p" || arg === "--print")) return "print";
	if (!tty) return "piped";
	if (argv.some((arg) => arg === "-r" || arg === "--resume")) return "resume";
	return argv.some(continues) ? "session" : "terminal";
}

/** gar's cache folder: `$XDG_CACHE_HOME/gar`, else `~/.cache/gar` (a relative XDG variable is ignored). */
function cacheDir(env: NodeJS.ProcessEnv): string {
	const home = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : join(homedir(), ".cache");
	return join(home, "gar");
}

/**
 * One cache per bundle (its content, and its size and time, which change if it is edited after the build), kind of
 * launch, Node and Node options: a new one never meets an old one's file, and launches with other V8 flags (which
 * make V8 refuse a cache) do not take turns remaking one.
 */
function cacheFile(dir: string, bundle: string, hash: string, kind: Kind, env: NodeJS.ProcessEnv): string {
	const { size, mtimeMs } = statSync(bundle);
	const node = process.version.replace(/[^\w.]/g, "");
	const flags = fnv1a(`${process.execArgv.join(" ")}\n${env.NODE_OPTIONS ?? ""}`);
	const name = `${hash}-${size}-${Math.trunc(mtimeMs)}-${kind}-${node}-${process.arch}-${flags}`;
	return join(dir, `${CACHE_PREFIX}${name}.v8`);
}

/**
 * The cache check of a bundle of this build: its hash, and zlib's crc32 (~0.1 ms a MB, loaded only when a cache is
 * read or written); Node before 20.15 has none, and takes 32 bits of a sha1 (~1 ms a MB).
 */
const checkOf = (hash: string): CacheCheck => ({
	hash,
	checksum(data) {
		const { crc32 } = require("node:zlib") as typeof import("node:zlib");
		if (typeof crc32 === "function") return crc32(data);
		const { createHash } = require("node:crypto") as typeof import("node:crypto");
		return createHash("sha1").update(data).digest().readUInt32LE(0);
	},
});

/**
 * Until the bundle installs its own (src/signals.ts), a signal would end gar by its default action. These keep it:
 * a signal that comes while the bundle is read, compiled and started waits in Node until the bundle's handlers are
 * there, and goes to them. Were it ever delivered first, it would still end gar as interrupted.
 */
function holdSignals(): () => void {
	const interrupted = () => process.exit(130);
	for (const signal of SIGNALS) process.on(signal, interrupted);
	return () => {
		for (const signal of SIGNALS) process.off(signal, interrupted);
	};
}

/** Runs the bundle of this launch (CommonJS, in `dist`) with the code cache for it. */
function boot(dist: string, argv: readonly string[], env: NodeJS.ProcessEnv): void {
	const signalsTaken = holdSignals();
	const tty = Boolean(process.stdout.isTTY && process.stdin.isTTY);
	const kind = launchKind(argv, tty);
	const [bundle, check] = headless(argv, tty)
		? [join(dist, "headless.cjs"), checkOf(GAR_HEADLESS_HASH)]
		: [join(dist, "gar.cjs"), checkOf(GAR_BUNDLE_HASH)];
	const dir = cacheDir(env);
	const folder = cacheFolder(dir);
	// The full-screen app's first frame, from the last launch like this one: on screen before the bundle is read.
	const paint = kind === "terminal" ? firstPaint(dir, folder, check, argv, env) : undefined;
	let file: string | undefined;
	try {
		file = folder === "refused" ? undefined : cacheFile(dir, bundle, check.hash, kind, env);
	} catch {
		file = undefined;
	}
	const cached = file !== undefined && folder === "ok" ? readCache(file, check) : undefined;
	const cachedData = cached?.data;
	let source: string;
	try {
		source = readFileSync(bundle, "latin1"); // the bundle is ASCII (esbuild escapes the rest), and latin1 reads fastest
	} catch (error) {
		const why = (error as NodeJS.ErrnoException).code === "ENOENT" ? "is missing" : `cannot be read (${error})`;
		process.stderr.write(`gar: ${bundle} ${why}: build gar with \`npm install\` or \`npm run build\` in its folder\n`);
		process.exitCode = 1;
		return;
	}
	// The bundle is a function of what Node's module wrapper passes, and garBoot (scripts/build.mjs BUNDLE_PARAMS).
	const script = new Script(source, { filename: bundle, ...(cachedData ? { cachedData } : {}) });
	const wanted = file !== undefined && (cachedData === undefined || script.cachedDataRejected === true);
	// The code paths this launch ran (a provider, a tool: see codePath). A cache written at exit (`-p`, piped) holds the
	// code of those its launches ran, and is written again, with that code added, by a launch that ran one it does not
	// cover. Only by a short one: in a long run V8 may have dropped the compiled code of the start, which the cache
	// would then lose. The app's caches hold what their first screen needs, written once (src/ui/start.tsx).
	const atExit = kind === "print" || kind === "piped";
	const ran = new Set<string>();
	const covered = new Set(wanted ? [] : cached?.tags);
	let saved = false;
	const save = () => {
		const uncovered = atExit && process.uptime() < REWRITE_WITHIN_S && [...ran].some((tag) => !covered.has(tag));
		if ((!wanted && !uncovered) || saved || file === undefined) return;
		saved = true;
		writeCache(file, check, script.createCachedData(), [...new Set([...covered, ...ran])].sort());
	};
	if (atExit) process.on("exit", save);
	const garBoot: GarBoot = {
		saveCodeCache: save,
		codePath: (tag) => ran.add(tag),
		signalsTaken,
		...(paint ? { firstPaint: paint } : {}),
	};
	const module = { exports: {} };
	script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, dirname(bundle), garBoot);
}

const argv = process.argv.slice(2);
// `gar --version` alone is answered here, as the CLI would answer it, without loading the bundle.
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v")) process.stdout.write(`${GAR_VERSION}\n`);
else boot(__dirname, argv, process.env);
