// The full-screen app's first frame, painted by the start script (src/boot.ts) before the bundle is even read: the
// frame the app drew first the last time it was launched the same way (the same build, terminal size, command line,
// folder and colour settings), kept in gar's cache folder. The app then starts as always; Ink takes the painted frame
// for what is on screen (ui/terminal/start-frame.ts), so its own first frame writes only the rows that differ (none,
// unless something changed since: a git branch, a theme), as every later frame does. What is typed meanwhile waits
// in raw mode for the app, as it did before. Until the app takes the terminal, the start script gives it back on
// exit, and before any message on stderr (an error in the command line), so such a message is read on the normal
// screen.
import { writeSync } from "node:fs";
import { join } from "node:path";
import { CACHE_PREFIX, type CacheCheck, fnv1a, readCache, writeCache } from "./boot-cache.js";
import type { FirstPaint } from "./code-cache.js";

/** The variables the first frame reads besides the command line: colours, the theme's config, the home (`~`). */
const FRAME_ENV = [
	"TERM",
	"COLORTERM",
	"TERM_PROGRAM",
	"NO_COLOR",
	"FORCE_COLOR",
	"COLORFGBG",
	"CI",
	"HOME",
	"XDG_CONFIG_HOME",
];

// Alternate screen, cursor home and hidden; the terminal's own echo off (raw mode) so a key typed meanwhile is not
// written over the frame.
const ENTER = "\x1b[?1049h\x1b[H\x1b[?25l";
const LEAVE = "\x1b[?25h\x1b[?1049l";

/** The launch a frame belongs to, as text: the file's name is its hash, and the file holds it to compare. */
export function frameKey(columns: number, rows: number, argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv) {
	return JSON.stringify([columns, rows, argv, cwd, FRAME_ENV.map((name) => env[name] ?? null)]);
}

export function frameFile(dir: string, hash: string, key: string): string {
	return join(dir, `${CACHE_PREFIX}${hash}-frame-${fnv1a(key)}.txt`);
}

const NONE: FirstPaint = { onScreen: () => undefined, take() {}, save() {} };

/**
 * Paints the kept first frame of this launch, if there is one, and returns what the app needs of it. `folder` is the
 * cache folder's state (cacheFolder): no frame is read from a folder that is not the user's own, none is written there.
 */
export function firstPaint(
	dir: string,
	folder: "ok" | "missing" | "refused",
	check: CacheCheck,
	argv: readonly string[],
	env: NodeJS.ProcessEnv,
): FirstPaint {
	const { stdin, stdout } = process;
	if (folder === "refused" || !stdout.columns || !stdout.rows) return NONE;
	const { columns, rows } = stdout;
	const key = frameKey(columns, rows, argv, process.cwd(), env);
	const file = frameFile(dir, check.hash, key);
	const resized = () => stdout.columns !== columns || stdout.rows !== rows;
	// A frame drawn at another size than the key's (a resize meanwhile) is not this launch's to keep.
	const save = (frame: string) => {
		if (!resized()) writeCache(file, check, Buffer.from(`${key}\n${frame}`, "utf8"));
	};
	const unpainted: FirstPaint = { onScreen: () => undefined, take() {}, save };
	const kept = folder === "ok" ? readCache(file, check)?.data.toString("utf8") : undefined;
	const frame = kept?.startsWith(`${key}\n`) ? kept.slice(key.length + 1) : undefined;
	if (frame === undefined) return unpainted;
	try {
		stdin.setRawMode(true);
		writeSync(1, ENTER + frame);
	} catch {
		return unpainted;
	}
	const errWrite = process.stderr.write;
	/** "painted": the start script's to give back; "taken": the app's; "gone": given back (the frame is no more). */
	let state: "painted" | "taken" | "gone" = "painted";
	const stand = (to: "taken" | "gone") => {
		if (state !== "painted") return;
		state = to;
		process.off("exit", giveBack);
		process.stderr.write = errWrite;
	};
	const giveBack = () => {
		if (state !== "painted") return;
		stand("gone");
		try {
			writeSync(1, LEAVE);
			stdin.setRawMode(false);
		} catch {
			// A terminal gone meanwhile: nothing to give back.
		}
	};
	process.on("exit", giveBack);
	process.stderr.write = function (this: NodeJS.WriteStream, ...args: unknown[]) {
		// An empty write shows nothing (execFileSync passes on a child's empty stderr so).
		if ((args[0] as { length?: number } | undefined)?.length !== 0) giveBack();
		return (errWrite as (...a: unknown[]) => boolean).apply(this, args);
	} as typeof errWrite;
	return {
		// A message on stderr before the app took the terminal (a warning of Node's as the bundle loads) gave the screen
		// back; so does a resize since the paint, here. The app then enters the screen and draws its frame whole, as when
		// nothing was painted.
		onScreen: () => {
			if (state === "painted" && resized()) giveBack();
			return state === "gone" ? undefined : frame;
		},
		take: () => stand("taken"),
		save: (next) => {
			if (next !== frame) save(next);
		},
	};
}
