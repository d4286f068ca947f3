import { emitKeypressEvents } from "node:readline";
import { createInterface } from "node:readline/promises";
import type { AskFn } from "../conversation/conversation.js";
import { hasHostileControls, sanitizeForTerminal, TerminalSanitizer } from "../term/sanitize.js";
import type { ToolPreview } from "../tools/types.js";
import { previewBody, previewHeadline } from "../view/format.js";
import { type RunFlags, setupRun } from "./setup.js";
import { createTranscript } from "./transcript.js";

/** Diff lines shown before asking; the rest is one key away ("d"). */
const DIFF_PAGE = 60;

/**
 * The plain interactive mode, used until the full-screen interface lands: a prompt line, the streamed answer
 * and one line per tool call. Esc or Ctrl+C stops a running task; Ctrl+D (or Ctrl+C twice) at the prompt quits.
 * Under --approve every mutating call shows its whole command or diff first; y allows once, a for the rest of the
 * session, n denies (optionally with a reason for the model), Esc or Ctrl+C denies and stops the run.
 * The conversation is saved like any other session. Returns the exit code.
 */
export async function runLineMode(flags: RunFlags & { prompt?: string }): Promise<number> {
	const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
	let questionAbort: AbortController | null = null;
	/** A line from the person; null once the input is closed (Ctrl+D) or the question was cancelled (Esc). */
	const question = async (prompt: string): Promise<string | null> => {
		questionAbort = new AbortController();
		try {
			return await rl.question(prompt, { signal: questionAbort.signal });
		} catch {
			return null;
		} finally {
			questionAbort = null;
		}
	};
	const print = (text: string) => process.stdout.write(text);
	const safe = sanitizeForTerminal;

	const ask: AskFn = async (request) => {
		const body = previewBody(request.preview).map(safe);
		print(`\n${safe(previewHeadline(request.name, request.preview))}\n`);
		if (hostile(request.preview)) {
			print("  ⚠ this call contains terminal control characters or bidi overrides, shown as ␛ / ⟨U+…⟩ below\n");
		}
		const shown = body.length > DIFF_PAGE + 10 ? body.slice(0, DIFF_PAGE) : body;
		print(`${shown.map((l) => `  ${l}`).join("\n")}\n`);
		const more = body.length - shown.length;
		if (more > 0) print(`  [… ${more} more lines: answer d to see them all]\n`);
		for (;;) {
			const answer = await question(`allow? y once · a always (this session) · n no${more > 0 ? " · d diff" : ""} › `);
			if (answer === null) return { approved: false, reason: "the user stopped the run", stop: true };
			const key = answer.trim().toLowerCase();
			if (key === "y" || key === "yes") return { approved: true };
			if (key === "a" || key === "always") return { approved: true, remember: true };
			if (key === "d" && more > 0) {
				print(`${body.map((l) => `  ${l}`).join("\n")}\n`);
				continue;
			}
			if (key === "n" || key === "no" || key === "") {
				const reason = (await question("reason for the model (optional) › "))?.trim();
				return { approved: false, reason: reason || "the user said no" };
			}
		}
	};
	const setup = await setupRun(flags, process.env, { ask, lazySession: true });
	const { conversation } = setup;
	for (const warning of setup.warnings) process.stderr.write(`gar: warning: ${safe(warning)}\n`);
	const stream = new TerminalSanitizer();
	setup.channel.subscribe(createTranscript(print, { safe: (text) => stream.push(text) }));
	const where = conversation.session ? `session ${conversation.session.session.header.id}` : "not saved";
	print(`gar · ${safe(`${setup.provider} ${setup.model}`)} · ${where} · Esc stops a task, Ctrl+D quits\n`);

	let lastInterrupt = 0;
	emitKeypressEvents(process.stdin);
	process.stdin.on("keypress", (_text: string, key: { name?: string } | undefined) => {
		if (key?.name !== "escape") return;
		if (questionAbort) questionAbort.abort();
		else conversation.abort();
	});
	rl.on("SIGINT", () => {
		if (questionAbort) return questionAbort.abort();
		if (conversation.running) return conversation.abort();
		const now = Date.now();
		if (now - lastInterrupt < 1000) return rl.close();
		lastInterrupt = now;
		print("\n(press Ctrl+C again or Ctrl+D to quit)\n");
		rl.write(null, { ctrl: true, name: "u" });
	});

	let next = flags.prompt?.trim() || null;
	while (true) {
		if (next === null) {
			const line = await rl.question("\n› ").catch(() => null);
			if (line === null) break;
			next = line.trim() || null;
			if (next === null) continue;
		}
		await conversation.run(next);
		next = null;
	}
	conversation.close();
	print("\n");
	return 0;
}

/** Whether what the person is asked to approve was written to look like something else on a terminal. */
function hostile(preview: ToolPreview): boolean {
	switch (preview.kind) {
		case "bash":
			return hasHostileControls(preview.command) || hasHostileControls(preview.cwd);
		case "write":
		case "edit":
			return hasHostileControls(preview.path) || hasHostileControls(preview.diff);
		case "invalid":
			return hasHostileControls(preview.message);
	}
}
