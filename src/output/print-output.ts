import type { AgentEvent } from "../agent/events.js";
import type { RunResult } from "../agent/loop.js";
import type { SubagentTotals } from "../llm/spend.js";
import { maskSecrets } from "../session/index.js";
import { jsonForTerminal, sanitizeForTerminal } from "../term/sanitize.js";
import { formatCost, formatSubagents } from "../view/format.js";
import { OutputBuffer } from "./output-buffer.js";

export type OutputFormat = "text" | "json" | "stream-json";

/** The one object `--output json` prints, and the last line of `--output stream-json`. */
export type PrintResult = {
	type: "result";
	ok: boolean;
	result: string;
	stopReason: RunResult["stopReason"];
	turns: number;
	usage: RunResult["usage"];
	/** What this run's own model calls cost. */
	costUsd: number | null;
	/** What the gar runs its commands started reported (nested ones included), when there were any. */
	subagents?: SubagentTotals & { reportedBy: "child" };
	/** `costUsd` plus the sub-agents' (null when either is unknown). */
	totalCostUsd: number | null;
	durationMs: number;
	sessionId: string | null;
	/** How full the context is after the run: the next request's size in tokens, and the model's window. */
	contextTokens?: number;
	contextWindow?: number | null;
	structured?: unknown;
	error?: string;
	errorKind?: RunResult["errorKind"];
	/** Set when saving to the session file failed: the run is then not ok (entries are missing). */
	sessionError?: string;
};

/** Dollars to 6 decimals: float sums (0.30000000000000004) are noise to a script. */
export function roundCost(cost: number | null): number | null {
	return cost === null ? null : Math.round(cost * 1e6) / 1e6;
}

/** The result object of a run; a session that could not be saved makes an otherwise finished run fail. */
export function toPrintResult(
	run: RunResult,
	sessionId: string | null,
	sessionError?: string,
	context?: { tokens: number; window: number | null },
): PrintResult {
	const out: PrintResult = {
		type: "result",
		ok: run.stopReason === "done" && sessionError === undefined,
		result: run.text,
		stopReason: run.stopReason,
		turns: run.turns,
		usage: run.usage,
		costUsd: roundCost(run.costUsd),
		...(run.subagents
			? { subagents: { ...run.subagents, costUsd: roundCost(run.subagents.costUsd), reportedBy: "child" as const } }
			: {}),
		totalCostUsd: roundCost(totalCost(run)),
		durationMs: run.durationMs,
		sessionId,
	};
	if (context) {
		out.contextTokens = context.tokens;
		out.contextWindow = context.window;
	}
	if (run.structured !== undefined) out.structured = run.structured;
	if (run.error !== undefined) out.error = run.error;
	if (run.errorKind !== undefined) out.errorKind = run.errorKind;
	if (sessionError !== undefined) {
		out.sessionError = sessionError;
		out.error ??= sessionError;
	}
	return out;
}

/** A run's own cost plus what its sub-agents reported; unknown when either is. */
export function totalCost(run: Pick<RunResult, "costUsd" | "subagents">): number | null {
	const sub = run.subagents?.costUsd ?? 0;
	return run.costUsd === null || sub === null ? null : run.costUsd + sub;
}

/**
 * The `-p` text status line of a run that had sub-agents (on stderr): its own cost, the sub-agents' runs, tokens and
 * cost as they reported them, and the total. Billed tokens only: never the context's size.
 */
export function subagentLine(result: PrintResult): string | undefined {
	const sub = result.subagents;
	if (!sub) return undefined;
	return `cost ${formatCost(result.costUsd)} self · ${formatSubagents(sub)} (as the sub-agents reported) · ${formatCost(result.totalCostUsd)} total`;
}

/** Exit code of a headless run: 0 done (and saved), 130 interrupted, 1 any other failure. */
export function exitCodeOf(result: PrintResult, interrupted: boolean): number {
	if (result.ok) return 0;
	return interrupted && result.stopReason === "aborted" ? 130 : 1;
}

export type PrintWriterOptions = {
	/** Secret values masked in every line (the key in use), as in the session file. */
	secrets?: readonly string[];
	/** The answer must match a --schema: text output then prints the validated JSON or nothing. */
	schema?: boolean;
};

/**
 * Writes a headless run to stdout in the chosen format: `stream-json` subscribes and prints every event as one
 * JSON line (deltas only, never the whole partial message); `text` and `json` print once at the end. Machine
 * formats keep the exact bytes (JSON escapes them); text is for a person, so it is sanitized wherever it goes (a
 * terminal, or `| tee log` that ends in one), and so are error lines.
 */
export class PrintWriter {
	private readonly out: OutputBuffer;
	private readonly secrets: readonly string[];
	private readonly schema: boolean;

	constructor(
		private readonly format: OutputFormat,
		stdout: NodeJS.WritableStream,
		private readonly stderr: NodeJS.WritableStream,
		options: PrintWriterOptions = {},
	) {
		this.out = new OutputBuffer(stdout as import("node:stream").Writable);
		this.secrets = options.secrets ?? [];
		this.schema = options.schema ?? false;
	}

	/** The channel listener for stream-json; a no-op for the other formats. */
	readonly onEvent = (event: AgentEvent): void => {
		if (this.format !== "stream-json") return;
		const shown =
			"costUsd" in event && event.costUsd !== undefined ? { ...event, costUsd: roundCost(event.costUsd) } : event;
		const line = JSON.stringify(shown);
		this.out.write(`${this.secrets.length > 0 ? maskSecrets(line, this.secrets) : line}\n`);
	};

	/** Stops writing to stdout (it was closed); error lines still go to stderr. */
	close(): void {
		this.out.close();
	}

	/** Waits until everything written so far has reached stdout. */
	flush(): Promise<void> {
		return this.out.flush();
	}

	/**
	 * Prints the result (and, in text mode, the error to stderr), then waits until stdout has taken it all. With a
	 * schema, text mode prints only a validated answer: a script reading stdout never gets text that does not match.
	 */
	async finish(result: PrintResult): Promise<void> {
		const mask = (text: string) => (this.secrets.length > 0 ? maskSecrets(text, this.secrets) : text);
		if (this.format === "text") {
			const shown = (text: string) => mask(sanitizeForTerminal(text.endsWith("\n") ? text : `${text}\n`));
			if (result.structured !== undefined) this.out.write(`${mask(jsonForTerminal(result.structured))}\n`);
			else if (result.result && !this.schema) this.out.write(shown(result.result));
			if (!result.ok) this.stderr.write(`gar: ${mask(sanitizeForTerminal(result.error ?? result.stopReason))}\n`);
			const spent = subagentLine(result);
			if (spent) this.stderr.write(`gar: ${spent}\n`);
		} else {
			this.out.write(`${mask(JSON.stringify(result))}\n`);
		}
		await this.out.flush();
	}
}
