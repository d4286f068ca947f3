import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";

/** How often a group whose leader has exited is checked for members left (background children). */
const SWEEP_MS = 1000;

const live = new Set<number>();
let sweeper: NodeJS.Timeout | undefined;
let hooked = false;

/** The shell commands run with (`shell -c command`): bash when it is there, else sh. */
export function defaultShell(): string {
	return existsSync("/bin/bash") ? "/bin/bash" : "sh";
}

/** Sends `signal` to the whole process group of `pid`; false when the group is gone. */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
	try {
		process.kill(-pid, signal);
		return true;
	} catch {
		return false;
	}
}

/** Whether the process group `pid` still has members. */
function alive(pid: number): boolean {
	return signalGroup(pid, 0);
}

/** SIGKILLs every live group: runs on `exit`, so it must be synchronous. */
export function killLiveGroups(): void {
	for (const pid of live) {
		try {
			process.kill(-pid, "SIGKILL");
		} catch {
			// Already gone.
		}
	}
	live.clear();
}

/** Forgets groups that have no members left (a pid number is free for reuse only once its group is empty). */
function sweep(): void {
	for (const pid of live) if (!alive(pid)) live.delete(pid);
	if (live.size === 0 && sweeper) {
		clearInterval(sweeper);
		sweeper = undefined;
	}
}

/**
 * Registers the process group led by `child` (spawned with `detached: true`): when gar exits, however it exits,
 * every group still alive — the command itself or children it left behind — is killed with SIGKILL. Returns `child`.
 */
export function trackGroup<C extends ChildProcess>(child: C): C {
	const pid = child.pid;
	if (pid === undefined) return child;
	live.add(pid);
	if (!hooked) {
		hooked = true;
		process.on("exit", killLiveGroups);
	}
	child.once("exit", () => {
		if (!alive(pid)) live.delete(pid);
		else sweeper ??= setInterval(sweep, SWEEP_MS).unref();
	});
	return child;
}
