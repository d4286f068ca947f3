import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AgentEvent } from "../src/agent/events.js";
import { UiStore } from "../src/ui/state/store.js";
import { initialView } from "../src/view/state.js";

beforeEach(() => {
	vi.useFakeTimers();
});
afterEach(() => {
	vi.useRealTimers();
});

const delta = (text: string): AgentEvent => ({ type: "text_delta", delta: text, contentIndex: 0 });

describe("the UI store", () => {
	it("draws a burst of 20,000 deltas in a handful of frames (at most one per 33 ms), all of them applied", () => {
		let clock = 0;
		const store = new UiStore(initialView({ provider: "p", model: "m" }), { now: () => clock });
		let frames = 0;
		store.subscribe(() => frames++);
		store.onEvent({ type: "message_start", turn: 1, requestId: "r.1" });
		frames = 0;
		// 20,000 deltas over 300 ms of wall time.
		for (let i = 0; i < 20_000; i++) {
			if (i % 200 === 0) {
				clock += 3;
				vi.advanceTimersByTime(3);
			}
			store.onEvent(delta("x"));
		}
		vi.advanceTimersByTime(100);
		expect(frames).toBeGreaterThanOrEqual(2);
		expect(frames).toBeLessThanOrEqual(12);
		const text = store.view.items.at(-1);
		expect(text?.kind === "text" && text.text.length).toBe(20_000);
	});

	it("draws at once for what the person did and for non-streaming events", () => {
		const store = new UiStore(initialView({ provider: "p", model: "m" }));
		let frames = 0;
		store.subscribe(() => frames++);
		store.onEvent({ type: "user_message", message: { role: "user", content: "hi" }, source: "prompt" });
		store.scrollBy(3);
		store.toggleExpanded("i0");
		expect(frames).toBe(3);
	});

	it("leaves no timer behind when idle", () => {
		const store = new UiStore(initialView({ provider: "p", model: "m" }));
		store.onEvent(delta("a"));
		store.onEvent(delta("b"));
		vi.advanceTimersByTime(100);
		expect(vi.getTimerCount()).toBe(0);
	});

	it("keeps the view still while scrolled up and follows again at the bottom", () => {
		const store = new UiStore(initialView({ provider: "p", model: "m" }));
		store.onEvent({ type: "user_message", message: { role: "user", content: "a" }, source: "prompt" });
		store.scrollBy(5);
		expect(store.anchor).toBe(1);
		store.onEvent({ type: "user_message", message: { role: "user", content: "b" }, source: "prompt" });
		expect(store.anchor).toBe(1);
		store.toBottom();
		expect(store.anchor).toBeNull();
		expect(store.scroll).toBe(0);
	});
});

describe("the store's side of an approval question", () => {
	const preview = { kind: "bash", command: "ls", cwd: "/", timeoutMs: 1 } as const;
	const request: AgentEvent = { type: "approval_request", callId: "c1", name: "bash", args: {}, preview };

	it("shows the view's question while an answer is awaited, and hides it once answered", async () => {
		const store = new UiStore(initialView({ provider: "p", model: "m" }));
		store.onEvent(request);
		// The view holds the question; the screen shows it only once someone waits for the answer.
		expect(store.approval).toBeNull();
		const answer = store.ask({ callId: "c1", name: "bash", args: {}, preview });
		expect(store.approval?.request).toBe(store.view.pending);
		// What the screen knows about it (scrolled, read) lasts as long as the question.
		const shown = store.approval;
		if (shown) shown.scroll = 3;
		expect(store.approval?.scroll).toBe(3);
		store.answer({ approved: true });
		expect(store.approval).toBeNull();
		await expect(answer).resolves.toEqual({ approved: true });
		store.onEvent({ type: "approval_result", callId: "c1", approved: true });
		expect(store.view.pending).toBeNull();
	});

	it("starts each question unscrolled, at its first stage", () => {
		const store = new UiStore(initialView({ provider: "p", model: "m" }));
		store.onEvent(request);
		store.awaitAnswer("c1", () => {});
		const first = store.approval;
		if (first) {
			first.stage = "reason";
			first.scroll = 5;
		}
		store.answer({ approved: false });
		store.onEvent({ type: "approval_result", callId: "c1", approved: false });
		store.onEvent({ ...request, callId: "c2" } as AgentEvent);
		store.awaitAnswer("c2", () => {});
		expect(store.approval).toMatchObject({ request: { callId: "c2" }, stage: "ask", scroll: 0 });
	});

	it("answers no for a question the run's end closed, so nothing waits on it", async () => {
		const store = new UiStore(initialView({ provider: "p", model: "m" }));
		store.onEvent(request);
		const answer = store.ask({ callId: "c1", name: "bash", args: {}, preview });
		store.onEvent({
			type: "agent_end",
			runId: "r",
			stopReason: "aborted",
			turns: 1,
			usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			costUsd: 0,
			durationMs: 1,
		});
		expect(store.approval).toBeNull();
		await expect(answer).resolves.toMatchObject({ approved: false });
		// A late key press answers nothing.
		store.answer({ approved: true });
		expect(store.approval).toBeNull();
	});
});
