import { closeSync, constants, fstatSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addTotals, NO_SUBAGENTS, type SubagentTotals } from "../llm/spend.js";
import type { Usage } from "../llm/types.js";

export { addTotals, NO_SUBAGENTS, type SubagentTotals } from "../llm/spend.js";

/**
 * Sub-agents roll up: a bash command that runs gar (directly or through a script, in any mode) gets this variable,
 * naming a private file (0600, in a 0700 folder made for that command). A gar that sees it appends one JSON line when
 * it exits: what it spent. The parent reads the lines when the command ends and keeps them in the result's details,
 * never in what the model reads.
 */
export const SUBAGENT_ENV = "GAR_SUBAGENT_REPORT";

/** The line a child gar appends when it exits: its session, model, turns, what it spent itself, and its own children. */
export type SubagentReport = {
	sessionId: string | null;
	sessionFile: string | null;
	provider: string;
	model: string;
	turns: number;
	usage: Usage;
	costUsd: number | null;
	durationMs: number;
	ok: boolean;
	/** The roll-up of the child's own sub-agents (absent: none). */
	subagents?: SubagentTotals;
};

/**
 * The sub-agent runs of one command, as their children reported them (never checked against a bill: `reportedBy`
 * says so), their totals with the nested runs, and the lines that were ignored and why.
 */
export type SubagentRuns = { reportedBy: "child"; runs: SubagentReport[]; totals: SubagentTotals; ignored?: string[] };

/** A line longer than this is not a report. */
export const MAX_REPORT_LINE = 16 * 1024;
/** Reports read per command; more lines are ignored (with a notice). */
export const MAX_REPORTS = 64;
const MAX_READ = MAX_REPORTS * (MAX_REPORT_LINE + 1);
/** No honest run reports more: a larger figure is a lie or a bug, and is refused. */
const MAX_TOKENS = 1e12;
const MAX_COST = 1e7;
const MAX_TEXT = 4096;

/** What one report adds to the totals: its own run and its children's. */
export function reportTotals(report: SubagentReport): SubagentTotals {
	const own: SubagentTotals = { runs: 1, usage: report.usage, costUsd: report.costUsd };
	return report.subagents ? addTotals(own, report.subagents) : own;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
	typeof value === "object" && value !== null && !Array.isArray(value);

function count(value: unknown, max: number): number | undefined {
	return typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= max ? value : undefined;
}

function text(value: unknown): string | null | undefined {
	if (value === null) return null;
	return typeof value === "string" && value.length <= MAX_TEXT ? value : undefined;
}

function usageOf(value: unknown): Usage | undefined {
	if (!isObject(value)) return undefined;
	const [input, output, cacheRead, cacheWrite] = ["input", "output", "cacheRead", "cacheWrite"].map((k) =>
		count(value[k], MAX_TOKENS),
	);
	if (input === undefined || output === undefined || cacheRead === undefined || cacheWrite === undefined)
		return undefined;
	return { input, output, cacheRead, cacheWrite, ...(value.estimated === true ? { estimated: true } : {}) };
}

function costOf(value: unknown): number | null | undefined {
	return value === null ? null : count(value, MAX_COST);
}

function totalsOf(value: unknown): SubagentTotals | undefined {
	if (!isObject(value)) return undefined;
	const runs = count(value.runs, MAX_REPORTS ** 3);
	const usage = usageOf(value.usage);
	const costUsd = costOf(value.costUsd);
	if (runs === undefined || !Number.isInteger(runs) || !usage || costUsd === undefined) return undefined;
	return { runs, usage, costUsd };
}

/** A report line checked field by field (unknown fields dropped); a string says what is wrong with it. */
export function parseReport(line: string): SubagentReport | string {
	let value: unknown;
	try {
		value = JSON.parse(line);
	} catch {
		return "not JSON";
	}
	if (!isObject(value)) return "not a JSON object";
	const sessionId = text(value.sessionId);
	const sessionFile = text(value.sessionFile);
	const provider = text(value.provider);
	const model = text(value.model);
	const turns = count(value.turns, 1e6);
	const usage = usageOf(value.usage);
	const costUsd = costOf(value.costUsd);
	const durationMs = count(value.durationMs, 1e10);
	const bad = [
		sessionId === undefined ? "sessionId" : "",
		sessionFile === undefined ? "sessionFile" : "",
		typeof provider !== "string" ? "provider" : "",
		typeof model !== "string" ? "model" : "",
		turns === undefined ? "turns" : "",
		usage === undefined ? "usage" : "",
		costUsd === undefined ? "costUsd" : "",
		durationMs === undefined ? "durationMs" : "",
		typeof value.ok !== "boolean" ? "ok" : "",
	].filter(Boolean);
	if (bad.length > 0) return `bad ${bad.join(", ")}`;
	const nested = value.subagents === undefined ? undefined : totalsOf(value.subagents);
	if (value.subagents !== undefined && !nested) return "bad subagents";
	return {
		sessionId: sessionId ?? null,
		sessionFile: sessionFile ?? null,
		provider: provider as string,
		model: model as string,
		turns: turns as number,
		usage: usage as Usage,
		costUsd: costUsd as number | null,
		durationMs: durationMs as number,
		ok: value.ok as boolean,
		...(nested && nested.runs > 0 ? { subagents: nested } : {}),
	};
}

/** The runs in a report file's text: at most MAX_REPORTS lines of at most MAX_REPORT_LINE; the rest is named. */
export function parseReports(content: string, cut: boolean): SubagentRuns | undefined {
	const lines = content.split("\n");
	// A file cut at the read limit ends in part of a line: not a report.
	const last = lines.pop() ?? "";
	if (last !== "" && !cut) lines.push(last);
	const runs: SubagentReport[] = [];
	const ignored: string[] = [];
	let extra = 0;
	for (const [i, line] of lines.entries()) {
		if (line.trim() === "") continue;
		if (runs.length >= MAX_REPORTS) {
			extra++;
			continue;
		}
		if (line.length > MAX_REPORT_LINE) {
			ignored.push(`line ${i + 1}: longer than ${MAX_REPORT_LINE} characters`);
			continue;
		}
		const report = parseReport(line);
		if (typeof report === "string") ignored.push(`line ${i + 1}: ${report}`);
		else runs.push(report);
	}
	if (extra > 0) ignored.push(`more than ${MAX_REPORTS} reports: the rest were not read`);
	if (cut) ignored.push(`the file grew past ${MAX_READ} bytes: the rest was not read`);
	if (runs.length === 0 && ignored.length === 0) return undefined;
	const totals = runs.map(reportTotals).reduce(addTotals, NO_SUBAGENTS);
	return { reportedBy: "child", runs, totals, ...(ignored.length > 0 ? { ignored } : {}) };
}

/** One command's report file: the variable to give the command, and what its children reported once it ended. */
export type ReportInbox = { env: Record<string, string>; collect(): SubagentRuns | undefined };

/**
 * A private file for one command's children to report into: a new 0700 folder with an empty 0600 file. `collect`
 * reads at most what MAX_REPORTS lines can take (never more, whatever a child wrote) and removes both. Null when it
 * cannot be made: then the command gets no variable (and none a parent passed down).
 */
export function openInbox(dir = tmpdir()): ReportInbox | null {
	let folder: string;
	try {
		folder = mkdtempSync(join(dir, "gar-subagents-"));
		const file = join(folder, "runs.jsonl");
		closeSync(openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600));
		return {
			env: { [SUBAGENT_ENV]: file },
			collect: () => {
				try {
					const { text, cut } = readBounded(file, MAX_READ);
					return parseReports(text, cut);
				} catch {
					return undefined;
				} finally {
					rmSync(folder, { recursive: true, force: true });
				}
			},
		};
	} catch {
		return null;
	}
}

/** At most `max` bytes of a file, and whether there was more. */
function readBounded(file: string, max: number): { text: string; cut: boolean } {
	const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
	try {
		const buffer = Buffer.alloc(max + 1);
		let read = 0;
		while (read < buffer.length) {
			const n = readSync(fd, buffer, read, buffer.length - read, null);
			if (n === 0) break;
			read += n;
		}
		const cut = read > max;
		return { text: buffer.subarray(0, Math.min(read, max)).toString("utf8"), cut };
	} finally {
		closeSync(fd);
	}
}

/**
 * The child's side: appends `report` as one line to the file `path` names, only when it is the private file a parent
 * made (a regular file of this user, readable by no one else, not a link). Never creates a file; false when it did
 * not write. One write of one line: lines of children writing at once stay whole.
 */
export function appendReport(path: string, report: SubagentReport): boolean {
	let fd: number;
	try {
		fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW);
	} catch {
		return false;
	}
	try {
		const stat = fstatSync(fd);
		const mine = typeof process.getuid !== "function" || stat.uid === process.getuid();
		if (!stat.isFile() || !mine || (stat.mode & 0o077) !== 0) return false;
		const line = `${JSON.stringify(report)}\n`;
		if (line.length > MAX_REPORT_LINE) return false;
		writeSync(fd, line);
		return true;
	} catch {
		return false;
	} finally {
		closeSync(fd);
	}
}
