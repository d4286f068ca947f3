// The app in replay mode (gar replay in a terminal): the replay screen plays a recorded session through the same panes
// and reducer as a live run, on a fake clock; the inspector follows the replayed run; space, → and End drive it; typing
// sends nothing; q quits.
import { join } from "node:path";
import { render } from "ink-testing-library";
import { beforeAll, describe, expect, it } from "vitest";
import { loadSession } from "../src/session/load.js";
import { replayNotes } from "../src/session/replay-notes.js";
import { loadMarkdown } from "../src/ui/chat/markdown.js";
import { replayInto } from "../src/ui/replay.js";
import { App, type AppInfo } from "../src/ui/screens/App.js";
import { InputModel } from "../src/ui/state/input-model.js";
import { UiStore } from "../src/ui/state/store.js";
import { clock, replayLine } from "../src/ui/views/ReplayBar.js";
import { initialView } from "../src/view/state.js";
import { tempDirsPerTest } from "./fixtures/session/run.js";
import { writePlainSession } from "./support/export-sessions.js";
import { fakeTimers } from "./support/fake-timers.js";

beforeAll(loadMarkdown);
const tmp = tempDirsPerTest();
const tick = () => new Promise((resolve) => setImmediate(resolve));
const KEYS = { space: " ", right: "\x1b[C", end: "\x1b[F" };

function rig(continueWith = "gar --session abc") {
	const writer = writePlainSession(tmp());
	const store = new UiStore(initialView({ provider: "", model: "" }), { intervalMs: 0 });
	store.openScreen("replay");
	const clock = fakeTimers();
	const told: string[] = [];
	const options = {
		session: writer.session,
		leafId: writer.session.leafId,
		speed: 1,
		notes: { end: "the replay stopped at entry x" },
		continueWith,
	};
	const player = replayInto(store, options, { timers: clock.timers, tell: (m) => told.push(m) });
	let exits = 0;
	const info: AppInfo = {
		version: "0.1.0",
		cwd: "~/app",
		branch: null,
		sessionId: () => writer.session.header.id,
		sessionName: () => writer.session.name,
		sessionBranch: () => "1 of 1",
		running: () => false,
	};
	const actions = { submit: () => expect.fail("a replay sends nothing"), abort: () => {}, exit: () => exits++ };
	const app = render(
		<App store={store} input={new InputModel()} info={info} actions={actions} size={{ columns: 130, rows: 30 }} />,
	);
	const frame = () => app.lastFrame() ?? "";
	const press = async (text: string) => {
		app.stdin.write(text);
		await tick();
		await tick();
	};
	return { store, clock, player, told, frame, press, exits: () => exits, unmount: app.unmount };
}

describe("the replay screen", () => {
	it("plays the session at its recorded pace, the inspector following the replayed run", async () => {
		const { store, clock, player, frame, unmount } = rig();
		expect(frame()).toContain("❚❚ replay paused · 1× · 0/");
		player.play();
		clock.advance(0);
		await tick();
		expect(frame()).toContain("you › The tests fail.");
		expect(frame()).toMatch(/state\s+● waiting for the model/);
		expect(frame()).toMatch(/▶ replay · 1× · \d+\/\d+ events/);
		// On to the first reply's end, as the clock passes its recorded time.
		while (store.view.lastCall === null) clock.advance(50);
		await tick();
		expect(frame()).toMatch(/context\s+█░+ 11% of 200k/);
		expect(frame()).toMatch(/tokens\s+↑22k ↓300/);
		expect(frame()).toMatch(/cost\s+\$0\.012/);
		expect(frame()).toContain("Let me run the tests.");
		while (!store.view.toolCounts.bash) clock.advance(50);
		await tick();
		expect(frame()).toMatch(/tools\s+bash 1/);
		expect(frame()).toContain("▸ bash npm test  exit 1 · 850 ms");
		unmount();
	});

	it("pauses with space, steps with → and jumps to the end with End", async () => {
		const { store, clock, player, frame, press, unmount } = rig();
		player.play();
		clock.advance(1500);
		await press(KEYS.space);
		expect(frame()).toContain("❚❚ replay paused");
		const at = store.replay?.progress.position ?? 0;
		clock.advance(60_000);
		await tick();
		expect(store.replay?.progress.position).toBe(at);
		await press(KEYS.right);
		expect(store.replay?.progress.position).toBeGreaterThan(at);
		expect(store.replay?.progress.paused).toBe(true);
		await press(KEYS.end);
		expect(frame()).toContain("■ replay ended");
		expect(frame()).toMatch(/tokens\s+↑66k ↓900/);
		expect(frame()).toMatch(/cost\s+\$0\.042/);
		expect(frame()).toMatch(/tools\s+bash 1 · edit 1/);
		expect(frame()).toContain("done · 3 turns · ↑66k ↓900 · $0.042 · 5.0 s");
		// Space at the end plays it again from the start.
		await press(KEYS.space);
		clock.advance(0);
		await tick();
		expect(store.replay?.progress.ended).toBe(false);
		expect(frame()).not.toContain("done · 3 turns");
		expect(frame()).toMatch(/tokens\s+↑0 ↓0/);
		unmount();
	});

	it("is read-only: typing says so and sends nothing; q quits", async () => {
		const { frame, press, exits, unmount } = rig();
		await press("fix it");
		expect(frame()).toContain("a replay is read-only: nothing is sent · q quits · to continue it: gar --session abc");
		expect(frame()).not.toContain("fix it");
		await press("\r");
		expect(exits()).toBe(0);
		await press("q");
		expect(exits()).toBe(1);
		unmount();
	});

	it("shows the command that continues a session with its control characters visible", async () => {
		const { frame, press, unmount } = rig("gar --cwd '/tmp/\x1b]0;pwned\x07' --session abc");
		await press("x");
		expect(frame()).toContain("to continue it: gar --cwd '/tmp/␛]0;pwned^G' --session abc");
		unmount();
	});

	it("tells where a damaged file stopped the replay, once it gets there", async () => {
		const { told, press, unmount } = rig();
		expect(told).toEqual([]);
		await press(KEYS.end);
		expect(told).toEqual(["the replay stopped at entry x"]);
		unmount();
	});
});

describe("a damaged file in the app", () => {
	it("tells the loader's warnings and where the path starts at once, and where it stopped at the end", () => {
		const session = loadSession(join(import.meta.dirname, "fixtures", "session", "damaged.jsonl"));
		const store = new UiStore(initialView({ provider: "", model: "" }), { intervalMs: 0 });
		const clock = fakeTimers();
		const told: string[] = [];
		const notes = replayNotes(session, session.leafId);
		const options = { session, leafId: session.leafId, speed: 1, notes, continueWith: "" };
		const player = replayInto(store, options, { timers: clock.timers, tell: (m) => told.push(m) });
		expect(told).toEqual([...session.warnings, notes.start]);
		expect(notes.start).toMatch(/^this path starts at entry u3: its parent gone000000 is not in the file/);
		player.end();
		expect(told.at(-1)).toMatch(/^the replay stopped at entry u4 \(2026-01-02T03:04:13\.000Z\)/);
		const users = store.view.items.flatMap((i) => (i.kind === "user" ? [i.text] : []));
		expect(users).toEqual(["my parent was lost", "last good"]);
	});
});

describe("the replay line", () => {
	const progress = {
		position: 34,
		total: 120,
		paused: false,
		ended: false,
		speed: 2,
		playedMs: 12_000,
		totalMs: 3_725_000,
	};

	it("says where the replay is and which keys apply, all of it on a wide row", () => {
		const { state, rest } = replayLine(progress, 200);
		expect(state + rest).toBe(
			"▶ replay · 2× · 34/120 events · 0:12 / 1:02:05 · space pauses · → steps · End to the end · q quits · read-only: nothing is sent",
		);
	});

	it("keeps, on a narrow row, how far it is and the keys to pause and quit, each part whole", () => {
		const { state, rest } = replayLine({ ...progress, paused: true }, 60);
		expect(state + rest).toBe("❚❚ replay paused · 34/120 events · space plays · q quits");
		expect(replayLine({ ...progress, ended: true, position: 120 }, 60).state).toBe("■ replay ended");
		expect(clock(59_999)).toBe("0:59");
	});
});
