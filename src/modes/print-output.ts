import type { AgentEvent } from "../agent/events.js";
import type { RunResult } from "../agent/loop.js";
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
	costUsd: number | null;
	durationMs: number;
	sessionId: string | null;
	structured?: unknown;
	error?: string;
};

export function toPrintResult(run: RunResult, sessionId: string | null): PrintResult {
	const out: PrintResult = {
		type: "result",
		ok: run.stopReason === "done",
		result: run.text,
		stopReason: run.stopReason,
		turns: run.turns,
		usage: run.usage,
		costUsd: run.costUsd,
		durationMs: run.durationMs,
		sessionId,
	};
	if (run.structured !== undefined) out.structured = run.structured;
	if (run.error !== undefined) out.error = run.error;
	return out;
}

/** Exit code of a headless run: 0 done, 130 interrupted, 1 any other failure. */
export function exitCodeOf(run: RunResult, interrupted: boolean): number {
	if (run.stopReason === "done") return 0;
	return interrupted && run.stopReason === "aborted" ? 130 : 1;
}

/**
 * Writes a headless run to stdout in the chosen format: `stream-json` subscribes and prints every event as one
 * JSON line (deltas only, never the whole partial message); `text` and `json` print once at the end.
 */
export class PrintWriter {
	private readonly out: OutputBuffer;

	constructor(
		private readonly format: OutputFormat,
		stdout: NodeJS.WritableStream,
		private readonly stderr: NodeJS.WritableStream,
	) {
		this.out = new OutputBuffer(stdout as import("node:stream").Writable);
	}

	/** The channel listener for stream-json; a no-op for the other formats. */
	readonly onEvent = (event: AgentEvent): void => {
		if (this.format === "stream-json") this.out.write(`${JSON.stringify(event)}\n`);
	};

	/** Waits until everything written so far has reached stdout. */
	flush(): Promise<void> {
		return this.out.flush();
	}

	/** Prints the result (and, in text mode, the error to stderr), then waits until stdout has taken it all. */
	async finish(result: PrintResult): Promise<void> {
		if (this.format === "text") {
			if (result.structured !== undefined) this.out.write(`${JSON.stringify(result.structured)}\n`);
			else if (result.result) this.out.write(result.result.endsWith("\n") ? result.result : `${result.result}\n`);
			if (!result.ok) this.stderr.write(`gar: ${result.error ?? result.stopReason}\n`);
		} else {
			this.out.write(`${JSON.stringify(result)}\n`);
		}
		await this.out.flush();
	}
}
