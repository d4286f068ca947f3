import { resolve } from "node:path";
import { toolCallsOf } from "./context.js";
import { isMetadata, type NodeEntry, type SessionEntry, SessionError } from "./format.js";
import { loadSession } from "./load.js";
import { resolveEntry } from "./resolve-entry.js";
import type { Session } from "./session.js";
import { type Clock, SessionWriter } from "./writer.js";

/** `dir` is the sessions base folder; `cwd` defaults to the source session's. */
export type ForkOptions = { dir: string; cwd?: string; now?: Clock };

/**
 * Whether a record belongs to the copied path: a request of one of its replies, a tool start of one of its calls,
 * a run of one of its run ids, a system prompt one of those requests names, or a record of a newer gar hung on
 * one of its entries. Labels, names and leaf moves are not copied (labels are re-emitted for the copied entries).
 */
function recordFilter(source: Session, path: readonly NodeEntry[]): (entry: SessionEntry) => boolean {
	const ids = new Set(path.map((node) => node.id));
	const calls = new Set<string>();
	const runs = new Set<string>();
	for (const node of path) {
		if ("runId" in node && typeof node.runId === "string") runs.add(node.runId);
		if (node.type === "assistant") for (const call of toolCallsOf(node)) calls.add(call.id);
	}
	const prompts = new Set<string>();
	for (const entry of source.entries) {
		if (entry.type === "request" && entry.parentId !== null && ids.has(entry.parentId)) prompts.add(entry.promptHash);
	}
	return (entry) => {
		switch (entry.type) {
			case "request":
				return entry.parentId !== null && ids.has(entry.parentId);
			case "tool_start":
				return calls.has(entry.callId);
			case "run":
				return runs.has(entry.runId);
			case "system_prompt":
				return prompts.has(entry.hash);
			case "unknown":
				return entry.parentId !== null && ids.has(entry.parentId);
			default:
				return false;
		}
	};
}

/**
 * Copies the path from the root to `atEntry` (an id or id prefix; default: the current leaf) into a new session
 * whose header names its parent (`{session, entry, path}`), with the path's records (system prompts, requests,
 * tool starts, runs), so the fork replays and shows its limits and timings as the source does. Entries keep
 * their ids, times and file order; a record whose parent is not copied hangs on the copy's leaf at its place.
 * Labels on copied entries are re-emitted after them. The source file is only read. Returns the new file's path.
 */
export function forkSession(file: string, atEntry: string | undefined, options: ForkOptions): string {
	const source = loadSession(file);
	const at = atEntry === undefined ? source.leafId : resolveEntry(source, atEntry);
	if (at === null) throw new SessionError(`nothing to fork: ${file} has no conversation yet`, "invalid");
	const path = source.pathTo(at);
	const onPath = new Set(path.map((node) => node.id));
	const isRecord = recordFilter(source, path);
	const writer = SessionWriter.create({
		dir: options.dir,
		cwd: options.cwd ?? source.header.cwd,
		parent: { session: source.header.id, entry: at, path: resolve(file) },
		...(options.now ? { now: options.now } : {}),
	});
	try {
		for (const entry of source.entries) {
			if (onPath.has(entry.id)) writer.append({ ...entry });
			else if (isMetadata(entry) && isRecord(entry)) {
				const parentId = entry.parentId !== null && onPath.has(entry.parentId) ? entry.parentId : writer.leafId;
				writer.append({ ...entry, parentId });
			}
		}
		// The copy's leaf is its last conversation entry; a fork at an unknown entry says so explicitly.
		if (writer.leafId !== at) writer.moveTo(at);
		for (const entry of path) {
			const label = source.labels.get(entry.id);
			if (label !== undefined) writer.label(entry.id, label);
		}
	} finally {
		writer.close();
	}
	return writer.file;
}
