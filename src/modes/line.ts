import { emitKeypressEvents } from "node:readline";
import { createInterface, type Interface } from "node:readline/promises";
import type { ApprovalDecision } from "../agent/loop.js";
import type { AskFn, Conversation } from "../conversation/conversation.js";
import { createTranscript } from "../output/transcript.js";
import { sanitizeForTerminal, TerminalSanitizer } from "../term/sanitize.js";
import {
	APPROVAL_WARNING,
	approvalFlagged,
	approvalKeys,
	previewBody,
	previewHeadline,
	resumeHint,
} from "../view/format.js";
import { type RunFlags, type Setup, setupRun } from "./setup.js";

/** Diff lines shown before asking; the rest is one key away ("d"). A command is always shown whole. */
const DIFF_PAGE = 60;

type Keypress = { name?: string; ctrl?: boolean; meta?: boolean } | undefined;

/**
 * The plain interactive mode (`--plain`): a prompt line, the streamed answer and one line per tool call. Esc or
 * Ctrl+C stops a running task; Ctrl+D (or Ctrl+C twice) at the prompt quits, saying how to continue the session.
 * Under --approve every mutating call shows its whole command (or its diff, the rest one key away) and takes a
 * single key, as the app does: y allows once, a for the rest of the session, n denies (then a reason for the
 * model, optional), Esc or Ctrl+C denies and stops the run. The conversation is saved like any other session.
 * Returns the exit code.
 */
export async function runLineMode(flags: RunFlags & { prompt?: string }): Promise<number> {
	const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
	// Between questions readline redraws a wiped line after this prompt (its default is "> ").
	rl.setPrompt("");
	const { question, choose, cancel } = questions(rl);
	const print = (text: string) => process.stdout.write(text);

	const ask: AskFn = async (request) => {
		const { preview } = request;
		const body = previewBody(preview);
		print(`\n${previewHeadline(request.name, preview)}\n`);
		if (request.reason) print(`  ${sanitizeForTerminal(request.reason)}\n`);
		if (request.ruleNote) print(`  rules: ${sanitizeForTerminal(request.ruleNote)}\n`);
		if (approvalFlagged(preview)) print(`  ${APPROVAL_WARNING}\n`);
		const paged = preview.kind !== "bash" && body.length > DIFF_PAGE + 10;
		const shown = paged ? body.slice(0, DIFF_PAGE) : body;
		print(`${shown.map((l) => `  ${l}`).join("\n")}\n`);
		let more = body.length - shown.length;
		if (more > 0) print(`  [… ${more} more lines: press d to see them]\n`);
		const stop: ApprovalDecision = { approved: false, reason: "the user stopped the run", stop: true };
		for (;;) {
			const { prefixes } = request;
			const items = approvalKeys(request.name, prefixes);
			const keys = ["y", "a", ...(prefixes?.length ? ["p"] : []), "n"];
			if (more > 0) {
				items.splice(items.length - 1, 0, `d show the ${more} more lines`);
				keys.push("d");
			}
			const key = await choose(`${items.join(" · ")} › `, keys);
			if (key === null) return stop;
			if (key === "y") return { approved: true };
			if (key === "a") return { approved: true, remember: true };
			if (key === "p" && prefixes?.length) return { approved: true, prefixes: [...prefixes] };
			if (key === "d") {
				const rest = body.slice(shown.length).map((l) => `  ${l}`);
				print(`${rest.join("\n")}\n`);
				more = 0;
				continue;
			}
			const reason = await question("why not? (optional, for the model; Enter to deny) › ");
			return { approved: false, reason: reason?.trim() || "the user said no" };
		}
	};
	const setup = await setupRun(flags, process.env, { ask, lazySession: true });
	const { conversation } = setup;
	greet(setup, print);
	// The SessionStart hooks run now, not at the first prompt.
	void conversation.start();
	listenForStops(rl, conversation, cancel, print);
	await promptLoop(rl, conversation, flags.prompt?.trim() || null, print);
	await conversation.close("prompt_input_exit");
	const saved = conversation.session;
	print(
		`\n${resumeHint(saved && saved.session.entries.length > 0 ? saved.session.header.id : undefined, "--plain ")}\n`,
	);
	return 0;
}

type Print = (text: string) => void;

/** The warnings of the set-up, the transcript of the events from now on, and the line that says where we are. */
function greet(setup: Setup, print: Print): void {
	const { conversation } = setup;
	const safe = sanitizeForTerminal;
	for (const warning of setup.warnings) process.stderr.write(`gar: warning: ${safe(warning)}\n`);
	const stream = new TerminalSanitizer();
	// What the person typed is on the screen already: the transcript does not write it again.
	setup.channel.subscribe(createTranscript(print, { safe: (text) => stream.push(text), echoPrompts: false }));
	const where = conversation.session ? `session ${conversation.session.session.header.id}` : "not saved";
	print(`gar · ${safe(`${setup.provider} ${setup.model}`)} · ${where} · Esc stops a task, Ctrl+D quits\n`);
}

/**
 * Esc cancels the open question, else stops the running task. Ctrl+C does the same, and at the prompt quits when
 * pressed twice within a second (the first one says so).
 */
function listenForStops(rl: Interface, conversation: Conversation, cancel: () => boolean, print: Print): void {
	let lastInterrupt = 0;
	emitKeypressEvents(process.stdin);
	process.stdin.on("keypress", (_text: string, key: { name?: string } | undefined) => {
		if (key?.name !== "escape") return;
		if (!cancel()) conversation.abort();
	});
	rl.on("SIGINT", () => {
		if (cancel()) return;
		if (conversation.running) return conversation.abort();
		const now = Date.now();
		if (now - lastInterrupt < 1000) return rl.close();
		lastInterrupt = now;
		print("\n(press Ctrl+C again or Ctrl+D to quit)\n");
		rl.write(null, { ctrl: true, name: "u" });
	});
}

/** Runs `first` (the prompt given on the command line), then each line typed, until the input closes (Ctrl+D). */
async function promptLoop(
	rl: Interface,
	conversation: Conversation,
	first: string | null,
	print: Print,
): Promise<void> {
	let next = first;
	if (next !== null) print(`\n› ${sanitizeForTerminal(next)}\n`);
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
}

/**
 * Questions on `rl` that Esc or Ctrl+C can cancel (`cancel` says whether one was open): a line, or a single key of
 * a few.
 */
function questions(rl: Interface) {
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
	/**
	 * One of `keys`, taken as it is pressed (no Enter); null for Esc, Ctrl+C or Ctrl+D. Other keys are wiped as
	 * they come, so nothing typed by mistake stays on the line. Readline sees each key first (it echoes it);
	 * cancelling the question then ends the line.
	 */
	const choose = async (prompt: string, keys: readonly string[]): Promise<string | null> => {
		let chosen: string | null = null;
		const onKey = (text: string | undefined, key: Keypress) => {
			if (key?.ctrl || key?.meta || key?.name === "escape") return;
			const pressed = (text ?? "").toLowerCase();
			if (chosen === null && questionAbort && keys.includes(pressed)) {
				chosen = pressed;
				questionAbort.abort();
			} else if (pressed >= " " && pressed !== "\x7f") {
				// Also what came in the same read after the answer ("yes"): it must not wait at the next prompt.
				rl.write(null, { ctrl: true, name: "u" });
			}
		};
		process.stdin.on("keypress", onKey);
		try {
			for (;;) {
				const line = await question(prompt);
				// Enter alone (or a paste ending in one) answers nothing: ask again.
				if (chosen !== null || line === null) return chosen;
			}
		} finally {
			process.stdin.off("keypress", onKey);
		}
	};
	/** Cancels the open question, if one is open: true then. */
	const cancel = (): boolean => {
		if (!questionAbort) return false;
		questionAbort.abort();
		return true;
	};
	return { question, choose, cancel };
}
