// Process-tree figures from /proc for the TUI bench: the app is the pane's process and all its descendants.
import { readdirSync, readFileSync } from "node:fs";

const TICKS_PER_S = 100; // USER_HZ: 100 on every Linux this runs on (`getconf CLK_TCK`)
const PAGE_BYTES = 4096;

type Stat = { pid: number; ppid: number; ticks: number; rssPages: number; start: number };

/** Fields of /proc/PID/stat after the command name (which may contain spaces and parentheses). */
function readStat(pid: number): Stat | null {
	let text: string;
	try {
		text = readFileSync(`/proc/${pid}/stat`, "latin1");
	} catch {
		return null; // gone between the listing and the read
	}
	const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
	// f[0] is field 3 (state): ppid is field 4, utime..cstime 14..17, starttime 22, rss 24.
	const n = (field: number) => Number(f[field - 3]);
	// cutime/cstime keep counting children that exited inside the tree.
	return { pid, ppid: n(4), ticks: n(14) + n(15) + n(16) + n(17), rssPages: n(24), start: n(22) };
}

/** The live processes of the tree rooted at `root` (root included), found by scanning /proc. */
export function processTree(root: number): Stat[] {
	const all: Stat[] = [];
	for (const name of readdirSync("/proc")) {
		const pid = Number(name);
		if (!Number.isInteger(pid)) continue;
		const stat = readStat(pid);
		if (stat) all.push(stat);
	}
	const inTree = new Set([root]);
	// Parents usually have lower pids, but pids wrap: repeat until nothing joins.
	for (let grew = true; grew; ) {
		grew = false;
		for (const s of all) {
			if (!inTree.has(s.pid) && inTree.has(s.ppid)) {
				inTree.add(s.pid);
				grew = true;
			}
		}
	}
	return all.filter((s) => inTree.has(s.pid));
}

/** CPU seconds (user + system, with reaped children) the tree has used so far. */
export function treeCpuSeconds(root: number): number {
	return processTree(root).reduce((sum, s) => sum + s.ticks, 0) / TICKS_PER_S;
}

/** Resident memory of the tree in MiB (shared pages counted once per process). */
export function treeRssMib(root: number): number {
	return (processTree(root).reduce((sum, s) => sum + s.rssPages, 0) * PAGE_BYTES) / 2 ** 20;
}

/** A snapshot of the tree's members, to kill later only if the same processes (same start time) still run. */
export function treeMembers(root: number): Array<{ pid: number; start: number }> {
	return processTree(root).map(({ pid, start }) => ({ pid, start }));
}

/** Sends SIGKILL to the members still alive with the start time recorded (a reused pid is never hit). */
export function killMembers(members: Array<{ pid: number; start: number }>): void {
	for (const m of members) {
		if (readStat(m.pid)?.start !== m.start) continue;
		try {
			process.kill(m.pid, "SIGKILL");
		} catch {
			// already gone
		}
	}
}
