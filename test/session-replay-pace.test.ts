// The replay's pacing (src/session/replay-pace.ts) on a fake clock: recorded gaps, capped and scaled; pause keeps the
// wait left; a step is one moment; End is everything; play at the end starts again.
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../src/agent/events.js";
import type { ReplayEvent } from "../src/session/replay.js";
import { MAX_GAP_MS, ReplayPlayer, replayGapMs } from "../src/session/replay-pace.js";
import { fakeTimers } from "./support/fake-timers.js";

const T0 = Date.parse("2026-01-02T03:04:05.000Z");
const at = (ms: number) => new Date(T0 + ms).toISOString();
const note = (message: string): AgentEvent => ({ type: "notice", level: "info", message });

/** Events named a, b, c… recorded at the given offsets (ms). */
function recorded(offsets: number[]): ReplayEvent[] {
	return offsets.map((ms, i) => ({ event: note(String.fromCharCode(97 + i)), ts: at(ms) }));
}

function rig(offsets: number[], speed = 1) {
	const clock = fakeTimers();
	const played: string[] = [];
	const batches: number[] = [];
	let restarts = 0;
	const sink = {
		emit: (batch: readonly ReplayEvent[]) => {
			batches.push(batch.length);
			for (const { event } of batch) if (event.type === "notice") played.push(event.message);
		},
		restart: () => {
			restarts++;
			played.length = 0;
		},
	};
	const player = new ReplayPlayer(recorded(offsets), sink, { speed, timers: clock.timers });
	return { ...clock, player, played, batches, restarts: () => restarts };
}

describe("replayGapMs", () => {
	it("is the recorded gap over the speed, capped before the speed applies", () => {
		expect(replayGapMs(at(0), at(800), 1)).toBe(800);
		expect(replayGapMs(at(0), at(800), 4)).toBe(200);
		expect(replayGapMs(at(0), at(3_600_000), 1)).toBe(MAX_GAP_MS);
		expect(replayGapMs(at(0), at(3_600_000), 2)).toBe(MAX_GAP_MS / 2);
	});

	it("is 0 for the first event, times out of order, and times that do not parse", () => {
		expect(replayGapMs(undefined, at(5), 1)).toBe(0);
		expect(replayGapMs(at(500), at(100), 1)).toBe(0);
		expect(replayGapMs("yesterday", at(100), 1)).toBe(0);
	});
});

describe("ReplayPlayer", () => {
	it("plays each event when its recorded gap has passed on the clock", () => {
		const { player, played, advance } = rig([0, 1000, 1500]);
		player.play();
		// The first event has no gap: it is due at once (a timer of 0 ms).
		advance(0);
		expect(played).toEqual(["a"]);
		advance(999);
		expect(played).toEqual(["a"]);
		advance(1);
		expect(played).toEqual(["a", "b"]);
		advance(500);
		expect(played).toEqual(["a", "b", "c"]);
		expect(player.progress).toMatchObject({ position: 3, total: 3, ended: true, paused: true });
	});

	it("scales gaps by the speed and never waits more than the cap for a long one", () => {
		const { player, played, advance } = rig([0, 2000, 2000 + 3_600_000], 4);
		player.play();
		advance(0);
		advance(499);
		expect(played).toEqual(["a"]);
		advance(1);
		expect(played).toEqual(["a", "b"]);
		// An hour between two prompts is MAX_GAP_MS / speed.
		advance(MAX_GAP_MS / 4 - 1);
		expect(played).toEqual(["a", "b"]);
		advance(1);
		expect(played).toEqual(["a", "b", "c"]);
		expect(player.progress.totalMs).toBe(2000 + MAX_GAP_MS);
	});

	it("emits events recorded at the same instant as one batch (one redraw)", () => {
		const { player, batches, played, advance } = rig([0, 0, 0, 700, 700]);
		player.play();
		advance(0);
		expect(batches).toEqual([3]);
		advance(700);
		expect(batches).toEqual([3, 2]);
		expect(played).toEqual(["a", "b", "c", "d", "e"]);
	});

	it("pauses with the wait left kept, and plays on from there", () => {
		const { player, played, advance, pending } = rig([0, 1000, 2000]);
		player.play();
		advance(0);
		advance(600);
		player.pause();
		expect(pending()).toBe(0);
		expect(player.progress.paused).toBe(true);
		// Paused: nothing plays however long it stays so.
		advance(60_000);
		expect(played).toEqual(["a"]);
		player.play();
		advance(399);
		expect(played).toEqual(["a"]);
		advance(1);
		expect(played).toEqual(["a", "b"]);
	});

	it("toggles between pause and play (space)", () => {
		const { player, advance, played } = rig([0, 1000]);
		player.toggle();
		advance(0);
		expect(player.progress.paused).toBe(false);
		player.toggle();
		expect(player.progress.paused).toBe(true);
		advance(5000);
		expect(played).toEqual(["a"]);
		player.toggle();
		advance(1000);
		expect(played).toEqual(["a", "b"]);
	});

	it("steps to the next moment at once and stays paused (→)", () => {
		const { player, played, advance, pending } = rig([0, 0, 3000, 9000]);
		player.step();
		expect(played).toEqual(["a", "b"]);
		expect(player.progress).toMatchObject({ position: 2, paused: true });
		expect(pending()).toBe(0);
		player.step();
		expect(played).toEqual(["a", "b", "c"]);
		// A step while playing plays the next moment now and pauses.
		player.play();
		advance(1000);
		player.step();
		expect(played).toEqual(["a", "b", "c", "d"]);
		expect(pending()).toBe(0);
		player.step();
		expect(played).toHaveLength(4);
	});

	it("jumps to the end with everything left in one batch (End)", () => {
		const { player, played, batches, advance, pending } = rig([0, 1000, 2000, 3000]);
		player.play();
		advance(0);
		player.end();
		expect(played).toEqual(["a", "b", "c", "d"]);
		expect(batches).toEqual([1, 3]);
		expect(pending()).toBe(0);
		expect(player.progress).toMatchObject({ ended: true, position: 4, playedMs: 3000, totalMs: 3000 });
		player.end();
		expect(batches).toEqual([1, 3]);
	});

	it("plays again from the start once ended (the sink clears its view first)", () => {
		const { player, played, advance, restarts } = rig([0, 1000]);
		player.end();
		player.toggle();
		expect(restarts()).toBe(1);
		advance(0);
		expect(played).toEqual(["a"]);
		advance(1000);
		expect(played).toEqual(["a", "b"]);
	});

	it("leaves no timer behind when stopped", () => {
		const { player, advance, pending, played } = rig([0, 1000]);
		player.play();
		advance(0);
		player.stop();
		expect(pending()).toBe(0);
		advance(10_000);
		expect(played).toEqual(["a"]);
	});

	it("tells its listener of each change, for the bar", () => {
		const clock = fakeTimers();
		let changes = 0;
		const sink = { emit: () => {}, restart: () => {} };
		const player = new ReplayPlayer(recorded([0, 100]), sink, {
			speed: 1,
			timers: clock.timers,
			onChange: () => changes++,
		});
		player.play();
		clock.advance(100);
		expect(changes).toBeGreaterThanOrEqual(3);
		expect(player.progress.playedMs).toBe(100);
	});
});
