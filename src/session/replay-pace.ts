import type { ReplayEvent } from "./replay.js";

/** Longest pause between two replayed events, before the speed factor: a night between two prompts is not replayed. */
export const MAX_GAP_MS = 5000;

/**
 * How long to wait before an event recorded at `next` after one recorded at `previous`, at `speed` times the
 * recorded pace: the recorded gap capped at MAX_GAP_MS, divided by the speed. 0 for the first event, for times out
 * of order, and for times that do not parse.
 */
export function replayGapMs(previous: string | undefined, next: string, speed: number): number {
	if (previous === undefined || !(speed > 0)) return 0;
	const gap = Date.parse(next) - Date.parse(previous);
	if (!(gap > 0)) return 0;
	return Math.min(gap, MAX_GAP_MS) / speed;
}

/** The clock a player waits on: the real one in the app, a fake one in tests. */
export type ReplayTimers = {
	now: () => number;
	setTimeout: (run: () => void, ms: number) => unknown;
	clearTimeout: (handle: unknown) => void;
};

/** Where a player's events go: `emit` gets each batch (one moment, or the rest at End); `restart` clears the view. */
export type ReplaySink = { emit: (batch: readonly ReplayEvent[]) => void; restart: () => void };

/** What a replay bar shows: how far the replay is, in events and in recorded time (gaps capped, at speed 1). */
export type ReplayProgress = {
	position: number;
	total: number;
	paused: boolean;
	ended: boolean;
	speed: number;
	/** Recorded time played so far and in all, in ms, with each gap capped at MAX_GAP_MS. */
	playedMs: number;
	totalMs: number;
};

/**
 * Plays recorded events at their recorded pace (`speed` times it, each gap capped at MAX_GAP_MS) through `sink`:
 * pause and play, a step to the next moment, a jump to the end, and from the end a new start. Events recorded at the
 * same instant go out as one batch, so a view redraws once per moment. Only the injected timers tell time: a test
 * drives it with a fake clock. O(events) once to index the times, O(batch) per moment.
 */
export class ReplayPlayer {
	private position = 0;
	private paused = true;
	private timer: unknown = null;
	/** When the next moment is due (timers' clock), while one is scheduled. */
	private dueAt = 0;
	/** What was left of the wait when the player paused (null: the full gap). */
	private left: number | null = null;
	/** Recorded time (capped gaps, at speed 1) from the first event to each event. */
	private readonly offsets: number[];

	constructor(
		private readonly events: readonly ReplayEvent[],
		private readonly sink: ReplaySink,
		private readonly options: { speed: number; timers: ReplayTimers; onChange?: () => void },
	) {
		this.offsets = [];
		let at = 0;
		for (const [i, { ts }] of events.entries()) {
			at += replayGapMs(events[i - 1]?.ts, ts, 1);
			this.offsets.push(at);
		}
	}

	get progress(): ReplayProgress {
		const { position, paused, events, offsets } = this;
		return {
			position,
			total: events.length,
			paused,
			ended: position >= events.length,
			speed: this.options.speed,
			playedMs: position === 0 ? 0 : (offsets[position - 1] ?? 0),
			totalMs: offsets.at(-1) ?? 0,
		};
	}

	/** Plays from where it is; at the end, from the start again (the sink clears its view first). */
	play(): void {
		if (!this.paused && this.timer !== null) return;
		if (this.position >= this.events.length) {
			this.position = 0;
			this.left = null;
			this.sink.restart();
		}
		this.paused = false;
		this.schedule();
		this.changed();
	}

	/** Stops the clock; the wait left until the next moment is kept for `play`. */
	pause(): void {
		if (this.paused) return;
		this.paused = true;
		if (this.timer !== null) this.left = Math.max(0, this.dueAt - this.options.timers.now());
		this.cancel();
		this.changed();
	}

	/** Space: pause while playing, play while paused (or ended). */
	toggle(): void {
		if (this.paused || this.position >= this.events.length) this.play();
		else this.pause();
	}

	/** →: the next moment at once, then paused. Nothing at the end. */
	step(): void {
		this.paused = true;
		this.cancel();
		this.left = null;
		this.emitMoment();
		this.changed();
	}

	/** End: everything left at once, in one batch. */
	end(): void {
		this.cancel();
		this.left = null;
		const rest = this.events.slice(this.position);
		this.position = this.events.length;
		this.paused = true;
		if (rest.length > 0) this.sink.emit(rest);
		this.changed();
	}

	/** Stops for good (the app quits): no timer stays behind. */
	stop(): void {
		this.paused = true;
		this.cancel();
	}

	private schedule(): void {
		this.cancel();
		if (this.position >= this.events.length) {
			this.paused = true;
			return;
		}
		const { speed, timers } = this.options;
		const wait =
			this.left ?? replayGapMs(this.events[this.position - 1]?.ts, this.events[this.position]?.ts ?? "", speed);
		this.left = null;
		this.dueAt = timers.now() + wait;
		this.timer = timers.setTimeout(() => {
			this.timer = null;
			this.emitMoment();
			this.schedule();
			this.changed();
		}, wait);
	}

	/** The event at the position and every one recorded at the same instant after it, as one batch. */
	private emitMoment(): void {
		const { events } = this;
		const start = this.position;
		if (start >= events.length) return;
		let end = start + 1;
		while (end < events.length && replayGapMs(events[end - 1]?.ts, events[end]?.ts ?? "", 1) === 0) end++;
		this.position = end;
		this.sink.emit(events.slice(start, end));
	}

	private cancel(): void {
		if (this.timer !== null) this.options.timers.clearTimeout(this.timer);
		this.timer = null;
	}

	private changed(): void {
		this.options.onChange?.();
	}
}
