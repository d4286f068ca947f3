import { existsSync } from "node:fs";
import { EventChannel } from "../agent/channel.js";
import { UsageError } from "../errors.js";
import { PrintWriter } from "../output/print-output.js";
import { createTranscript } from "../output/transcript.js";
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
	// Text is for a person: made safe wherever it goes (`| less -R` or `| tee log` end in a terminal too);
	// stream-json keeps the recorded bytes.
	const text = options.output === "text" ? new TerminalSanitizer() : null;
	if (text) {
		const safe = (piece: string) => text.push(piece);
		channel.subscribe(createTranscript((piece) => process.stdout.write(piece), { safe }));
	} else channel.subscribe(writer.onEvent);
	let previous: number | undefined;
	for (const { event, ts } of replayEvents(session, leaf)) {
		const at = Date.parse(ts);
		if (options.speed && previous !== undefined && at > previous) {
			await sleep(Math.min(at - previous, MAX_GAP_MS) / options.speed);
		}
		previous = at;
		channel.emit(event);
	}
	if (text) process.stdout.write(text.end());
	else await writer.flush();
	return 0;
}
