import * as nodeFs from "node:fs";
import { basename, dirname, join } from "node:path";
import { type AtomicFs, writeFileAtomic } from "../tools/atomic-write.js";
import { makeDirs } from "../tools/make-dirs.js";
import { type Disk, hashOf, readDisk } from "./disk.js";
import type { FilePlan } from "./plan.js";

/** The fs calls a rewind writes with (node:fs); tests inject a full disk through it. */
export type RewindFs = AtomicFs;

/** A system error's cause in words without the path Node repeats: "no space left on device (ENOSPC)". */
function causeOf(error: unknown): string {
	const text = error instanceof Error ? error.message : String(error);
	const code = (error as NodeJS.ErrnoException).code;
	const words = /^[A-Z]+: ([^,]+)/.exec(text)?.[1];
	return code && words ? `${words} (${code})` : text;
}

/** Whether the file is still what the plan saw (a person may have saved it since). */
function unchanged(before: Disk, now: Disk): boolean {
	return before.kind !== "other" && now.kind !== "other" && hashOf(before) === hashOf(now);
}

/**
 * Carries out one file's plan: an atomic write (a temp file renamed over it: a kill leaves the old bytes or the new,
 * never a mix), or an unlink. The file is read again first and left alone when it changed since the plan. Returns
 * the plan with what happened: a failure (a full disk, a read-only folder) is a skip with its cause, and the file
 * keeps its bytes.
 */
export function applyFile(plan: FilePlan, fs: RewindFs = nodeFs): FilePlan {
	if (plan.bytes === undefined || plan.action === undefined || plan.action === "already") return plan;
	const now = readDisk(plan.path);
	if (!unchanged(plan.disk, now)) {
		const { action: _a, bytes: _b, ...rest } = plan;
		return { ...rest, insertions: 0, deletions: 0, skipped: "changed while the rewind was prepared: left as it is" };
	}
	try {
		if (plan.bytes === null) fs.unlinkSync(plan.path);
		else {
			if (plan.disk.kind === "missing") makeDirs(dirname(plan.path));
			writeFileAtomic(plan.path, plan.bytes, fs, plan.fileMode ?? 0o666);
			// The mode it had when a rewind removed it, whatever the umask.
			if (plan.disk.kind === "missing" && plan.fileMode !== undefined) nodeFs.chmodSync(plan.path, plan.fileMode);
		}
		return plan;
	} catch (error) {
		const { action: _a, bytes: _b, ...rest } = plan;
		const verb = plan.bytes === null ? "remove" : "write";
		const why = `could not ${verb} it: ${causeOf(error)}; it keeps its bytes`;
		return { ...rest, insertions: 0, deletions: 0, skipped: plan.skipped ? `${why}; ${plan.skipped}` : why };
	}
}

/**
 * Removes the temp files a killed rewind left beside these files (it was writing one when it was killed): one listing
 * per folder. Only after an interrupted rewind, under the session's lock. Best effort: a leftover is only clutter.
 */
export function removeLeftovers(paths: readonly string[]): void {
	const byFolder = new Map<string, Set<string>>();
	for (const path of paths) {
		const names = byFolder.get(dirname(path)) ?? new Set<string>();
		names.add(basename(path));
		byFolder.set(dirname(path), names);
	}
	for (const [folder, names] of byFolder) {
		let entries: string[];
		try {
			entries = nodeFs.readdirSync(folder);
		} catch {
			continue;
		}
		for (const entry of entries) {
			// writeFileAtomic's temp file for NAME (tools/atomic-write.ts).
			const name = entry.match(/^\.(.+)\.gar-[0-9a-f]{12}\.tmp$/)?.[1];
			if (name === undefined || !names.has(name)) continue;
			try {
				nodeFs.unlinkSync(join(folder, entry));
			} catch {
				// Gone already, or not ours to remove.
			}
		}
	}
}
