import type { ApproveFn } from "../agent/loop.js";
import { exitCodeOf, type OutputFormat, PrintWriter, toPrintResult } from "./print-output.js";
import { type RunFlags, setupRun } from "./setup.js";

export type PrintOptions = RunFlags & { prompt: string; output: OutputFormat };

export type Io = {
	stdout: NodeJS.WritableStream;
	stderr: NodeJS.WritableStream;
	env: NodeJS.ProcessEnv;
};

/** Headless runs have no one to ask: under --approve, mutating calls not auto-approved are denied. */
const denyHeadless: ApproveFn = async () => ({
	approved: false,
	reason: "--approve is set and a headless run (-p) has no one to ask; list the tool in agent.auto_approve to allow it",
});

/**
 * `gar -p`: runs one task headless and prints the result. Returns the exit code (0 done, 1 failed, 130
 * interrupted); it has written everything to stdout before it returns. SIGINT/SIGTERM abort the run.
 */
export async function runPrintMode(options: PrintOptions, io: Io): Promise<number> {
	const setup = await setupRun(options, io.env, denyHeadless);
	for (const warning of setup.warnings) io.stderr.write(`gar: warning: ${warning}\n`);
	const writer = new PrintWriter(options.output, io.stdout, io.stderr);
	setup.channel.subscribe(writer.onEvent);

	const controller = new AbortController();
	let interrupted = false;
	const onSignal = () => {
		if (interrupted) process.exit(130); // a second signal: stop waiting for a clean end
		interrupted = true;
		controller.abort();
	};
	process.on("SIGINT", onSignal);
	process.on("SIGTERM", onSignal);
	try {
		const run = await setup.agent.run(options.prompt, controller.signal);
		await writer.finish(toPrintResult(run, setup.session?.session.header.id ?? null));
		return exitCodeOf(run, interrupted);
	} finally {
		setup.session?.close();
		process.off("SIGINT", onSignal);
		process.off("SIGTERM", onSignal);
	}
}
