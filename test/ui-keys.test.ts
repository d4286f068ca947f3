import type { Key } from "ink";
import { describe, expect, it } from "vitest";
import type { ApprovalDecision } from "../src/agent/loop.js";
import { NO_KEY } from "../src/ui/keys/keymap.js";
import { createKeyHandler } from "../src/ui/screens/chat-keys.js";
import { InputModel } from "../src/ui/state/input-model.js";
import { UiStore } from "../src/ui/state/store.js";
import { type ChatItem, initialView } from "../src/view/state.js";

const k = (over: Partial<Key> = {}): Key => ({ ...NO_KEY, ...over });

function harness(running = false) {
	let clock = 0;
	// One clock for the keys and the store's events, as in the app (both read Date.now there).
	const store = new UiStore(initialView({ provider: "p", model: "m" }), { now: () => clock });
	const input = new InputModel();
	const log: string[] = [];
	const state = { running };
	const press = createKeyHandler({
		store,
		input,
		running: () => state.running,
		submit: (text) => log.push(`submit:${text}`),
		abort: () => log.push("abort"),
		exit: () => log.push("exit"),
		page: () => 20,
		columns: () => 120,
		now: () => clock,
	});
	return {
		store,
		input,
		log,
		state,
		press,
		advance: (ms: number) => {
			clock += ms;
		},
	};
}

/** Opens a question as the tool runner does (the event, then the ask); returns the answers given to it. */
function ask(store: UiStore): ApprovalDecision[] {
	const answers: ApprovalDecision[] = [];
	const preview = { kind: "bash", command: "ls", cwd: "/", timeoutMs: 1 } as const;
	store.onEvent({ type: "approval_request", callId: "c", name: "bash", args: {}, preview });
	store.awaitAnswer("c", (d) => answers.push(d));
	return answers;
}

describe("the full-screen key handler", () => {
	it("types, edits and sends with Enter; a chunk with Enter in it sends what came before", () => {
		const h = harness();
		h.press("hel", k());
		h.press("lo", k());
		h.press("", k({ delete: true }));
		h.press("", k({ return: true }));
		expect(h.log).toEqual(["submit:hell"]);
		h.press("abc\rdef", k());
		expect(h.log).toEqual(["submit:hell", "submit:abc"]);
		expect(h.input.text).toBe("def");
		h.press("\x7f\x7f", k());
		expect(h.input.text).toBe("d");
	});

	it("Ctrl+C clears the input, aborts a run, and quits when pressed twice within a second", () => {
		const h = harness(true);
		h.press("draft", k());
		h.press("c", k({ ctrl: true }));
		expect(h.input.text).toBe("");
		h.press("c", k({ ctrl: true }));
		expect(h.log).toEqual(["abort"]);
		h.state.running = false;
		h.press("c", k({ ctrl: true }));
		expect(h.store.hint).toContain("Ctrl+C again");
		h.advance(1500);
		h.press("c", k({ ctrl: true }));
		expect(h.log).toEqual(["abort"]);
		h.advance(300);
		h.press("c", k({ ctrl: true }));
		expect(h.log).toEqual(["abort", "exit"]);
	});

	it("Esc aborts a running turn; Ctrl+D quits only on an empty input and when idle", () => {
		const h = harness(true);
		h.press("", k({ escape: true }));
		h.press("d", k({ ctrl: true }));
		expect(h.log).toEqual(["abort"]);
		h.state.running = false;
		h.press("x", k());
		h.press("d", k({ ctrl: true }));
		expect(h.log).toEqual(["abort"]);
		h.press("c", k({ ctrl: true }));
		h.press("d", k({ ctrl: true }));
		expect(h.log).toEqual(["abort", "exit"]);
	});

	it("Ctrl+D during a run says what to do, and quits when pressed again within a second", () => {
		const h = harness(true);
		h.press("d", k({ ctrl: true }));
		expect(h.store.hint).toBe("Esc stops the run; Ctrl+D again quits");
		expect(h.log).toEqual([]);
		h.advance(1500);
		h.press("d", k({ ctrl: true }));
		expect(h.log).toEqual([]);
		h.advance(300);
		h.press("d", k({ ctrl: true }));
		expect(h.log).toEqual(["exit"]);
	});

	it("answers an approval: y once, a for the session, n with a typed reason, Esc denies and stops", () => {
		const h = harness(true);
		let answers = ask(h.store);
		h.press("y", k());
		expect(answers).toEqual([{ approved: true }]);
		expect(h.store.approval).toBeNull();

		answers = ask(h.store);
		h.press("a", k());
		expect(answers).toEqual([{ approved: true, remember: true }]);

		answers = ask(h.store);
		h.press("n", k());
		expect(h.store.approval?.stage).toBe("reason");
		h.press("too risky", k());
		h.press("", k({ return: true }));
		expect(answers).toEqual([{ approved: false, reason: "too risky" }]);
		expect(h.log).toEqual([]); // the reason was not sent as a message

		answers = ask(h.store);
		h.press("", k({ escape: true }));
		expect(answers).toEqual([{ approved: false, reason: "the user stopped the run", stop: true }]);
		expect(h.log).toEqual([]); // Esc answered the question; it did not also abort by itself
	});

	it('takes a key and the Enter typed right after it in one read ("n\\r") as the key, then Enter', () => {
		const h = harness(true);
		let answers = ask(h.store);
		h.press("n\r", k());
		expect(answers).toEqual([{ approved: false, reason: "the user said no" }]);
		answers = ask(h.store);
		h.press("Y\r", k());
		expect(answers).toEqual([{ approved: true }]);
		expect(h.input.empty).toBe(true);
		expect(h.log).toEqual([]);
	});

	it("does not take a y or an a typed without a pause from before the question opened: a letter, not an answer", () => {
		const h = harness(true);
		h.press("t", k());
		h.advance(200);
		h.press("r", k());
		h.advance(100);
		const answers = ask(h.store); // it opens while the person types a steer
		h.advance(150);
		h.press("y", k()); // the next letter of it
		h.advance(150);
		h.press("a", k());
		expect(answers).toEqual([]);
		expect(h.store.hint).toMatch(/opened while you were typing/);
		h.advance(600); // a pause: now a key is an answer
		h.press("y", k());
		expect(answers).toEqual([{ approved: true }]);
	});

	it("takes a y at once when the person was not typing as the question opened, or only answered the one before", () => {
		const h = harness(true);
		h.press("t", k());
		h.advance(800);
		const first = ask(h.store);
		h.advance(50);
		h.press("y", k());
		expect(first).toEqual([{ approved: true }]);
		h.advance(100);
		const second = ask(h.store); // the next call asks at once: its y follows the first one without a pause
		h.advance(100);
		h.press("y", k());
		expect(second).toEqual([{ approved: true }]);
	});

	it("keeps a message being typed when a question opens: through y, and through n with a reason", () => {
		const h = harness(true);
		h.press("half a steer", k());
		h.advance(1000);
		let answers = ask(h.store);
		h.press("y", k());
		expect(answers).toEqual([{ approved: true }]);
		expect(h.input.text).toBe("half a steer");
		answers = ask(h.store);
		h.press("n", k());
		expect(h.input.text).toBe(""); // the reason is typed in its place
		h.press("not now", k());
		h.press("", k({ return: true }));
		expect(answers).toEqual([{ approved: false, reason: "not now" }]);
		expect(h.input.text).toBe("half a steer");
		expect(h.log).toEqual([]);
	});

	it("ignores other keys while a question is open, so typing cannot approve by accident", () => {
		const h = harness(true);
		const answers = ask(h.store);
		h.press("yes please", k());
		expect(answers).toEqual([]);
		h.press("", k({ return: true }));
		expect(answers).toEqual([]);
	});

	it("Ctrl+O folds and unfolds the newest folded item: a message with a paste, a !command's output, thinking", () => {
		const h = harness();
		const pasted: ChatItem = {
			kind: "user",
			key: "u1",
			source: "prompt",
			text: "a\nb",
			pastes: [{ start: 0, end: 3 }],
		};
		h.store.view = { ...h.store.view, items: [{ kind: "user", key: "u0", source: "prompt", text: "plain" }, pasted] };
		h.press("o", k({ ctrl: true }));
		expect([...h.store.expanded]).toEqual(["u1"]);
		h.press("o", k({ ctrl: true }));
		expect([...h.store.expanded]).toEqual([]);
		const shell: ChatItem = { kind: "user", key: "s1", source: "shell", text: "I ran a shell command myself\nls\nx" };
		h.store.view = { ...h.store.view, items: [pasted, shell] };
		h.press("o", k({ ctrl: true }));
		expect([...h.store.expanded]).toEqual(["s1"]);
	});

	it("inserts a bracketed paste as text, never sending it", () => {
		const h = harness();
		h.press("[200~", k());
		h.press("line one\rline two", k());
		h.press("", k({ return: true }));
		h.press("[201~", k());
		expect(h.log).toEqual([]);
		expect(h.input.text).toBe("line one\nline two\n");
	});

	it("scrolls with the wheel, PgUp/PgDn and Shift+arrows; typing returns to the bottom", () => {
		const h = harness();
		h.press("[<64;10;5M", k());
		expect(h.store.scroll).toBe(3);
		h.press("", k({ pageUp: true }));
		expect(h.store.scroll).toBe(21);
		h.press("", k({ shift: true, downArrow: true }));
		expect(h.store.scroll).toBe(20);
		h.press("[<65;10;5M", k());
		expect(h.store.scroll).toBe(17);
		h.press("x", k());
		expect(h.store.scroll).toBe(0);
		expect(h.store.anchor).toBeNull();
	});
});
