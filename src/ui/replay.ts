import { homedir } from "node:os";
import { EventChannel } from "../agent/channel.js";
import type { AgentEvent } from "../agent/events.js";
import { findModel } from "../llm/models.js";
import { gitBranch } from "../prompt/system-prompt.js";
import { type ReplayEvent, replayEvents } from "../session/replay.js";
import type { ReplayNotes } from "../session/replay-notes.js";
import { ReplayPlayer, type ReplaySink, type ReplayTimers } from "../session/replay-pace.js";
import type { Session } from "../session/session.js";
import { sanitizeForTerminal } from "../term/sanitize.js";
import { tildePath } from "../text/paths.js";
import { branchLabel } from "../view/format.js";
import { reduce } from "../view/reducer.js";
import { initialView, type ViewState } from "../view/state.js";
import { loadMarkdown } from "./chat/markdown.js";
import { type StartedApp, startApp } from "./start.js";
import type { UiStore } from "./state/store.js";
import type { Background } from "./terminal/background.js";

export type ReplayAppOptions = {
	session: Session;
	leafId: string | null;
	/** Times the recorded pace (1: as it happened). */
	speed: number;
	/** Where a damaged file's path starts or stops (session/replay-notes.ts). */
	notes: ReplayNotes;
	/** The command that continues the session, for the read-only hint. */
	continueWith: string;
	theme?: string;
	background?: Promise<Background | undefined>;
};

/** Events that only grow what is on screen: drawn at the store's frame rate, as in a live run. */
const STREAMING = new Set<AgentEvent["type"]>(["text_delta", "thinking_delta", "toolcall_delta"]);

/**
 * `gar replay` in a terminal: the full-screen app plays the recorded path at its recorded pace (ReplayPlayer) through
 * the same reducer, panes and inspector as a live run, on the replay screen (its bar and keys). No model is called
 * and nothing typed is sent. At the end the replay stays on screen (space plays it again) until the person quits.
 * Returns the exit code.
 */
export async function runReplayTui(options: ReplayAppOptions): Promise<number> {
	const { session } = options;
	const app = await startApp({
		cwd: session.header.cwd,
		...(options.theme ? { theme: options.theme } : {}),
		...(options.background ? { background: options.background } : {}),
		screen: "replay",
	});
	const channel = new EventChannel();
	channel.subscribe(app.store.onEvent);
	app.notify(channel);
	describeSession(app, options);
	await loadMarkdown();
	const player = replayInto(app.store, options, {
		timers: {
			now: Date.now,
			setTimeout: (run, ms) => setTimeout(run, ms),
			clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
		},
		tell: (message) => channel.emit({ type: "notice", level: "warning", message }),
	});
	player.play();
	const code = await app.finished;
	player.stop();
	app.close();
	const { position, total } = player.progress;
	process.stdout.write(`gar: replayed session ${session.header.id} (${position} of ${total} events)\n`);
	// The notes name the file, whose path may hold anything.
	for (const note of [options.notes.start, options.notes.end]) {
		if (note) process.stderr.write(`gar: ${sanitizeForTerminal(note)}\n`);
	}
	return code;
}

/** What a replay needs besides the session: a clock, and where its warnings go (the chat's notices). */
export type ReplayDeps = { timers: ReplayTimers; tell: (warning: string) => void };

/**
 * Puts a replay of the path into `store`: the view starts empty, each moment the player plays is folded into it by the
 * reducer, and the replay screen reaches the player through `store.replay`. The session's warnings are told at once,
 * where a damaged file stopped the replay when it gets there. Returns the player, not yet playing.
 */
export function replayInto(
	store: UiStore,
	options: Pick<ReplayAppOptions, "session" | "leafId" | "speed" | "notes" | "continueWith">,
	{ timers, tell }: ReplayDeps,
): ReplayPlayer {
	const { session, notes } = options;
	const events = [...replayEvents(session, options.leafId)];
	const empty = () => emptyView(events);
	store.view = empty();
	let told = false;
	const player: ReplayPlayer = new ReplayPlayer(events, viewSink(store, empty), {
		speed: options.speed,
		timers,
		onChange: () => {
			if (player.progress.ended && notes.end && !told) {
				told = true;
				tell(notes.end);
			}
			store.changed();
		},
	});
	for (const warning of session.warnings) tell(warning);
	if (notes.start) tell(notes.start);
	store.replay = {
		get progress() {
			return player.progress;
		},
		toggle: () => player.toggle(),
		step: () => player.step(),
		end: () => player.end(),
		continueWith: options.continueWith,
	};
	store.changed();
	return player;
}

/** What the status bar and the inspector say of the replayed session: its folder, id, name and branch. */
function describeSession(app: StartedApp, { session, leafId }: ReplayAppOptions): void {
	const { info } = app;
	// A session file may come from anyone: what it names is shown with its control characters visible.
	info.cwd = sanitizeForTerminal(tildePath(session.header.cwd, homedir()));
	info.branch = gitBranch(session.header.cwd);
	const id = sanitizeForTerminal(session.header.id);
	const name = session.name === undefined ? undefined : sanitizeForTerminal(session.name);
	info.sessionId = () => id;
	info.sessionName = () => name;
	const label = branchLabel(
		session.leaves().map((leaf) => leaf.id),
		leafId,
	);
	info.sessionBranch = () => label;
	info.running = () => false;
}

/** The view before the first event: the model the replay starts with, and its window where gar knows it. */
function emptyView(events: readonly ReplayEvent[]): ViewState {
	const start = events.find((e) => e.event.type === "agent_start")?.event;
	const model = start?.type === "agent_start" ? { provider: start.provider, model: start.model } : undefined;
	return initialView({
		provider: model?.provider ?? "",
		model: model?.model ?? "",
		contextWindow: model ? (findModel(model.model)?.contextWindow ?? null) : null,
	});
}

/** Where the player's events go: folded into the store's view, one redraw per moment (streaming ones at frame rate). */
function viewSink(store: UiStore, empty: () => ViewState): ReplaySink {
	return {
		emit: (batch) => {
			for (const { event } of batch) store.view = reduce(store.view, event, Date.now());
			store.changed(!batch.every(({ event }) => STREAMING.has(event.type)));
		},
		restart: () => {
			store.view = empty();
			store.expanded.clear();
			store.toBottom();
			store.changed();
		},
	};
}
