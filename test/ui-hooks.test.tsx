// Hooks in the full-screen app: a hook run's line in the chat, the inspector's count, the approval dialog a hook's
// "ask" opens (with its reason), a hook's context as the person sees it, and the terminal's focus reports.
import type { Key } from "ink";
import { render } from "ink-testing-library";
import { beforeAll, describe, expect, it } from "vitest";
import type { AgentEvent, HookRun } from "../src/agent/events.js";
import { loadMarkdown } from "../src/ui/chat/markdown.js";
import { renderItem } from "../src/ui/chat/render-item.js";
import { App } from "../src/ui/screens/App.js";
import { createKeyHandler } from "../src/ui/screens/chat-keys.js";
import { InputModel } from "../src/ui/state/input-model.js";
import { UiStore } from "../src/ui/state/store.js";
import { darkTheme } from "../src/ui/theme/theme.js";
import { reduce } from "../src/view/reducer.js";
import { type ChatItem, initialView } from "../src/view/state.js";
import { appInfo } from "./support/ui-app.js";

beforeAll(loadMarkdown);

const info = appInfo({ running: () => true });
const noop = { submit: () => {}, abort: () => {}, exit: () => {} };

const run = (extra: Partial<HookRun> = {}): HookRun => ({
	event: "PreToolUse",
	name: "guard.sh",
	command: "~/guard.sh",
	source: "/home/me/.config/gar/config.toml",
	callId: "c1",
	tool: "bash",
	status: "ok",
	exitCode: 2,
	durationMs: 12,
	decision: "deny",
	reason: "rm -rf is not allowed",
	...extra,
});

const text = (item: ChatItem, expanded = false) =>
	renderItem(item, 100, darkTheme, { expanded }).map((line) => line.spans.map((s) => s.text).join(""));

function frame(store: UiStore, columns = 120, rows = 24): string {
	const app = render(
		<App store={store} input={new InputModel()} info={info} actions={noop} size={{ columns, rows }} />,
	);
	const out = app.lastFrame() ?? "";
	app.unmount();
	return out;
}

describe("a hook run in the chat", () => {
	it("is one line (wrapped, never cut), in the warning colour when it blocked, red when the hook failed", () => {
		const blocked = renderItem({ kind: "hook", key: "h", run: run() }, 100, darkTheme, { expanded: false });
		expect(blocked.map((l) => l.spans.map((s) => s.text).join(""))).toEqual([
			"↪ pre-tool hook guard.sh (bash) blocked: rm -rf is not allowed (exit 2 · 12 ms)",
		]);
		expect(blocked[0]?.spans[0]?.color).toBe(darkTheme.warning);
		const failed = run({ status: "timeout", exitCode: null, decision: undefined, reason: undefined, message: "x" });
		expect(
			renderItem({ kind: "hook", key: "h", run: failed }, 100, darkTheme, { expanded: false })[0]?.spans[0]?.color,
		).toBe(darkTheme.error);
		const narrow = renderItem({ kind: "hook", key: "h", run: run() }, 40, darkTheme, { expanded: false });
		expect(
			narrow.map((l) =>
				l.spans
					.map((s) => s.text)
					.join("")
					.trimEnd(),
			),
		).toEqual(["↪ pre-tool hook guard.sh (bash) blocked:", "  rm -rf is not allowed (exit 2 · 12 ms)"]);
	});

	it("is drawn under its tool call's header, and the inspector counts hook runs (no row without hooks)", () => {
		const store = new UiStore(initialView({ provider: "p", model: "m" }));
		expect(frame(store)).not.toMatch(/hooks\s/);
		const events: AgentEvent[] = [
			{ type: "toolcall_start", callId: "c1", name: "bash", contentIndex: 0 },
			{ type: "hook", ...run() },
			{
				type: "hook",
				...run({
					status: "error",
					exitCode: 127,
					decision: undefined,
					reason: undefined,
					message: "exit 127, command not found",
				}),
			},
		];
		for (const event of events) store.view = reduce(store.view, event, 0);
		const shown = frame(store);
		const lines = shown.split("\n");
		const blocked = lines.findIndex((l) => l.includes("pre-tool hook guard.sh (bash) blocked: rm -rf is not allowed"));
		const tool = lines.findIndex((l) => l.startsWith("▸ bash"));
		expect(tool).toBeGreaterThan(-1);
		expect(blocked).toBe(tool + 1);
		expect(lines[blocked]).toMatch(/^ {2}↪ pre-tool hook/);
		expect(shown).toMatch(/hooks\s+2 runs · 1 blocked · 1 failed/);
	});

	it("context a hook gave the model shows as one muted line, the rest behind Ctrl+O", () => {
		const item: ChatItem = {
			kind: "user",
			key: "u",
			text: "Context from the SessionStart hook git.sh:\nbranch main",
			source: "hook",
		};
		expect(text(item)).toEqual(["hook › Context from the SessionStart hook git.sh: (1 more lines: Ctrl+O)"]);
		expect(text(item, true)).toEqual(["hook › Context from the SessionStart hook git.sh:", "       branch main"]);
	});
});

describe("a PreToolUse hook's ask", () => {
	it("opens the approval dialog with the hook's reason", () => {
		const store = new UiStore(initialView({ provider: "p", model: "m" }));
		const reason = "the PreToolUse hook guard.sh: it deploys to production";
		const preview = { kind: "bash" as const, command: "make deploy", cwd: "/w", timeoutMs: 120_000 };
		store.onEvent({ type: "approval_request", callId: "c1", name: "bash", args: {}, preview, reason });
		store.awaitAnswer("c1", () => {});
		const shown = frame(store, 100, 30);
		const panel = shown.split("\n").filter((l) => l.startsWith("│"));
		expect(panel.some((l) => l.includes(reason))).toBe(true);
		expect(panel.some((l) => l.includes("$ make deploy"))).toBe(true);
	});
});

describe("focus reports", () => {
	it("tell the conversation whether the terminal has focus, and are never typed", () => {
		const store = new UiStore(initialView({ provider: "p", model: "m" }));
		const input = new InputModel();
		const focus: boolean[] = [];
		store.onFocus = (focused) => focus.push(focused);
		const press = createKeyHandler({
			store,
			input,
			running: () => false,
			submit: () => {},
			abort: () => {},
			exit: () => {},
			page: () => 20,
			columns: () => 120,
		});
		const key = {} as Key;
		press("[O", key);
		press("[I", key);
		expect(focus).toEqual([false, true]);
		expect(input.text).toBe("");
	});
});
