import { ConfigError } from "../config/errors.js";
import { withFileLock } from "../config/file-lock.js";
import type { RewindEntry, Session, SessionWriter } from "../session/index.js";
import { applyFile, type RewindFs, removeLeftovers } from "./apply.js";
import { type FileAction, type FilePlan, planRoute } from "./plan.js";
import { fileOrigin, filePoint, interrupted, movesFiles, movesLeaf, type RewindMode, removedMode } from "./records.js";
import { type Route, routeOf } from "./route.js";

export type { RewindMode } from "./records.js";

/**
 * Where a rewind goes: the entry that becomes the leaf (`to`; null: before the first entry) and where the files go
 * (`filesTo`, default `to`), per `mode`. `undoes`: the rewind a /redo takes back.
 */
export type RewindTarget = { mode: RewindMode; to: string | null; filesTo?: string | null; undoes?: string };

/** One file a rewind wrote or removed (or found already right: "already"); counts are of lines, +/−. */
export type RestoredFile = { path: string; action: FileAction; insertions: number; deletions: number };
export type SkippedFile = { path: string; reason: string };

/**
 * What a rewind did (or, dry, would do). `ok`: everything asked was done (nothing skipped, nothing that cannot be
 * restored). Bash changes on the way are listed apart: they are never restored.
 */
export type RewindReport = {
	ok: boolean;
	dryRun: boolean;
	mode: RewindMode;
	/** The leaf before and after. */
	from: string | null;
	to: string | null;
	/** Where the files were and went (absent when they did not move). */
	filesFrom?: string | null;
	filesTo?: string | null;
	restored: RestoredFile[];
	skipped: SkippedFile[];
	notRestorable: SkippedFile[];
	bashChanged: { path: string; entry: string }[];
	/** Bash calls on the way whose scan did not see the whole tree, and why. */
	cuts: { entry: string; note: string }[];
};

/** A rewind worked out, nothing written yet: the route the files take and each file's plan. */
export type Prepared = {
	target: RewindTarget;
	from: string | null;
	filesFrom: string | null;
	route: Route | null;
	files: FilePlan[];
};

/** Works out a rewind against the disk now, writing nothing. Throws SessionError for an entry not in the tree. */
export function prepareRewind(session: Session, target: RewindTarget): Prepared {
	const from = session.leafId;
	if (!movesFiles(target.mode)) return { target, from, filesFrom: filePoint(session), route: null, files: [] };
	const filesTo = target.filesTo === undefined ? target.to : target.filesTo;
	const filesFrom = fileOrigin(session, filesTo);
	const route = routeOf(session, filesFrom, filesTo);
	const files = planRoute(route).map((plan) => {
		if (plan.action !== "created" || typeof plan.hash !== "string") return plan;
		const fileMode = removedMode(session, plan.path, plan.hash);
		return fileMode === undefined ? plan : { ...plan, fileMode };
	});
	return { target, from, filesFrom, route, files };
}

/** The report of a prepared rewind, with the files as they ended (the plans, when dry). */
export function reportOf(prepared: Prepared, files: readonly FilePlan[], dryRun: boolean): RewindReport {
	const { target, from, filesFrom, route } = prepared;
	const leafMoves = movesLeaf(target.mode);
	const restored = files.flatMap((f) =>
		f.action ? [{ path: f.path, action: f.action, insertions: f.insertions, deletions: f.deletions }] : [],
	);
	const skipped = files.flatMap((f) => (f.skipped ? [{ path: f.path, reason: f.skipped }] : []));
	const notRestorable = files.flatMap((f) => (f.notRestorable ? [{ path: f.path, reason: f.notRestorable }] : []));
	const seen = new Set<string>();
	const bashChanged = (route?.bash ?? []).flatMap(({ path, entry }) => {
		const key = `${entry}\0${path}`;
		if (seen.has(key)) return [];
		seen.add(key);
		return [{ path, entry }];
	});
	return {
		ok: skipped.length === 0 && notRestorable.length === 0,
		dryRun,
		mode: target.mode,
		from,
		to: leafMoves ? target.to : from,
		...(route ? { filesFrom, filesTo: route.to } : {}),
		restored,
		skipped,
		notRestorable,
		bashChanged,
		cuts: route?.cuts ?? [],
	};
}

/** Whether the prepared rewind would change anything: a file, or where the leaf is. */
function movesAnything(prepared: Prepared): boolean {
	const { target, from, route } = prepared;
	return (movesLeaf(target.mode) && target.to !== from) || (route !== null && route.from !== route.to);
}

export type RewindOptions = {
	dryRun?: boolean;
	/** The fs calls files are written with (tests inject a full disk). */
	fs?: RewindFs;
	/** Moves the leaf (the app rebuilds the conversation's context); default: a leaf record. */
	moveLeaf?: (to: string | null) => void;
};

/**
 * Rewinds the session of `writer` (its file must be locked by the caller: withRewindLock): works the rewind out,
 * writes a "started" record, restores the files one by one, writes the "done" record with the outcome, then moves
 * the leaf. Dry, it only works it out. Files are written atomically and every step is idempotent: a rewind killed
 * half way, run again, finishes the job.
 */
export function rewind(writer: SessionWriter, target: RewindTarget, options: RewindOptions = {}): RewindReport {
	const prepared = prepareRewind(writer.session, target);
	const resumed = interrupted(writer.session).length > 0;
	if (options.dryRun || !movesAnything(prepared)) return reportOf(prepared, prepared.files, options.dryRun ?? false);
	const { from, filesFrom, route } = prepared;
	const fields = {
		type: "rewind" as const,
		mode: target.mode,
		from,
		to: movesLeaf(target.mode) ? target.to : from,
		...(route ? { filesFrom, filesTo: route.to } : {}),
		...(target.undoes === undefined ? {} : { undoes: target.undoes }),
	};
	const writing = prepared.files.filter((f) => f.action !== undefined && f.action !== "already");
	if (writing.length > 0) {
		const removing = writing.flatMap((f) =>
			f.bytes === null && f.disk.kind === "file" ? [{ path: f.path, hash: f.disk.hash, fileMode: f.disk.mode }] : [],
		);
		writer.appendRecord<RewindEntry>({ ...fields, status: "started", ...(removing.length > 0 ? { removing } : {}) });
	}
	// A rewind killed half way may have left the temp file it was writing beside one of these.
	if (resumed) removeLeftovers(prepared.files.map((f) => f.path));
	const files = prepared.files.map((plan) => applyFile(plan, options.fs));
	const report = reportOf(prepared, files, false);
	writer.appendRecord<RewindEntry>({ ...fields, status: "done", ...recordedOutcome(report, files) });
	if (movesLeaf(target.mode) && target.to !== from) (options.moveLeaf ?? ((to) => writer.moveTo(to)))(target.to);
	return report;
}

/** The outcome as the "done" record keeps it: each file with its bytes and mode before (what a redo needs). */
function recordedOutcome(report: RewindReport, files: readonly FilePlan[]) {
	const restored = files.flatMap((f) => {
		if (!f.action) return [];
		const before = f.disk.kind === "file" ? { hash: f.disk.hash, fileMode: f.disk.mode } : { hash: null };
		return [{ path: f.path, action: f.action, insertions: f.insertions, deletions: f.deletions, ...before }];
	});
	const { skipped, notRestorable, bashChanged } = report;
	return {
		...(restored.length > 0 ? { restored } : {}),
		...(skipped.length > 0 ? { skipped } : {}),
		...(notRestorable.length > 0 ? { notRestorable } : {}),
		...(bashChanged.length > 0 ? { bashChanged } : {}),
	};
}

/** How long a rewind waits for another gar's rewind of the same session before it gives up. */
const LOCK_WAIT_MS = 10_000;

/**
 * Runs `fn` holding the session file's lock (`FILE.lock`), so two gar processes never rewind one session at once:
 * the second waits (up to `waitMs`, 10 s) and then refuses with RewindBusyError, saying which process holds it.
 */
export function withRewindLock<T>(file: string, fn: () => T, waitMs = LOCK_WAIT_MS): T {
	try {
		// A rewind of large files may take a while: only a dead holder's lock is broken, not a slow one's.
		return withFileLock(file, fn, { waitMs, staleMs: 60 * 60_000 });
	} catch (error) {
		if (!(error instanceof ConfigError) || !error.message.includes("is locked by process")) throw error;
		const pid = /process (\d+)/.exec(error.message)?.[1] ?? "?";
		throw new RewindBusyError(
			`another gar (process ${pid}) is rewinding this session: try again when it is done (or delete ${file}.lock if no gar is running)`,
		);
	}
}

/** Another process holds the session's rewind lock. */
export class RewindBusyError extends Error {
	override readonly name = "RewindBusyError";
}
