// Scrolling the chat: what a key costs in a long session, and where the view stays while a reply streams.
import { render } from "ink-testing-library";
import { beforeAll, describe, expect, it } from "vitest";
import type { AgentEvent } from "../src/agent/events.js";
import { loadMarkdown } from "../src/ui/chat/markdown.js";
import { App, type AppInfo } from "../src/ui/screens/App.js";
import { InputModel } from "../src/ui/state/input-model.js";
import { UiStore } from "../src/ui/state/store.js";
import { Chat } from "../src/ui/views/Chat.js";
import { type ChatItem, initialView } from "../src/view/state.js";

// Replies are markdown: the app loads marked and lowlight after its first frame; these tests need them loaded.
beforeAll(loadMarkdown);

const tick = () => new Promise((resolve) => setImmediate(resolve));
const HOME = "\x1b[1~";
const END = "\x1b[4~";
const PAGE_UP = "\x1b[5~";
const PAGE_DOWN = "\x1b[6~";

const info: AppInfo = {
	version: "0.1.0",
	cwd: "~/project",
	branch: "main",
	sessionId: () => null,
	sessionName: () => undefined,
	sessionBranch: () => "–",
	running: () => false,
};
const noop = { submit: () => {}, abort: () => {}, exit: () => {} };

/** A store holding `n` one-line messages, whose items array counts the items read from it. */
function longSession(n: number) {
	const view = initialView({ provider: "p", model: "m" });
	for (let i = 0; i < n; i++) view.items.push({ kind: "user", key: `i${i}`, source: "prompt", text: `message ${i}` });
	const counter = { reads: 0 };
	view.items = new Proxy(view.items, {
		get(target, prop, receiver) {
			if (typeof prop === "string" && /^\d+$/.test(prop)) counter.reads++;
			return Reflect.get(target, prop, receiver);
		},
	});
	return { store: new UiStore(view), counter };
}

/** The chat's rows of a frame (the inspector's column cut off). */
const chatRows = (frame: string | undefined) => (frame ?? "").split("\n").map((row) => row.split("│")[0]?.trimEnd());

describe("scrolling a 100,000-entry session", () => {
	/** The items read by each of Home, PgDn, PgUp and End in a session of `n` one-line messages, and the top rows. */
	async function costs(n: number) {
		const { store, counter } = longSession(n);
		const { lastFrame, stdin, unmount } = render(
			<App store={store} input={new InputModel()} info={info} actions={noop} size={{ columns: 120, rows: 30 }} />,
		);
		expect(lastFrame()).toContain(`you › message ${n - 1}`);
		const reads: number[] = [];
		const tops: (string | undefined)[] = [];
		for (const key of [HOME, PAGE_DOWN, PAGE_UP, END]) {
			counter.reads = 0;
			stdin.write(key);
			await tick();
			reads.push(counter.reads);
			tops.push(chatRows(lastFrame()).find((row) => row?.startsWith("you ›")));
		}
		unmount();
		return { reads, tops };
	}

	it("costs what the screen shows: Home, PgDn from the top and End read as many items as in a short session", async () => {
		const short = await costs(1000);
		const long = await costs(100_000);
		expect(long.tops).toEqual(["you › message 0", "you › message 13", "you › message 0", "you › message 99986"]);
		expect(long.reads).toEqual(short.reads);
		// A screen of 27 chat rows shows 14 messages: each key reads a few items per message on screen, no more.
		for (const reads of long.reads) expect(reads).toBeLessThan(100);
	});
});

describe("scrolling while a reply streams", () => {
	const delta = (text: string): AgentEvent => ({ type: "text_delta", delta: text, contentIndex: 0 });
	const lines = (from: number, to: number) =>
		Array.from({ length: to - from }, (_, i) => `Line ${from + i} of the reply.\n\n`).join("");

	it("holds the view still from the first PgUp while the reply grows below it", async () => {
		const store = new UiStore(initialView({ provider: "p", model: "m" }), { intervalMs: 0 });
		store.onEvent({ type: "user_message", message: { role: "user", content: "go" }, source: "prompt" });
		store.onEvent({ type: "message_start", turn: 1, requestId: "r.1" });
		store.onEvent(delta(lines(0, 40)));
		const chat = () => <Chat store={store} width={60} height={10} version={store.getVersion()} />;
		const { lastFrame, rerender, unmount } = render(chat());
		expect(lastFrame()).toContain("Line 39 of the reply.");
		store.scrollBy(8); // PgUp on a 10-row chat
		rerender(chat());
		const held = lastFrame();
		expect(held).not.toContain("Line 39 of the reply.");
		expect(held).toContain("Line 35 of the reply.");
		for (let n = 40; n < 60; n += 5) {
			store.onEvent(delta(lines(n, n + 5)));
			rerender(chat());
			await tick();
			// The same lines on screen; only the marker row below says more came.
			expect(lastFrame()?.split("\n").slice(0, 9)).toEqual(held?.split("\n").slice(0, 9));
		}
		const item = store.view.items.at(-1) as ChatItem;
		expect(item.kind === "text" && item.streaming).toBe(true);
		// End follows the reply again.
		store.toBottom();
		rerender(chat());
		expect(lastFrame()).toContain("Line 59 of the reply.");
		unmount();
	});
});
