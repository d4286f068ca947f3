import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { ConfigError } from "./errors.js";

/** Clock and process probe of a lock; tests inject them. */
export type LockOptions = {
	/** How long to wait for another process's lock before giving up (ms). */
	waitMs?: number;
	/** A lock older than this is taken to be left behind, whoever holds it (ms). */
	staleMs?: number;
	now?: () => number;
	/** Whether process `pid` is running on this machine. */
	alive?: (pid: number) => boolean;
};

const WAIT_MS = 5000;
const STALE_MS = 30_000;

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		// EPERM: it runs, as another user.
		return (error as NodeJS.ErrnoException).code === "EPERM";
	}
}

const pause = new Int32Array(new SharedArrayBuffer(4));
/** Blocks this thread for `ms` (the commands that lock are synchronous and short). */
function sleep(ms: number): void {
	Atomics.wait(pause, 0, 0, ms);
}

/** The lock's text, `pid time`, or undefined when it is gone. */
function readLock(lock: string): string | undefined {
	try {
		return readFileSync(lock, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
		throw error;
	}
}

/** Whether a lock with this text was left behind: its process is gone, or it is older than `staleMs`. */
function isStale(text: string, options: Required<Omit<LockOptions, "waitMs">>): boolean {
	const [pid, since] = text.split(" ").map(Number);
	if (pid === undefined || since === undefined || !Number.isInteger(pid) || !Number.isFinite(since)) return true;
	return !options.alive(pid) || options.now() - since > options.staleMs;
}

/**
 * Takes a stale lock away, only if it is still the one judged stale: it is renamed aside (one process wins the
 * rename) and put back when another process had meanwhile replaced it with a live one.
 */
function breakLock(lock: string, stale: string): void {
	const aside = `${lock}.${process.pid}.stale`;
	try {
		renameSync(lock, aside);
	} catch {
		return; // another process took it first
	}
	if (readLock(aside) !== stale) {
		try {
			linkSync(aside, lock);
		} catch {
			// A newer lock is in place already: the one set aside is dropped like a stale one.
		}
	}
	unlinkSync(aside);
}

/** Creates the lock holding `text` in one step (a temp file hard-linked to its name): never seen empty. */
function tryLock(lock: string, text: string): boolean {
	const temp = `${lock}.${process.pid}.new`;
	writeFileSync(temp, text, { mode: 0o600 });
	try {
		linkSync(temp, lock);
		return true;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
		throw error;
	} finally {
		unlinkSync(temp);
	}
}

/**
 * Runs `fn` while holding `file.lock` (holding `pid time`, made in one step), so read-change-write cycles of
 * several gar processes on one file never interleave. A lock whose process is gone, or older than `staleMs`, is
 * broken; after `waitMs` of waiting for a live one, throws a ConfigError saying which process holds it.
 */
export function withFileLock<T>(file: string, fn: () => T, options: LockOptions = {}): T {
	const lock = `${file}.lock`;
	const probe = { now: options.now ?? Date.now, alive: options.alive ?? isAlive, staleMs: options.staleMs ?? STALE_MS };
	const deadline = probe.now() + (options.waitMs ?? WAIT_MS);
	mkdirSync(dirname(file), { recursive: true });
	for (let delay = 2; ; delay = Math.min(delay * 2, 50)) {
		const mine = `${process.pid} ${probe.now()}`;
		if (tryLock(lock, mine)) {
			try {
				return fn();
			} finally {
				// Unless it was broken as stale meanwhile and is someone else's now.
				if (readLock(lock) === mine) unlinkSync(lock);
			}
		}
		const held = readLock(lock);
		if (held === undefined) continue;
		if (isStale(held, probe)) {
			breakLock(lock, held);
			continue;
		}
		if (probe.now() >= deadline) {
			const pid = held.split(" ")[0];
			throw new ConfigError(
				`${file} is locked by process ${pid}, another gar changing it; try again, or delete ${lock} if no gar is running`,
			);
		}
		sleep(delay);
	}
}
