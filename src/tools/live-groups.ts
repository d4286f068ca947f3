import type { ChildProcess } from "node:child_process";

/** How often a group whose leader has exited is checked for members left (background children). */
const SWEEP_MS = 1000;

const live = new Set<number>();
let sweeper: NodeJS.Timeout | undefined;
let hooked = false;

/** Whether the process group `pid` still has members. */
function alive(pid: number): boolean {
	try {
		process.kill(-pid, 0);
		return true;
	} catch {
		return false;
	}
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
