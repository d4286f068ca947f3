import { readdirSync, rmdirSync, statSync, unlinkSync } from "node:fs";
import { join } from "node:path";

export type ReapOptions = {
	/** Total size the saved outputs may keep; the oldest go first. */
	maxBytes: number;
	/** Outputs older than this (by modification time) go whatever the total. */
	maxAgeMs: number;
	/** The clock (Date.now). */
	now?: number;
};

export type ReapResult = { removedFiles: number; removedBytes: number; keptFiles: number; keptBytes: number };

const LOG = /^gar-bash-[0-9a-f]+\.log$/;

type Log = { path: string; size: number; mtimeMs: number };

/** The bash logs directly in `dir`; never throws. */
function logsIn(dir: string): Log[] {
	let names: string[];
	try {
		names = readdirSync(dir);
	} catch {
		return [];
	}
	const logs: Log[] = [];
	for (const name of names) {
		if (!LOG.test(name)) continue;
		try {
			const info = statSync(join(dir, name));
			if (info.isFile()) logs.push({ path: join(dir, name), size: info.size, mtimeMs: info.mtimeMs });
		} catch {}
	}
	return logs;
}

/**
 * Deletes saved bash outputs (`gar-bash-*.log`, in `dir` and its per-session folders) older than `maxAgeMs`,
 * then the oldest until the rest fit in `maxBytes`, then per-session folders left empty. Touches no other
 * file. Never throws (a file it cannot delete is counted as kept).
 */
export function reapOutputs(dir: string, options: ReapOptions): ReapResult {
	const now = options.now ?? Date.now();
	const folders: string[] = [];
	const logs = logsIn(dir);
	try {
		for (const entry of readdirSync(dir, { withFileTypes: true })) {
			if (!entry.isDirectory()) continue;
			folders.push(join(dir, entry.name));
			logs.push(...logsIn(join(dir, entry.name)));
		}
	} catch {}
	logs.sort((a, b) => a.mtimeMs - b.mtimeMs);
	let total = logs.reduce((sum, log) => sum + log.size, 0);
	const result: ReapResult = { removedFiles: 0, removedBytes: 0, keptFiles: 0, keptBytes: 0 };
	for (const log of logs) {
		const expired = now - log.mtimeMs > options.maxAgeMs;
		if (expired || total > options.maxBytes) {
			try {
				unlinkSync(log.path);
				total -= log.size;
				result.removedFiles++;
				result.removedBytes += log.size;
				continue;
			} catch {}
		}
		result.keptFiles++;
		result.keptBytes += log.size;
	}
	for (const folder of folders) {
		try {
			if (readdirSync(folder).length === 0) rmdirSync(folder);
		} catch {}
	}
	return result;
}
