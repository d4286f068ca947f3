import { existsSync } from "node:fs";
import { EventChannel } from "../agent/channel.js";
import { UsageError } from "../errors.js";
import { PrintWriter } from "../modes/print-output.js";
import { createTranscript } from "../modes/transcript.js";
import { loadSession, resolveEntry, resolveSession } from "../session/index.js";
import { replayEvents } from "../session/replay.js";
import { sanitizeForTerminal, TerminalSanitizer } from "../term/sanitize.js";

export type ReplayOptions = {
	baseDir: string;
	cwd: string;
	at?: string;
	/** Playback speed relative to the recording; undefined or 0 = as fast as possible. */
	speed?: number;
	output: "text" | "stream-json";
};

/** Longest pause between two replayed events, before the speed factor: a night between two prompts is not replayed. */
const MAX_GAP_MS = 5000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * `gar replay FILE`: re-emits the recorded conversation of a path as agent events on a channel, in order, to the
 * same subscribers a live run has (stream-json, or a text transcript). No model is called.
 */
export async function replayCommand(target: string, options: ReplayOptions): Promise<number> {
	const file = existsSync(target) ? target : resolveSession(options.baseDir, target, options.cwd).file;
	const session = loadSession(file);
	for (const w of session.warnings) process.stderr.write(`gar: warning: ${sanitizeForTerminal(w)}\n`);
	const leaf = options.at ? resolveEntry(session, options.at) : session.leafId;
	if (leaf === null) throw new UsageError(`${file} has no conversation to replay`);
	const channel = new EventChannel();
	const writer = new PrintWriter("stream-json", process.stdout, process.stderr);
	if (options.output === "stream-json") channel.subscribe(writer.onEvent);
	else {
		// Text for a terminal is made safe; text to a pipe or file keeps the recorded bytes.
		const stream = process.stdout.isTTY ? new TerminalSanitizer() : null;
		const safe = stream ? (text: string) => stream.push(text) : undefined;
		channel.subscribe(createTranscript((text) => process.stdout.write(text), safe ? { safe } : {}));
	}
	let previous: number | undefined;
	for (const { event, ts } of replayEvents(session, leaf)) {
		const at = Date.parse(ts);
		if (options.speed && previous !== undefined && at > previous) {
			await sleep(Math.min(at - previous, MAX_GAP_MS) / options.speed);
		}
		previous = at;
		channel.emit(event);
	}
	if (options.output === "stream-json") await writer.flush();
	return 0;
}
