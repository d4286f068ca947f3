// A realistic session written by the real writer, for the benchmarks (bench-session.ts, bench-tui.ts) and the tests
// that load or replay a large one.
import { SessionWriter } from "../src/session/writer.js";

export type SyntheticOptions = {
	cwd?: string;
	/** Bytes of content and of details per tool result (default 2,500). */
	toolResultBytes?: number;
};

const WORDS = "the quick brown fox jumps over lazy dog const let return function import export await async".split(" ");

/** Deterministic filler text of about `bytes` characters, in lines like source code or command output. */
export function filler(seed: number, bytes: number): string {
	let state = seed * 2654435761;
	let out = "";
	while (out.length < bytes) {
		let line = "";
		for (let w = 0; w < 10; w++) {
			state = (state * 1103515245 + 12345) >>> 0;
			line += `${WORDS[state % WORDS.length]} `;
		}
		out += `${line.trimEnd()}\n`;
	}
	return out.slice(0, bytes);
}

/** The final reply of the run that step `i` ends: its first line names the run's task (the bench looks for it). */
export function replyText(i: number): string {
	return `Done with task ${i - 9}.\n${filler(i, 600)}`;
}

/**
 * Writes a realistic session of `entries` entries under `dir` (a sessions base folder) with the real writer:
 * runs of a user prompt, four tool rounds (thinking, text, a tool call, a result of a few KB with a diff in its
 * details) and a final reply. Returns the file's path.
 */
export function writeSyntheticSession(dir: string, entries: number, options: SyntheticOptions = {}): string {
	const size = options.toolResultBytes ?? 2500;
	const writer = SessionWriter.create({ dir, cwd: options.cwd ?? "/home/me/src/bench" });
	const usage = { input: 1200, output: 300, cacheRead: 20_000, cacheWrite: 800 };
	const reply = { provider: "anthropic", model: "claude-sonnet-4-5", usage } as const;
	try {
		for (let i = 0; writer.session.entries.length < entries; i++) {
			const step = i % 10;
			if (step === 0) writer.appendUser(`Task ${i}: ${filler(i, 200)}`);
			else if (step === 9) {
				writer.appendAssistant(
					{ role: "assistant", content: [{ type: "text", text: replyText(i) }], stopReason: "stop", ...reply },
					0.01,
				);
			} else if (step % 2 === 1) {
				const content = [
					{ type: "thinking" as const, thinking: filler(i + 1, 400), signature: "sig" },
					{ type: "text" as const, text: filler(i + 2, 150) },
					{ type: "tool_call" as const, id: `call_${i}`, name: "bash", arguments: { command: `npm test -- ${i}` } },
				];
				writer.appendAssistant({ role: "assistant", content, stopReason: "tool_use", ...reply }, 0.02);
			} else {
				writer.appendToolResult({
					callId: `call_${i - 1}`,
					name: "bash",
					content: filler(i, size),
					details: { exitCode: 0, diff: filler(i + 3, size), truncated: false },
					isError: false,
					durationMs: 850,
				});
			}
		}
	} finally {
		writer.close();
	}
	return writer.file;
}
