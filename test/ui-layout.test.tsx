// The chat screen's layout (src/ui/state/layout.ts): terminal size + store state → the rows and columns of each part,
// worked out without changing anything; and the app draws its parts where it says.
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import type { ToolPreview } from "../src/tools/types.js";
import { App, type AppInfo } from "../src/ui/screens/App.js";
import { InputModel } from "../src/ui/state/input-model.js";
import { chatLayout, frameRows, inputTextWidth } from "../src/ui/state/layout.js";
import { UiStore } from "../src/ui/state/store.js";
import { initialView } from "../src/view/state.js";

const oneRow = () => 1;
const store = () => new UiStore(initialView({ provider: "p", model: "m" }));
const bash = (lines: number): ToolPreview => ({
	kind: "bash",
	command: Array.from({ length: lines }, (_, i) => `echo ${i}`).join("\n"),
	cwd: "/work",
	timeoutMs: 1000,
});

/** Opens an approval question as the tool runner does (the event, then the ask). */
function ask(s: UiStore, preview: ToolPreview): void {
	s.onEvent({ type: "approval_request", callId: "c1", name: "bash", args: {}, preview });
	s.awaitAnswer("c1", () => {});
}

describe("the chat screen's layout", () => {
	it("gives the chat what the status bar and the input leave, beside the inspector where it fits", () => {
		const wide = chatLayout({ columns: 120, rows: 30 }, store(), oneRow, false);
		expect(wide).toMatchObject({ columns: 120, height: 29, inspector: true, queued: 0, hint: false, approval: null });
		expect(wide.chat).toEqual({ width: 120 - 44 - 1 - 1, height: 29 - 1 - 1 });
		expect(wide.input).toEqual({
			action: "send",
			prompt: "› ",
			width: inputTextWidth(120, "send"),
			shown: true,
			height: 1,
		});
		const narrow = chatLayout({ columns: 99, rows: 30 }, store(), oneRow, false);
		expect(narrow.inspector).toBe(false);
		expect(narrow.chat.width).toBe(99);
		const hidden = store();
		hidden.inspector = false;
		expect(chatLayout({ columns: 120, rows: 30 }, hidden, oneRow, false).chat.width).toBe(120);
	});

	it("takes a row for each queued message and for the hint, and the input's rows at its text width", () => {
		const s = store();
		s.onEvent({ type: "queue", steers: ["one"], followUps: ["two", "three"] });
		s.setHint("press Ctrl+C again to quit");
		const widths: number[] = [];
		const layout = chatLayout(
			{ columns: 120, rows: 30 },
			s,
			(width) => {
				widths.push(width);
				return 4;
			},
			true,
		);
		expect(layout.queued).toBe(3);
		expect(layout.hint).toBe(true);
		expect(layout.input.action).toBe("steer");
		expect(widths).toEqual([inputTextWidth(120, "steer")]);
		expect(layout.chat.height).toBe(29 - 1 - 3 - 1 - 4);
	});

	it("gives an approval question at most half the screen and hides the input until a reason is typed", () => {
		const s = store();
		ask(s, bash(40));
		const asking = chatLayout({ columns: 80, rows: 30 }, s, oneRow, true);
		expect(asking.approval?.height).toBe(14);
		expect(asking.input).toMatchObject({ shown: false, prompt: "reason › " });
		expect(asking.chat.height).toBe(29 - 1 - 14);
		const short = store();
		ask(short, bash(1));
		expect(chatLayout({ columns: 80, rows: 30 }, short, oneRow, true).approval?.height).toBeLessThan(14);
		const approval = s.approval;
		if (approval) approval.stage = "reason";
		const reason = chatLayout({ columns: 80, rows: 30 }, s, oneRow, true);
		expect(reason.input).toMatchObject({ shown: true, action: "deny with this reason", prompt: "reason › " });
		expect(reason.chat.height).toBe(29 - 1 - (reason.approval?.height ?? 0) - 1);
	});

	it("keeps the frame at least six rows and the chat at least one on a tiny terminal", () => {
		expect(frameRows({ columns: 80, rows: 3 })).toBe(6);
		const tiny = chatLayout({ columns: 40, rows: 3 }, store(), () => 10, false);
		expect(tiny.height).toBe(6);
		expect(tiny.chat.height).toBe(1);
	});

	it("changes nothing: the store, the question and the input are as they were", () => {
		const s = store();
		ask(s, bash(40));
		const input = new InputModel();
		input.insert("some text");
		const before = { version: s.getVersion(), question: structuredClone(s.approval), width: input.width };
		const versionOfInput = input.getVersion();
		for (const columns of [40, 80, 120]) chatLayout({ columns, rows: 24 }, s, (w) => input.heightAt(w), false);
		expect(s.getVersion()).toBe(before.version);
		expect(structuredClone(s.approval)).toEqual(before.question);
		expect(input.width).toBe(before.width);
		expect(input.getVersion()).toBe(versionOfInput);
	});

	it("is where the app draws each part", () => {
		const s = store();
		s.onEvent({ type: "queue", steers: ["one"], followUps: [] });
		s.setHint("a hint");
		const info: AppInfo = {
			version: "0.1.0",
			cwd: "~/p",
			branch: null,
			sessionId: () => null,
			sessionName: () => undefined,
			sessionBranch: () => "–",
			running: () => false,
		};
		const size = { columns: 90, rows: 20 };
		const layout = chatLayout(size, s, oneRow, false);
		const noop = { submit: () => {}, abort: () => {}, exit: () => {} };
		const { lastFrame, unmount } = render(
			<App store={s} input={new InputModel()} info={info} actions={noop} size={size} />,
		);
		const rows = (lastFrame() ?? "").split("\n");
		expect(rows).toHaveLength(layout.height);
		expect(rows[1 + layout.chat.height]).toContain("⏳ steer: one");
		expect(rows[2 + layout.chat.height]).toContain("a hint");
		expect(rows[3 + layout.chat.height]).toContain("› ");
		unmount();
	});
});
