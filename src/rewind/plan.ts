import { sha256Hex } from "../text/digest.js";
import { planEditCall } from "../tools/edit-plan.js";
import { changeDiff, diffStat, forwardApply, previousBytes } from "../tools/file-change.js";
import { type Disk, hashOf, readDisk } from "./disk.js";
import type { BashTouch, Route, Step } from "./route.js";

/** What a rewind does to one file: write its old (or newer) bytes back, remove it, make it again, or nothing. */
export type FileAction = "restored" | "removed" | "created" | "already";

/**
 * One file's part of a rewind, worked out before anything is written. `bytes`: what it becomes (null: removed;
 * undefined: nothing to write). `skipped`: why a step on it was not done (a conflict, a failure); `notRestorable`: why a
 * step cannot be done at all. A file may be partly restored (some steps done) and skipped after.
 */
export type FilePlan = {
	path: string;
	/** What is there now (checked again right before writing). */
	disk: Disk;
	action?: FileAction;
	bytes?: Buffer | null;
	/** The hash it ends with (null: no file). */
	hash?: string | null;
	insertions: number;
	deletions: number;
	/** The mode to give it when it is made again (the mode it had when a rewind removed it). */
	fileMode?: number;
	skipped?: string;
	notRestorable?: string;
};

/** A step's place in its file's chain: the bytes it expects (null: no file) and the bytes it leaves. */
type Link = { step: Step; input: string | null; output: string | null };

const linkOf = (step: Step): Link =>
	step.dir === "undo"
		? { step, input: step.change.newHash, output: step.change.oldHash }
		: { step, input: step.change.oldHash, output: step.change.newHash };

/** The bytes the change leaves when made again on `before`, checked against its recorded hash. */
function redo(step: Step, before: Buffer | null): Buffer {
	const { change, args } = step;
	let made: Buffer | undefined;
	if (step.by === "write" && typeof args?.content === "string") made = Buffer.from(args.content, "utf8");
	else if (step.by === "edit" && before && Array.isArray(args?.edits)) {
		try {
			made = planEditCall(before, step.path, args.edits as { oldText: string; newText: string }[]).newBytes;
		} catch {
			// Made from the recorded diff below.
		}
	}
	if (made && sha256Hex(made) === change.newHash) return made;
	if (!change.diffTruncated && (before === null || change.undo === "patch")) {
		const text = forwardApply(before?.toString("utf8") ?? "", change.diff);
		const bytes = text === false ? null : Buffer.from(text, "utf8");
		if (bytes && sha256Hex(bytes) === change.newHash) return bytes;
	}
	throw new Error("its change cannot be made again: neither the call's arguments nor its recorded diff give its bytes");
}

/** The bytes one step leaves from `before` (null: no file). Throws why it cannot. */
function apply(link: Link, before: Buffer | null): Buffer | null {
	const { step } = link;
	if (step.dir === "redo") return redo(step, before);
	if (step.change.undo === "none") {
		throw new Error("the file it replaced was over 10 MB: gar kept only its hash, not its bytes");
	}
	if (before === null) throw new Error("it is too large to restore");
	return previousBytes(step.change, before);
}

/** Why the file on disk is none of the chain's states, in words; names bash calls on the way that touched it. */
function conflictReason(disk: Disk, expected: string | null, touches: readonly BashTouch[]): string {
	let why: string;
	if (disk.kind === "missing") why = "was deleted since gar's last change";
	else if (expected === null) why = "is there, where gar left no file";
	else why = "was changed since gar's last change";
	const bash = touches.map((t) => `bash at ${t.entry} ${t.how} it`);
	return `${why} (${bash.length > 0 ? bash.join("; ") : "by hand, a command or another session"}): left as it is`;
}

/** Lines added and removed going from `from` to `to` (0 and 0 when either is binary or too large to hold). */
function counts(from: Disk, to: Buffer | null): { insertions: number; deletions: number } {
	const old = from.kind === "file" ? from.bytes : null;
	if (from.kind === "file" && old === null) return { insertions: 0, deletions: 0 };
	if (old === null && to === null) return { insertions: 0, deletions: 0 };
	const { added, removed } = changeDiff("file", old, to ?? Buffer.alloc(0));
	return { insertions: added, deletions: removed };
}

/** The line counts of one step from its recorded diff (no diff to compute: the preview of many files stays fast). */
function stepCounts(step: Step): { insertions: number; deletions: number } | undefined {
	if (step.change.diffTruncated || step.change.undo === "none") return undefined;
	const { added, removed } = diffStat(step.change.diff);
	return step.dir === "redo" ? { insertions: added, deletions: removed } : { insertions: removed, deletions: added };
}

/**
 * One file's plan: where the bytes on disk are in its chain of states (the latest state they match; a rewind killed
 * half way is finished this way), then every step from there, each from the bytes the last one left. A file in none
 * of the states is a conflict and is not touched; a step that cannot be done stops the chain there (the steps before
 * it are kept).
 */
function planFile(path: string, steps: readonly Step[], touches: readonly BashTouch[], disk: Disk): FilePlan {
	const plan: FilePlan = { path, disk, insertions: 0, deletions: 0 };
	if (disk.kind === "other") return { ...plan, skipped: disk.why };
	const links = steps.map(linkOf);
	const states = [links[0]?.input ?? null, ...links.map((l) => l.output)];
	const now = hashOf(disk);
	const at = states.lastIndexOf(now ?? null);
	if (at === -1) return { ...plan, skipped: conflictReason(disk, states[0] ?? null, touches) };
	if (at === links.length) return { ...plan, action: "already", hash: now ?? null };
	if (disk.kind === "file" && (disk.mode & 0o222) === 0) {
		const mode = disk.mode.toString(8).padStart(4, "0");
		return { ...plan, skipped: `has no write permission (mode ${mode}): gar does not replace a read-only file` };
	}
	let bytes = disk.kind === "file" ? disk.bytes : null;
	let done = at;
	let stop: { skipped?: string; notRestorable?: string } = {};
	for (; done < links.length; done++) {
		const link = links[done] as Link;
		if (link.input !== states[done]) {
			stop = { skipped: `was changed between gar's changes, before ${link.step.entry} (by hand or a command)` };
			break;
		}
		try {
			bytes = apply(link, bytes);
		} catch (error) {
			stop = { notRestorable: `${error instanceof Error ? error.message : String(error)} (${link.step.entry})` };
			break;
		}
	}
	if (done === at) return { ...plan, ...stop };
	const action: FileAction = bytes === null ? "removed" : disk.kind === "missing" ? "created" : "restored";
	const lines = done - at === 1 ? stepCounts((links[at] as Link).step) : undefined;
	return {
		...plan,
		...stop,
		action,
		bytes,
		hash: bytes === null ? null : sha256Hex(bytes),
		...(lines ?? counts(disk, bytes)),
	};
}

/** The plan of a route: one per file its steps change, in the order each file is first changed on the way. */
export function planRoute(route: Route, read: (path: string) => Disk = readDisk): FilePlan[] {
	const byFile = new Map<string, Step[]>();
	for (const step of route.steps) {
		const steps = byFile.get(step.path);
		if (steps) steps.push(step);
		else byFile.set(step.path, [step]);
	}
	return [...byFile].map(([path, steps]) =>
		planFile(
			path,
			steps,
			route.bash.filter((t) => t.path === path),
			read(path),
		),
	);
}
