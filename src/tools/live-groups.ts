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

/** A running group's end by force: on its timeout or an abort, SIGTERM, then SIGKILL after a grace period. */
export type GroupDeadline = {
	timedOut(): boolean;
	aborted(): boolean;
	/** The process ended: clears the timers; a pending SIGKILL stays armed only while the group still has members. */
	release(): void;
};

/**
 * Stops the process group led by `pid` once `timeoutMs` passes or `signal` aborts: SIGTERM to the whole group, then
 * SIGKILL `graceMs` later (a command that ignores SIGTERM, or children it left). The bash tool and hooks run by it.
 */
export function groupDeadline(
	pid: number | undefined,
	o: { timeoutMs: number; graceMs: number; signal: AbortSignal },
): GroupDeadline {
	let timedOut = false;
	let aborted = false;
	let killTimer: NodeJS.Timeout | undefined;
	const kill = () => {
		if (killTimer || pid === undefined) return;
		signalGroup(pid, "SIGTERM");
		killTimer = setTimeout(() => signalGroup(pid, "SIGKILL"), o.graceMs);
	};
	const timer = setTimeout(() => {
		timedOut = true;
		kill();
	}, o.timeoutMs);
	const onAbort = () => {
		aborted = true;
		kill();
	};
	o.signal.addEventListener("abort", onAbort, { once: true });
	return {
		timedOut: () => timedOut,
		aborted: () => aborted,
		release() {
			clearTimeout(timer);
			o.signal.removeEventListener("abort", onAbort);
			if (killTimer && (pid === undefined || !alive(pid))) clearTimeout(killTimer);
		},
	};
}
