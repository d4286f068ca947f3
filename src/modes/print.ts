import type { AgentEvent } from "../agent/events.js";
import { sanitizeForTerminal } from "../term/sanitize.js";
import { exitCodeOf, type OutputFormat, PrintWriter, toPrintResult } from "./print-output.js";
import { type RunFlags, setupRun } from "./setup.js";

export type PrintOptions = RunFlags & { prompt: string; output: OutputFormat };

export type Io = {
	stdout: NodeJS.WritableStream;
	stderr: NodeJS.WritableStream;
	env: NodeJS.ProcessEnv;
};

/**
 * `gar -p`: runs one task headless and prints the result. Returns the exit code (0 done, 1 failed, 130
 * interrupted); it has written everything to stdout before it returns. SIGINT/SIGTERM abort the run. Under
 * --approve there is no one to ask, so mutating calls not auto-approved are denied with a message the model reads.
 */
export async function runPrintMode(options: PrintOptions, io: Io): Promise<number> {
	const setup = await setupRun(options, io.env);
	const { conversation } = setup;
	const say = (text: string) => io.stderr.write(`gar: ${sanitizeForTerminal(text)}\n`);
	for (const warning of setup.warnings) say(`warning: ${warning}`);
	const terminal = (io.stdout as { isTTY?: boolean }).isTTY === true;
	const writer = new PrintWriter(options.output, io.stdout, io.stderr, { secrets: setup.secrets, terminal });
	setup.channel.subscribe(writer.onEvent);
	let sessionError: string | undefined;
	setup.channel.subscribe((event: AgentEvent) => {
		if (event.type === "session_error") {
			sessionError ??= `could not save the session to ${event.file}: ${event.error}`;
			say(sessionError);
		} else if (event.type === "notice") say(`${event.level}: ${event.message}`);
	});

	let interrupted = false;
	const onSignal = () => {
		if (interrupted) process.exit(130); // a second signal: stop waiting for a clean end
		interrupted = true;
		conversation.abort();
	};
	process.on("SIGINT", onSignal);
	process.on("SIGTERM", onSignal);
	try {
		const run = await conversation.run(options.prompt);
		const result = toPrintResult(run, conversation.session?.session.header.id ?? null, sessionError);
		await writer.finish(result);
		return exitCodeOf(result, interrupted);
	} finally {
		conversation.close();
		process.off("SIGINT", onSignal);
		process.off("SIGTERM", onSignal);
	}
}
