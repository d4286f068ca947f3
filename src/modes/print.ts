import type { AgentEvent } from "../agent/events.js";
import { exitCodeOf, type OutputFormat, PrintWriter, toPrintResult } from "../output/print-output.js";
import { reportText } from "../rewind/report.js";
import { RewindBusyError } from "../rewind/rewind.js";
import { type Interrupts, installInterrupts, signalsDelivered } from "../signals.js";
import { sanitizeForTerminal } from "../term/sanitize.js";
import { RewindRefusedError } from "./run-session.js";
import { type RunFlags, type Setup, setupRun } from "./setup.js";

export type PrintOptions = RunFlags & { prompt: string; output: OutputFormat };

export type Io = {
	stdout: NodeJS.WritableStream;
	stderr: NodeJS.WritableStream;
	env: NodeJS.ProcessEnv;
	/** The process's signal owner (default: installed on first use). */
	interrupts?: Interrupts;
};

/** A headless run's output, wired to its set-up: the writer, stderr lines, and what went wrong on the way. */
export type HeadlessOutput = {
	writer: PrintWriter;
	/** Writes `gar: TEXT` to stderr, sanitized. */
	say: (text: string) => void;
	/** The first failure to save the session, in words (undefined: none). */
	sessionError(): string | undefined;
	/** True once stdout was closed by its reader. */
	closed(): boolean;
};

/**
 * Subscribes a headless run's output to its set-up: the events in `output.format` on stdout, notices and session failures on
 * stderr. A reader that goes away (`| head`) is no crash: writing stops and `onClosed` runs (the mode aborts its run,
 * which keeps what was saved).
 */
export function attachOutput(
	setup: Setup,
	output: { format: OutputFormat; schema: boolean },
	io: Io,
	onClosed: () => void,
): HeadlessOutput {
	const say = (text: string) => io.stderr.write(`gar: ${sanitizeForTerminal(text)}\n`);
	for (const warning of setup.warnings) say(`warning: ${warning}`);
	const writer = new PrintWriter(output.format, io.stdout, io.stderr, {
		secrets: setup.secrets,
		schema: output.schema,
	});
	setup.channel.subscribe(writer.onEvent);
	let sessionError: string | undefined;
	setup.channel.subscribe((event: AgentEvent) => {
		if (event.type === "session_error") {
			sessionError ??= `could not save the session to ${event.file}: ${event.error}`;
			say(sessionError);
		} else if (event.type === "notice") say(`${event.level}: ${event.message}`);
		else if (event.type === "hook") {
			// A hook that blocked, failed or said something is told on stderr.
			const note = setup.hookNote?.(event);
			if (note) say(note);
		}
	});
	let outputClosed = false;
	io.stderr.on("error", () => {}); // `2>&1 | head`: a closed stderr must not crash the run either
	io.stdout.on("error", (error: NodeJS.ErrnoException) => {
		if (outputClosed) return;
		outputClosed = true;
		writer.close();
		say(`stopped: the output was closed (${error.code ?? error.message}); the session keeps what was done`);
		onClosed();
	});
	return { writer, say, sessionError: () => sessionError, closed: () => outputClosed };
}

/**
 * `gar -p`: runs one task headless and prints the result. Returns the exit code (0 done, 1 failed, 130
 * interrupted); it has written everything to stdout before it returns. SIGINT/SIGTERM/SIGHUP abort the run
 * (a second one exits at once); a closed stdout stops the run (exit 1). Under
 * --approve there is no one to ask, so mutating calls not auto-approved are denied with a message the model reads.
 */
export async function runPrintMode(options: PrintOptions, io: Io): Promise<number> {
	let setup: Setup;
	try {
		setup = await setupRun(options, io.env);
	} catch (error) {
		// --rewind-to skipped a file, or another gar is rewinding the session: told, and the run does not start.
		if (error instanceof RewindRefusedError) io.stderr.write(reportText(error.report, error.session, options.cwd));
		else if (!(error instanceof RewindBusyError)) throw error;
		io.stderr.write(`gar: ${sanitizeForTerminal(error.message)}\n`);
		return 1;
	}
	if (setup.rewound) io.stderr.write(reportText(setup.rewound, setup.rewound.session, options.cwd));
	const { conversation } = setup;
	const schema = options.schema !== undefined;
	const output = attachOutput(setup, { format: options.output, schema }, io, () => conversation.abort());
	// A signal that came while gar was starting is handed over here: the run then ends at once, with its result.
	let interrupted = false;
	const stopListening = (io.interrupts ?? installInterrupts()).listen(() => {
		interrupted = true;
		conversation.abort();
	});
	try {
		await signalsDelivered();
		// A model whose window neither gar nor the config knows: its server is asked first (at most a short timeout).
		await setup.windowKnown;
		const running = conversation.run(options.prompt);
		if (interrupted || output.closed()) conversation.abort();
		const run = await running;
		// The SessionEnd hooks run (and are reported) before the result, which stays the last line.
		await conversation.close();
		const sessionId = conversation.session?.session.header.id ?? null;
		const result = toPrintResult(run, sessionId, output.sessionError(), conversation.context);
		await output.writer.finish(result);
		if (output.closed()) return 1;
		return exitCodeOf(result, interrupted);
	} finally {
		await conversation.close();
		stopListening();
	}
}
