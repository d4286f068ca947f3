import { emitKeypressEvents } from "node:readline";
import { createInterface } from "node:readline/promises";
import type { ApproveFn } from "../agent/loop.js";
import { type RunFlags, setupRun } from "./setup.js";
import { createTranscript, describeCall } from "./transcript.js";

/**
 * The plain interactive mode, used until the full-screen interface lands: a prompt line, the streamed answer
 * and one line per tool call. Esc or Ctrl+C stops a running task; Ctrl+D (or Ctrl+C twice) at the prompt quits.
 * The conversation is saved like any other session. Returns the exit code.
 */
export async function runLineMode(flags: RunFlags & { prompt?: string }): Promise<number> {
	const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
	/** A line from the person; null once the input is closed (Ctrl+D). */
	const question = (prompt: string) => rl.question(prompt).catch(() => null);
	const ask: ApproveFn = async (call) => {
		const answer = await question(`allow ${describeCall(call.name, call.args)}? [y/N] `);
		return answer !== null && /^y(es)?$/i.test(answer.trim())
			? { approved: true }
			: { approved: false, reason: "the user said no" };
	};
	const setup = await setupRun(flags, process.env, ask);
	for (const warning of setup.warnings) process.stderr.write(`gar: warning: ${warning}\n`);
	setup.channel.subscribe(createTranscript((text) => process.stdout.write(text)));
	const where = setup.session ? `session ${setup.session.session.header.id}` : "not saved";
	process.stdout.write(`gar · ${setup.provider} ${setup.model} · ${where} · Esc stops a task, Ctrl+D quits\n`);

	let running: AbortController | null = null;
	let lastInterrupt = 0;
	emitKeypressEvents(process.stdin);
	process.stdin.on("keypress", (_text: string, key: { name?: string } | undefined) => {
		if (key?.name === "escape") running?.abort();
	});
	rl.on("SIGINT", () => {
		if (running) return running.abort();
		const now = Date.now();
		if (now - lastInterrupt < 1000) return rl.close();
		lastInterrupt = now;
		process.stdout.write("\n(press Ctrl+C again or Ctrl+D to quit)\n");
		rl.write(null, { ctrl: true, name: "u" });
	});

	let next = flags.prompt?.trim() || null;
	while (true) {
		if (next === null) {
			const line = await question("\n› ");
			if (line === null) break;
			next = line.trim() || null;
			if (next === null) continue;
		}
		running = new AbortController();
		await setup.agent.run(next, running.signal);
		running = null;
		next = null;
	}
	setup.session?.close();
	process.stdout.write("\n");
	return 0;
}
