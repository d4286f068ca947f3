import type { ChildProcess } from "node:child_process";
import { statSync } from "node:fs";
import { join } from "node:path";
import type { Readable } from "node:stream";
import envPaths from "env-paths";
import { nodeChildProcess } from "../text/lazy-node.js";
import * as z from "../text/zod.js";
import { OutputCollector } from "./bash-output.js";
import type { BashDetails } from "./details.js";
import { defaultShell, groupDeadline, trackGroup } from "./live-groups.js";
import { openInbox, SUBAGENT_ENV } from "./subagents.js";
import type { Baseline, TreeScan } from "./tree-scan.js";
import { MAX_BYTES, MAX_LINES, type Tool, type ToolContext } from "./types.js";

export const bashSchema = z.object({
	command: z.string().check(z.minLength(1), z.describe("Shell command to run with bash -c in the working directory.")),
	timeout: z.optional(z.coerce.number().check(z.positive())).check(z.describe("Timeout in seconds (default 120).")),
});
export type BashParams = z.infer<typeof bashSchema>;

export type BashToolOptions = {
	cwd: string;
	/** Default timeout when the call gives none (120 s). */
	timeoutMs?: number;
	/** Between SIGTERM and SIGKILL to the process group (2 s). */
	killGraceMs?: number;
	maxLines?: number;
	maxBytes?: number;
	/** Defaults to /bin/bash when it exists, else sh. */
	shell?: string;
	/**
	 * Where full outputs over the limits are saved, created on first use (default: gar's cache folder,
	 * `bash-output/` under env-paths' cache). `reapOutputs` bounds what piles up there.
	 */
	outputDir?: string;
	/** What one call may save of its full output (MAX_SAVED_BYTES, 50 MB); saving stops there and says so. */
	maxSavedBytes?: number;
	env?: NodeJS.ProcessEnv;
	/** Minimum time between progress updates (100 ms). */
	updateIntervalMs?: number;
	/** How long to wait for the pipes to drain after the shell exits (100 ms). */
	drainMs?: number;
	/** Where each command's private report file for gar sub-agents is made (default: the system's temp folder). */
	reportDir?: string;
	/** The stat scan of the working tree around each command (what it changed goes in the details); none if absent. */
	scan?: TreeScan;
};

const MAX_TIMER_MS = 2 ** 31 - 1;
const UPDATE_TAIL = { maxLines: 100, maxBytes: 8 * 1024 };

/** Where bash outputs go when the caller names no folder: `bash-output/` in gar's cache folder. */
export function defaultOutputDir(): string {
	return join(envPaths("gar", { suffix: "" }).cache, "bash-output");
}

/** Resolves when the stream has ended, or is already gone. */
function ended(stream: Readable): Promise<void> {
	if (stream.readableEnded || stream.destroyed) return Promise.resolve();
	return new Promise((resolve) => {
		stream.once("end", resolve);
		stream.once("close", resolve);
	});
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Spawns the shell; throws a readable error when the working directory is missing. */
function start(shell: string, command: string, options: BashToolOptions, env: NodeJS.ProcessEnv): ChildProcess {
	try {
		if (!statSync(options.cwd).isDirectory()) throw new Error("not a directory");
	} catch {
		throw new Error(`The working directory ${options.cwd} does not exist or is not a directory.`);
	}
	// Tracked: whatever way gar exits, the group is killed (see live-groups.ts).
	return trackGroup(
		nodeChildProcess().spawn(shell, ["-c", command], {
			cwd: options.cwd,
			env,
			detached: true,
			stdio: ["ignore", "pipe", "pipe"],
		}),
	);
}

/**
 * Spawns the command with a report file of its own: a gar it runs reports what it spent there (tools/subagents.ts);
 * a variable a parent passed down is never handed on. `collect` reads the reports (once the command ended).
 */
function startReporting(shell: string, command: string, options: BashToolOptions) {
	const inbox = openInbox(options.reportDir);
	const { [SUBAGENT_ENV]: _inherited, ...env } = options.env ?? process.env;
	try {
		return { child: start(shell, command, options, { ...env, ...inbox?.env }), collect: () => inbox?.collect() };
	} catch (error) {
		inbox?.collect();
		throw error;
	}
}

/**
 * The bash tool. Runs the command in its own process group with stdin closed; resolves when the shell exits
 * (a background child holding the pipe does not block it); on timeout or abort, SIGTERM then SIGKILL to the
 * group. Never buffers more than about three times the byte limit, whatever the output size.
 */
export function createBashTool(options: BashToolOptions): Tool<BashParams, BashDetails> {
	const shell = options.shell ?? defaultShell();
	const limits = { maxLines: options.maxLines ?? MAX_LINES, maxBytes: options.maxBytes ?? MAX_BYTES };
	const defaultTimeoutMs = options.timeoutMs ?? 120_000;
	const graceMs = options.killGraceMs ?? 2000;
	const intervalMs = options.updateIntervalMs ?? 100;
	const drainMs = options.drainMs ?? 100;
	const timeoutOf = (params: BashParams) =>
		Math.min(params.timeout ? params.timeout * 1000 : defaultTimeoutMs, MAX_TIMER_MS);
	return {
		name: "bash",
		description: `Run a shell command (bash -c) in the working directory; stdout and stderr are merged, stdin is empty. Default timeout ${Math.round(defaultTimeoutMs / 1000)} s. Long output keeps its head and tail and saves the full text to a file. For servers or long jobs, run them in the background with output redirected to a file (\`cmd > log 2>&1 &\`).`,
		parameters: bashSchema,
		mutating: true,
		async execute(params, ctx) {
			const baseline = ctx.signal.aborted ? undefined : await scanBefore(options.scan);
			const startedAt = Date.now();
			const timeoutMs = timeoutOf(params);
			const output = new OutputCollector(limits, options.outputDir ?? defaultOutputDir(), options.maxSavedBytes);
			let timedOut = false;
			const abortedEarly = ctx.signal.aborted;
			let aborted = abortedEarly;
			let exit: { code: number | null; signal: NodeJS.Signals | null } = { code: null, signal: null };
			let subagents: BashDetails["subagents"];
			if (!aborted) {
				const { child, collect } = startReporting(shell, params.command, options);
				const run = supervise(child, output, ctx, {
					timeoutMs,
					graceMs,
					intervalMs,
					command: params.command,
					startedAt,
				});
				try {
					exit = await run.exited;
				} finally {
					run.stop();
					await Promise.race([
						Promise.all([ended(child.stdout as Readable), ended(child.stderr as Readable)]),
						sleep(drainMs),
					]);
					child.stdout?.destroy();
					child.stderr?.destroy();
					output.dispose();
					subagents = collect();
				}
				timedOut = run.timedOut();
				aborted = run.aborted();
			}
			const summary = output.finish();
			const files = baseline && options.scan ? await scanAfter(options.scan, baseline) : undefined;
			const details: BashDetails = {
				kind: "bash",
				command: params.command,
				cwd: options.cwd,
				exitCode: exit.code,
				signal: exit.signal,
				durationMs: Date.now() - startedAt,
				timedOut,
				aborted,
				truncated: summary.truncated,
				totalLines: summary.totalLines,
				totalBytes: summary.totalBytes,
				...(summary.fullOutputPath ? { fullOutputPath: summary.fullOutputPath } : {}),
				...(subagents ? { subagents } : {}),
				...(files ? { files } : {}),
			};
			const content = resultText(summary.text, { timedOut, abortedEarly, aborted, exit, timeoutMs });
			const isError = timedOut || aborted || exit.signal !== null || exit.code !== 0;
			return { content, details, isError };
		},
		async preview(params) {
			return { kind: "bash", command: params.command, cwd: options.cwd, timeoutMs: timeoutOf(params) };
		},
	};
}

/** What the model reads: the output, then how the command ended when it did not exit 0 by itself. */
function resultText(
	output: string,
	end: {
		timedOut: boolean;
		abortedEarly: boolean;
		aborted: boolean;
		exit: { code: number | null; signal: NodeJS.Signals | null };
		timeoutMs: number;
	},
): string {
	const { timedOut, abortedEarly, aborted, exit } = end;
	const content = output === "" ? "(no output)" : output;
	const seconds = Math.round(end.timeoutMs / 100) / 10;
	if (timedOut) {
		return `${content}\n\n[Timed out after ${seconds} s; the command's process group was killed. Pass a larger timeout (in seconds) if it needs longer, or run it in the background with output redirected to a file.]`;
	}
	if (abortedEarly) return "[Aborted by the user before the command started.]";
	if (aborted) return `${content}\n\n[Aborted by the user; the command's process group was killed.]`;
	if (exit.signal) return `${content}\n\n[Killed by signal ${exit.signal}]`;
	if (exit.code !== 0) return `${content}\n\n[Exit code ${exit.code}]`;
	return content;
}

/** The scan before a command; a scan that fails is no scan (the command runs all the same). */
async function scanBefore(scan: TreeScan | undefined): Promise<Baseline | undefined> {
	try {
		return await scan?.before();
	} catch {
		return undefined;
	}
}

async function scanAfter(scan: TreeScan, baseline: Baseline): Promise<BashDetails["files"]> {
	try {
		return await scan.after(baseline);
	} catch {
		return undefined;
	}
}

type SuperviseOptions = { timeoutMs: number; graceMs: number; intervalMs: number; command: string; startedAt: number };

/** Wires output, throttled updates, the timeout and abort to a running child. */
function supervise(child: ChildProcess, output: OutputCollector, ctx: ToolContext, o: SuperviseOptions) {
	let updateTimer: NodeJS.Timeout | undefined;
	let lastUpdate = 0;
	let stopped = false;
	const deadline = groupDeadline(child.pid, { timeoutMs: o.timeoutMs, graceMs: o.graceMs, signal: ctx.signal });
	const emit = () => {
		updateTimer = undefined;
		lastUpdate = Date.now();
		ctx.onUpdate?.({
			kind: "bash",
			command: o.command,
			output: output.recent(UPDATE_TAIL),
			totalLines: output.totalLines,
			totalBytes: output.totalBytes,
			elapsedMs: lastUpdate - o.startedAt,
		});
	};
	const onData = (stream: "stdout" | "stderr") => (chunk: Buffer) => {
		output.push(chunk, stream);
		if (!ctx.onUpdate || updateTimer || stopped) return;
		const wait = o.intervalMs - (Date.now() - lastUpdate);
		if (wait <= 0) emit();
		else updateTimer = setTimeout(emit, wait);
	};
	child.stdout?.on("data", onData("stdout"));
	child.stderr?.on("data", onData("stderr"));

	const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
		child.once("error", (error) => reject(new Error(`Could not run the command: ${error.message}`)));
		child.once("exit", (code, signal) => resolve({ code, signal }));
	});
	return {
		exited,
		timedOut: deadline.timedOut,
		aborted: deadline.aborted,
		/** Clears timers; a pending SIGKILL stays armed only while the group still has members. */
		stop() {
			stopped = true;
			clearTimeout(updateTimer);
			deadline.release();
		},
	};
}
