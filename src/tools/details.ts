import type { MatchLevel } from "./edit-match.js";
import type { FileChange } from "./file-change.js";
import type { SubagentRuns } from "./subagents.js";

/**
 * The structured side of tool results, one variant per tool, discriminated by `kind`. The UI, rewind and export
 * switch on `kind`; nothing casts `unknown` by tool name. Only a result's `content` goes to the model.
 */

/** What a read showed: lines `startLine`..`endLine` (0 and 0 for an empty file) of `totalLines` (null: unknown). */
export type ReadDetails = {
	kind: "read";
	path: string;
	startLine: number;
	endLine: number;
	totalLines: number | null;
	/** True when the tool's line or byte limit cut the output (not when the caller's `limit` did). */
	truncated: boolean;
};

/** Write details: the undo record plus what happened. Undo of "created" is deleting the file. */
export type WriteDetails = FileChange & {
	kind: "write";
	action: "created" | "overwritten";
	bytes: number;
	lines: number;
	added: number;
	removed: number;
};

/** Edit details: the undo record, the first changed line (1-based) and how each edit's oldText was found. */
export type EditDetails = FileChange & {
	kind: "edit";
	firstChangedLine: number;
	matchLevels: MatchLevel[];
	added: number;
	removed: number;
};

/** What a command did. `exitCode` is null when a signal ended it; `fullOutputPath` is set when output was cut. */
export type BashDetails = {
	kind: "bash";
	command: string;
	cwd: string;
	exitCode: number | null;
	signal: string | null;
	durationMs: number;
	timedOut: boolean;
	aborted: boolean;
	truncated: boolean;
	totalLines: number;
	totalBytes: number;
	fullOutputPath?: string;
	/** What the gar runs this command started reported (as their children say; never sent to the model). */
	subagents?: SubagentRuns;
	/** The files the command created, changed or deleted under `cwd` (tree-scan.ts); absent when none or not scanned. */
	files?: BashFileChanges;
};

/** How a bash command changed one file, as the stat scan around it saw it. */
export type BashFileChange = { path: string; how: "created" | "changed" | "deleted" };

/** What a bash command changed under its cwd (stat only, bounded: README "Rewind"). Never sent to the model. */
export type BashFileChanges = {
	/** Paths relative to the command's cwd, sorted; at most MAX_LISTED_CHANGES of them (`total` counts them all). */
	paths: BashFileChange[];
	total: number;
	/** Set when the scan did not see the whole tree (its caps): what stopped it, in words. */
	cut?: string;
};

/** Details of an error result made by `runTool` itself (bad arguments, a throw, an abort). */
export type ToolErrorDetails = {
	kind: "error";
	error: "invalid_arguments" | "failed" | "aborted";
	message: string;
};

export type ToolDetails = ReadDetails | WriteDetails | EditDetails | BashDetails | ToolErrorDetails;

/** Partial details while a tool runs (throttled by the tool): today only bash reports progress. */
export type ToolProgress = {
	kind: "bash";
	command: string;
	/** The last lines of output so far, cleaned (bounded: about 100 lines / 8 KB). */
	output: string;
	totalLines: number;
	totalBytes: number;
	elapsedMs: number;
};

/**
 * What a mutating call will do, computed before anything is touched (a dry run), for the approval question.
 * Diffs are unified diffs with file headers; `diffTruncated` says a very large diff was cut (bounded size).
 * "invalid": the call cannot run as given (bad arguments, an edit whose oldText does not match); `message` says why.
 */
export type ToolPreview =
	| {
			kind: "write";
			path: string;
			action: "create" | "overwrite";
			lines: number;
			bytes: number;
			added: number;
			removed: number;
			diff: string;
			diffTruncated: boolean;
	  }
	| {
			kind: "edit";
			path: string;
			firstChangedLine: number;
			added: number;
			removed: number;
			diff: string;
			diffTruncated: boolean;
	  }
	| { kind: "bash"; command: string; cwd: string; timeoutMs: number }
	/** A read a PreToolUse hook asked the person about (reads never ask otherwise). */
	| { kind: "read"; path: string; offset?: number; limit?: number }
	| { kind: "invalid"; message: string };
