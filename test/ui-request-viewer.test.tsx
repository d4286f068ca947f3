// The request viewer (src/ui/screens/DocScreen.tsx over src/ui/state/doc-view.ts and src/view/request-view.ts): the
// exact lines of a small request, folding, search in the folded raw JSON, stepping between calls, Esc back to the
// chat where it was; the chat's Alt+R and /request open it on the right call.
import { render } from "ink-testing-library";
import { beforeAll, describe, expect, it } from "vitest";
import type { AgentEvent, RequestInfo } from "../src/agent/events.js";
import type { AssistantMessage } from "../src/llm/types.js";
import { loadMarkdown } from "../src/ui/chat/markdown.js";
import { App } from "../src/ui/screens/App.js";
import { callIndex, openRequest } from "../src/ui/screens/inspect-open.js";
import { DocView, wrapRow } from "../src/ui/state/doc-view.js";
import { InputModel } from "../src/ui/state/input-model.js";
import { UiStore } from "../src/ui/state/store.js";
import { type RequestReport, requestHeader, requestSections } from "../src/view/request-view.js";
import { initialView } from "../src/view/state.js";
import { appInfo, tick } from "./support/ui-app.js";

beforeAll(loadMarkdown);

const info = appInfo({ cwd: "~/p" });

const usage = { input: 1200, output: 40, cacheRead: 800, cacheWrite: 0 };
const report: RequestReport = {
	requestId: "run_a.2",
	turn: 2,
	provider: "anthropic",
	model: "claude-sonnet-4-5",
	params: { maxTokens: 2048, thinking: null },
	origin: { kind: "rebuilt" },
	body: { model: "claude-sonnet-4-5", messages: [{ role: "user", content: "read the needle file" }] },
	sent: { bodySha256: "ab".repeat(32), bodyBytes: 82 },
	system: {
		tokens: 300,
		parts: [
			{ source: "base", chars: 800, tokens: 200 },
			{ source: "context_file", path: "~/p/AGENTS.md", chars: 400, tokens: 100 },
		],
	},
	tools: { tokens: 100, items: [{ name: "read", tokens: 100 }] },
	messages: {
		tokens: 600,
		items: [
			{
				index: 1,
				role: "user",
				kind: "summary",
				entryId: null,
				tokens: 500,
				preview: "The user asked…",
				replaces: { count: 4, first: "e1", last: "e4" },
			},
			{ index: 2, role: "user", kind: "prompt", entryId: "e5", tokens: 100, preview: "read the needle file" },
		],
	},
	response: {
		stopReason: "stop",
		usage,
		costUsd: 0.0042,
		startedAt: Date.parse("2026-01-02T03:04:05Z"),
		ttftMs: 800,
		durationMs: 2800,
		retries: 1,
	},
};

function app(store: UiStore, actions = {}) {
	const drawn = render(
		<App
			store={store}
			input={new InputModel()}
			info={info}
			actions={{ submit: () => {}, abort: () => {}, exit: () => {}, ...actions }}
			size={{ columns: 100, rows: 16 }}
		/>,
	);
	const lines = () => (drawn.lastFrame() ?? "").split("\n").map((line) => line.trimEnd());
	const press = async (text: string) => {
		drawn.stdin.write(text);
		await tick();
		await tick();
	};
	return { lines, press, unmount: drawn.unmount };
}

function opened(store: UiStore) {
	store.doc = { doc: new DocView(requestHeader(report), requestSections(report)), title: "Request 2 of 2 · run_a.2" };
	store.openScreen("doc");
}

describe("the request viewer", () => {
	it("draws the header line, the call and its exactness, and every section folded with its size and share", async () => {
		const store = new UiStore(initialView({ provider: "anthropic", model: "claude-sonnet-4-5" }));
		opened(store);
		const a = app(store);
		await tick();
		expect(a.lines().slice(0, 12)).toEqual([
			" Request 2 of 2 · run_a.2",
			// The header line wraps at the width, like every long line here.
			"anthropic/claude-sonnet-4-5 · stop · ↑2k ↓40 · cache r 800 w 0 · $0.0042 · TTFT 800 ms · 2.8 s · 20",
			"tok/s · 1 retry",
			"request run_a.2 · turn 2 · ~1k tokens · max_tokens 2048",
			"exact: rebuilt from the session; its sha256 is the one recorded when it was sent",
			"",
			"▸ 1 System prompt  300 tok · 30%",
			"▸ 2 Tools  100 tok · 10% · 1",
			"▸ 3 Messages  600 tok · 60% · 2 messages",
			"▸ 4 Headers",
			"▸ 5 Raw JSON  82 bytes · sha256 abababababababab…",
			"▸ 6 Response",
		]);
		expect(a.lines().at(-1)).toBe("11/11 · Esc back · Tab/Enter/1-9 fold · / find · n p");
		a.unmount();
	});

	it("folds with a section's number, Tab and Enter; a summary shows the entries it replaced", async () => {
		const store = new UiStore(initialView({ provider: "anthropic", model: "claude-sonnet-4-5" }));
		opened(store);
		const a = app(store);
		await a.press("3");
		const rows = a.lines();
		expect(rows).toContain("▾ 3 Messages  600 tok · 60% · 2 messages");
		expect(rows).toContain(
			`    ${"  1 user · summary".padEnd(34)} ${"replaces 4 entries (e1 … e4)".padEnd(22)} ${"500 tok · 50%".padEnd(16)} The user asked…`,
		);
		expect(rows.some((row) => row.includes("  2 user · prompt") && row.includes("entry e5"))).toBe(true);
		await a.press("3");
		expect(a.lines()).toContain("▸ 3 Messages  600 tok · 60% · 2 messages");
		// Shift+Tab selects the section before (Messages was selected), Enter opens it.
		await a.press("\u001b[Z");
		await a.press("\r");
		expect(a.lines()).toContain("▾ 2 Tools  100 tok · 10% · 1");
		expect(a.lines().some((row) => row.startsWith("    read") && row.endsWith("100 tok · 10%"))).toBe(true);
		a.unmount();
	});

	it("searches the folded raw JSON with /, opens it at the match, and n goes on; Esc returns to the chat", async () => {
		const store = new UiStore(initialView({ provider: "anthropic", model: "claude-sonnet-4-5" }));
		store.onEvent({ type: "user_message", message: { role: "user", content: "before" }, source: "prompt" });
		opened(store);
		const a = app(store);
		await a.press("/");
		await a.press("needle");
		expect(a.lines().at(-1)).toBe("/needle▏ Enter find · Esc cancel");
		await a.press("\r");
		// The first match is in the folded messages, the second in the folded raw JSON: each opens where it is.
		expect(a.lines()).toContain("▾ 3 Messages  600 tok · 60% · 2 messages");
		expect(a.lines().at(-1)).toContain("match 1 of 2");
		await a.press("n");
		const rows = a.lines();
		expect(rows).toContain("▾ 5 Raw JSON  82 bytes · sha256 abababababababab…");
		expect(rows.some((row) => row.includes('"content": "read the needle file"'))).toBe(true);
		expect(rows.at(-1)).toContain("match 2 of 2");
		await a.press("\u001b");
		expect(store.screen).toBe("chat");
		expect(a.lines().some((row) => row.includes("you › before"))).toBe(true);
		a.unmount();
	});

	it("reads keys typed faster than they are read (one chunk) one by one: a search typed at once runs", async () => {
		const store = new UiStore(initialView({ provider: "anthropic", model: "claude-sonnet-4-5" }));
		opened(store);
		const a = app(store);
		await a.press("/needle\r");
		expect(a.lines()).toContain("▾ 3 Messages  600 tok · 60% · 2 messages");
		expect(a.lines().at(-1)).toContain("match 1 of 2");
		// The sections stay as they were: the Enter ran the search, it did not fold the selected section.
		expect(a.lines()).toContain("▸ 1 System prompt  300 tok · 30%");
		a.unmount();
	});

	it("shows only the rows on screen of a long document, wrapped at the width", () => {
		const rows = Array.from({ length: 50_000 }, (_, i) => ({ text: `row ${i} ${"x".repeat(i % 300)}` }));
		const doc = new DocView([], [{ id: "raw", title: "Raw", rows: () => rows }]);
		doc.toggle(0);
		const shown = doc.visible(80, 10);
		expect(shown).toHaveLength(10);
		expect(shown[1]?.text).toBe("    row 0 ");
		doc.scrollBy(Number.MAX_SAFE_INTEGER, 80, 10);
		expect(doc.visible(80, 10).at(-1)?.text.length).toBeLessThanOrEqual(80);
		expect(wrapRow("漢字漢字漢", 4)).toEqual(["漢字", "漢字", "漢"]);
		expect(wrapRow("abcdefghij", 4)).toEqual(["abcd", "efgh", "ij"]);
	});
});

const info1: RequestInfo = {
	requestId: "run_b.1",
	turn: 1,
	provider: "anthropic",
	model: "m",
	params: { maxTokens: null, thinking: null },
	system: { hash: "h", chars: 40, tokens: 10, parts: [{ source: "base", chars: 40, tokens: 10 }] },
	tools: { names: [], hash: "t", chars: 2, tokens: 1 },
	messages: { count: 1, tokens: 2 },
};
const reply = (text: string): AssistantMessage => ({
	role: "assistant",
	content: [{ type: "text", text }],
	provider: "anthropic",
	model: "m",
	usage,
	stopReason: "stop",
});
function call(id: string, turn: number, text: string): AgentEvent[] {
	return [
		{ type: "request", ...info1, requestId: id, turn },
		{ type: "message_start", turn, requestId: id },
		{ type: "text_delta", delta: text, contentIndex: 0 },
		{
			type: "message_end",
			requestId: id,
			turn,
			message: reply(text),
			costUsd: null,
			timing: { startedAt: 0, firstTokenMs: 100, durationMs: 400 },
			retries: 0,
		},
	];
}

describe("opening the viewer from the chat", () => {
	const conversation = { recentRequest: () => undefined, session: null } as never;

	it("/request N names a call by its number (or -N from the end, or its id); a wrong one says what exists", () => {
		expect(callIndex("", ["a", "b", "c"])).toBe(2);
		expect(callIndex("1", ["a", "b", "c"])).toBe(0);
		expect(callIndex("-2", ["a", "b", "c"])).toBe(1);
		expect(callIndex("b", ["a", "b", "c"])).toBe(1);
		expect(callIndex("7", ["a", "b", "c"])).toBe("there are 3 model calls: /request takes 1 to 3 (or -1 for the last)");
		expect(callIndex("", [])).toBe("no model call yet in this conversation");
	});

	it("Alt+R opens the call at the top of the screen, the latest when following; [ and ] step between calls", async () => {
		const store = new UiStore(initialView({ provider: "anthropic", model: "m" }));
		store.onEvent({
			type: "agent_start",
			runId: "run_b",
			provider: "anthropic",
			model: "m",
			maxTurns: 5,
			contextWindow: null,
		});
		for (const event of [...call("run_b.1", 1, "first"), ...call("run_b.2", 2, "second")]) store.onEvent(event);
		const a = app(store, { openRequest: (id: string) => openRequest(store, { conversation }, id) });
		await a.press("\u001br");
		expect(store.screen).toBe("doc");
		expect(a.lines()[0]).toBe(" Request 2 of 2 · run_b.2");
		// Without the session or the request in memory, the viewer says what it cannot show.
		expect(a.lines()).toContain(
			"not rebuilt: the conversation is not saved, and only its last 8 calls are kept in memory",
		);
		await a.press("[");
		expect(a.lines()[0]).toBe(" Request 1 of 2 · run_b.1");
		await a.press("\u001b");
		expect(store.screen).toBe("chat");
		// Scrolled up to the first reply: Alt+R opens the call at the top of the screen.
		store.top = { index: 0, line: 0 };
		await a.press("\u001br");
		expect(a.lines()[0]).toBe(" Request 1 of 2 · run_b.1");
		a.unmount();
	});
});
