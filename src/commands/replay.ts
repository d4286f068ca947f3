import { existsSync } from "node:fs";
import { resolve, sep } from "node:path";
import { EventChannel } from "../agent/channel.js";
import { UsageError } from "../errors.js";
import { PrintWriter } from "../output/print-output.js";
import { createTranscript } from "../output/transcript.js";
import { loadSession, resolveEntry, resolveSession, type Session } from "../session/index.js";
import { replayEvents } from "../session/replay.js";
import { type ReplayNotes, replayNotes } from "../session/replay-notes.js";
import { replayGapMs } from "../session/replay-pace.js";
import { sanitizeForTerminal, TerminalSanitizer } from "../term/sanitize.js";

export type ReplayOptions = {
	baseDir: string;
	cwd: string;
	at?: string;
	/** Playback speed relative to the recording; undefined or 0 = as fast as possible (the app: 1). */
	speed?: number;
	output: "text" | "stream-json";
};

/** A loaded replay as the full-screen app plays it (ui/replay.ts runReplayTui, reached through cli.ts). */
export type ReplayApp = (replay: {
	session: Session;
	leafId: string | null;
	speed: number;
	notes: ReplayNotes;
	continueWith: string;
}) => Promise<number>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * `gar replay FILE`: re-emits the recorded conversation of a path as agent events on a channel, in order, to the
 * same subscribers a live run has (stream-json, or a text transcript). No model is called. With `app` (a terminal,
 * no --output) the session plays in the full-screen app instead. The session is loaded first either way, so a wrong
 * id or entry is told on the normal screen. A damaged file plays what can be read, and says where it stopped.
 */
export async function replayCommand(target: string, options: ReplayOptions, app?: ReplayApp): Promise<number> {
	const file = existsSync(target) ? target : resolveSession(options.baseDir, target, options.cwd).file;
	const session = loadSession(file);
	// The app shows the warnings in its chat; here they go first, before what they explain.
	if (!app) for (const w of session.warnings) process.stderr.write(`gar: warning: ${sanitizeForTerminal(w)}\n`);
	const leaf = options.at ? resolveEntry(session, options.at) : session.leafId;
	if (leaf === null) throw new UsageError(`${file} has no conversation to replay`);
	const notes = replayNotes(session, leaf);
	if (app) {
		const continueWith = continueCommand(session, options.baseDir);
		return app({ session, leafId: leaf, speed: options.speed ?? 1, notes, continueWith });
	}
	if (notes.start) process.stderr.write(`gar: ${sanitizeForTerminal(notes.start)}\n`);
	const channel = new EventChannel();
	const writer = new PrintWriter("stream-json", process.stdout, process.stderr);
	// Text is for a person: made safe wherever it goes (`| less -R` or `| tee log` end in a terminal too);
	// stream-json keeps the recorded bytes.
	const text = options.output === "text" ? new TerminalSanitizer() : null;
	if (text) {
		const safe = (piece: string) => text.push(piece);
		channel.subscribe(createTranscript((piece) => process.stdout.write(piece), { safe }));
	} else channel.subscribe(writer.onEvent);
	let previous: string | undefined;
	for (const { event, ts } of replayEvents(session, leaf)) {
		const wait = options.speed ? replayGapMs(previous, ts, options.speed) : 0;
		if (wait > 0) await sleep(wait);
		previous = ts;
		channel.emit(event);
	}
	if (text) process.stdout.write(text.end());
	else await writer.flush();
	if (notes.end) process.stderr.write(`gar: ${sanitizeForTerminal(notes.end)}\n`);
	return 0;
}

/** How to continue the session: by its id when it is one of gar's, else by its file; from its folder. */
function continueCommand(session: Session, baseDir: string): string {
	const stored = resolve(session.file).startsWith(resolve(baseDir) + sep);
	const which = stored ? session.header.id : resolve(session.file);
	return `gar --cwd ${shellWord(session.header.cwd)} --session ${shellWord(which)}`;
}

/** `word` as one shell word: as it is when plain, else in single quotes. */
function shellWord(word: string): string {
	return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
