import { exitCodeOf, toPrintResult } from "../output/print-output.js";
import { installInterrupts, signalsDelivered } from "../signals.js";
import { formatBytes, type LineItem, LineSplitter } from "../text/json-lines.js";
import { attachOutput, type HeadlessOutput, type Io } from "./print.js";
import type { RunFlags, Setup } from "./setup.js";
import { setupRun } from "./setup.js";
import { parseStreamCommand, type StreamCommand } from "./stream-commands.js";

export type StreamOptions = RunFlags & {
	/** The first prompt (the words on the command line); empty: none. */
	prompt: string;
	/** The longest input line taken, in bytes (--max-stdin). */
	maxLine: number;
};

export type StreamIo = Io & { stdin: AsyncIterable<Buffer | string> };

/** Work done one at a time, in the order the lines came: a run, a model switch, a compaction. */
type Step = { kind: "run"; text: string } | { kind: "set_model"; model: string } | { kind: "compact"; focus?: string };

/**
 * `gar -p --input-format stream-json --output stream-json`: one conversation driven by JSON lines on stdin until stdin
 * closes (see stream-commands.ts). A prompt waits for the run before it and gets its own run and its own `result`
 * line; steer and follow_up go into the running run (with none running they start one); abort stops the running run
 * only; set_model and compact wait their turn. A line that cannot be taken is reported as a `notice` (and on stderr)
 * and skipped. Exit code: 0 when every run ended done (or was stopped by an abort line) and every line was taken; 1
 * otherwise; 130 on a signal (the running run is aborted, the queued work dropped).
 */
export async function runStreamMode(options: StreamOptions, io: StreamIo): Promise<number> {
	const setup = await setupRun(options, io.env);
	const driver = new StreamDriver(setup);
	const output = attachOutput(setup, { format: "stream-json", schema: options.schema !== undefined }, io, () =>
		driver.stop(),
	);
	driver.output = output;
	const stopListening = (io.interrupts ?? installInterrupts()).listen(() => {
		driver.interrupted = true;
		driver.stop();
	});
	try {
		await signalsDelivered();
		await setup.windowKnown;
		if (options.prompt.trim()) driver.take({ type: "prompt", text: options.prompt });
		await Promise.race([driver.read(io.stdin, options.maxLine), driver.stopped]);
		// After a stop, only the aborted run is left: its result is printed too, as gar -p prints an aborted run's.
		await driver.idle();
		await output.writer.flush();
		if (driver.interrupted) return 130;
		if (output.closed()) return 1;
		return driver.failed ? 1 : 0;
	} finally {
		await setup.conversation.close();
		stopListening();
	}
}

/** Reads the commands and does their work in order; remembers whether anything failed. */
class StreamDriver {
	output!: HeadlessOutput;
	interrupted = false;
	failed = false;
	private readonly steps: Step[] = [];
	private current: Step | null = null;
	private working: Promise<void> | null = null;
	private abortedByLine = false;
	private line = 0;
	private maxLine = 0;
	private halt!: () => void;
	/** Resolves when a signal or a closed stdout stops everything. */
	readonly stopped = new Promise<void>((resolve) => {
		this.halt = resolve;
	});

	constructor(private readonly setup: Setup) {}

	/** Stops everything: the running work is aborted, queued work dropped. */
	stop(): void {
		this.steps.length = 0;
		this.setup.conversation.abort();
		this.halt();
	}

	/** Reads `stdin` to its end, taking each line's command as it comes. */
	async read(stdin: AsyncIterable<Buffer | string>, maxLine: number): Promise<void> {
		this.maxLine = maxLine;
		const splitter = new LineSplitter(maxLine);
		for await (const chunk of stdin) {
			for (const item of splitter.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk)) this.onLine(item);
		}
		for (const item of splitter.end()) this.onLine(item);
	}

	/** Resolves when no work is queued or going. */
	async idle(): Promise<void> {
		while (this.working) await this.working;
	}

	private onLine(item: LineItem): void {
		this.line++;
		if ("tooLong" in item) {
			const limit = formatBytes(this.maxLine);
			this.refuse(`the line is over ${limit} and was skipped; pass --max-stdin BYTES to allow longer lines`);
		} else if (item.line.trim() !== "") {
			const command = parseStreamCommand(item.line);
			if ("error" in command) this.refuse(command.error);
			else this.take(command);
		}
	}

	/** Acts on a command at once (steer, follow-up, abort) or queues its work. */
	take(command: StreamCommand): void {
		const { conversation } = this.setup;
		const running = this.current?.kind === "run";
		switch (command.type) {
			case "prompt":
				this.queue({ kind: "run", text: command.text });
				break;
			case "steer":
				if (!(running && conversation.steer(command.text))) this.queue({ kind: "run", text: command.text });
				break;
			case "follow_up":
				if (!(running && conversation.followUp(command.text))) this.queue({ kind: "run", text: command.text });
				break;
			case "abort":
				if (!this.current) this.notice("info", `stdin line ${this.line}: abort: nothing is running`);
				else {
					this.abortedByLine = true;
					conversation.abort();
				}
				break;
			case "set_model":
				this.queue({ kind: "set_model", model: command.model });
				break;
			case "compact":
				this.queue(command.focus ? { kind: "compact", focus: command.focus } : { kind: "compact" });
				break;
		}
	}

	private queue(step: Step): void {
		this.steps.push(step);
		this.working ??= this.work().finally(() => {
			this.working = null;
		});
	}

	private async work(): Promise<void> {
		for (let step = this.steps.shift(); step; step = this.steps.shift()) {
			this.current = step;
			try {
				await this.perform(step);
			} finally {
				this.current = null;
			}
		}
	}

	private async perform(step: Step): Promise<void> {
		const { conversation } = this.setup;
		if (step.kind === "run") {
			this.abortedByLine = false;
			const run = await conversation.run(step.text);
			const sessionId = conversation.session?.session.header.id ?? null;
			const result = toPrintResult(run, sessionId, this.output.sessionError(), conversation.context);
			await this.output.writer.finish(result);
			if (exitCodeOf(result, false) !== 0 && !(run.stopReason === "aborted" && this.abortedByLine)) this.failed = true;
			// Messages that came too late for this run (or after an abort) are not lost: each becomes a run of its own.
			this.steps.unshift(...conversation.queue.drain().map((text): Step => ({ kind: "run", text })));
		} else if (step.kind === "set_model") {
			const next = await this.setup.providerFor(step.model);
			if ("error" in next) this.fail(`set_model: ${next.error}`);
			else {
				conversation.setModel(next.provider, next.model, next.contextWindow, next.prices);
				if (next.note) this.notice("info", next.note);
			}
		} else {
			// How it went is in its compaction_end event; a compaction that could not be done fails no run.
			await conversation.compact(step.focus);
		}
	}

	private refuse(message: string): void {
		this.fail(`stdin line ${this.line}: ${message}`);
	}

	private fail(message: string): void {
		this.failed = true;
		this.notice("error", message);
	}

	private notice(level: "info" | "error", message: string): void {
		this.setup.channel.emit({ type: "notice", level, message });
	}
}
