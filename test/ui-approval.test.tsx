import { render } from "ink-testing-library";
import { beforeAll, describe, expect, it } from "vitest";
import type { ApprovalDecision } from "../src/agent/loop.js";
import stringWidth from "../src/term/string-width.js";
import type { ToolPreview } from "../src/tools/types.js";
import { loadMarkdown } from "../src/ui/chat/markdown.js";
import { App } from "../src/ui/screens/App.js";
import { layoutApproval, wrapExact } from "../src/ui/state/approval-layout.js";
import { InputModel } from "../src/ui/state/input-model.js";
import { UiStore } from "../src/ui/state/store.js";
import { initialView } from "../src/view/state.js";
import { appInfo, tick } from "./support/ui-app.js";

beforeAll(loadMarkdown);

const info = appInfo({ running: () => true });
const noop = { submit: () => {}, abort: () => {}, exit: () => {} };

/** Opens a question as the tool runner does (the event, then the ask); returns the answers given to it. */
function ask(store: UiStore, name: string, preview: ToolPreview): ApprovalDecision[] {
	const answers: ApprovalDecision[] = [];
	store.onEvent({ type: "approval_request", callId: "c1", name, args: {}, preview });
	store.awaitAnswer("c1", (d) => answers.push(d));
	return answers;
}

/** The app at `columns` × `rows` with an approval question open; `answers` collects what the keys answered. */
function open(name: string, preview: ToolPreview, columns = 80, rows = 30) {
	const store = new UiStore(initialView({ provider: "p", model: "m" }));
	const answers = ask(store, name, preview);
	const app = render(
		<App store={store} input={new InputModel()} info={info} actions={noop} size={{ columns, rows }} />,
	);
	const frame = () => app.lastFrame() ?? "";
	/** The panel's rows: from its top border to its bottom border, borders included. */
	const panel = () => {
		const lines = frame().split("\n");
		const top = lines.findIndex((l) => l.startsWith("┌"));
		const bottom = lines.findIndex((l, i) => i > top && l.startsWith("└"));
		return lines.slice(top, bottom + 1);
	};
	const press = async (text: string) => {
		app.stdin.write(text);
		await tick();
	};
	return { store, answers, app, frame, panel, press };
}

const DOWN = "\u001b[B";
const UP = "\u001b[A";
const PAGE_DOWN = "\u001b[6~";
const ESC = "\u001b";

const bash = (command: string): ToolPreview => ({ kind: "bash", command, cwd: "/work/project", timeoutMs: 120_000 });
const write = (lines: number): ToolPreview => {
	const body = Array.from({ length: lines }, (_, i) => `+line ${i + 1}`).join("\n");
	return {
		kind: "write",
		path: "/work/project/big.txt",
		action: "create",
		lines,
		bytes: 100,
		added: lines,
		removed: 0,
		diff: `--- /dev/null\n+++ big.txt\n@@ -0,0 +1,${lines} @@\n${body}\n`,
		diffTruncated: false,
	};
};

describe("the approval dialog", () => {
	it("wraps a long command instead of cutting it, and marks a long run of spaces", async () => {
		const { panel, app } = open("bash", bash(`ls -la${" ".repeat(300)}; rm -rf important`));
		const text = panel().join("\n");
		expect(text).toContain("; rm -rf important");
		expect(text).toContain("␣×300");
		for (const row of panel()) expect(row.length).toBeLessThanOrEqual(80);
		app.unmount();
	});

	it("wraps a long diff line: every character is on screen, continuation rows marked ↪", async () => {
		const long = `const x = ${Array.from({ length: 40 }, (_, i) => `item${i}`).join(" + ")};`;
		const preview: ToolPreview = {
			kind: "edit",
			path: "/work/project/a.ts",
			firstChangedLine: 1,
			added: 1,
			removed: 1,
			diff: `--- a.ts\n+++ a.ts\n@@ -1 +1 @@\n-old\n+${long}\n`,
			diffTruncated: false,
		};
		const { panel, app } = open("edit", preview);
		const rows = panel().slice(1, -1);
		// The rows of the long line, without the border, the padding and the continuation marks, are the line.
		const start = rows.findIndex((r) => r.startsWith("│ +const"));
		const parts = [];
		for (let i = start; i < rows.length; i++) {
			const inner = (rows[i] as string).slice(2, -2).trimEnd();
			if (i > start && !inner.startsWith("↪")) break;
			parts.push(i === start ? inner.slice(1) : inner.slice(1));
		}
		expect(parts.length).toBeGreaterThan(1);
		expect(parts.join("")).toBe(long);
		app.unmount();
	});

	it("keeps its headline and its whole keys line when the preview is taller than its space (80 columns)", async () => {
		const { panel, app } = open("write", write(60));
		const rows = panel();
		expect(rows[1]).toContain("write: create /work/project/big.txt (60 lines)");
		expect(rows.join("\n")).toContain("y allow once · a allow write for this session · n deny · Esc deny and stop");
		// The panel is as tall as App gave it: half of the 29 rows the root has.
		expect(rows.length).toBe(14);
		app.unmount();
	});

	it("says how many lines are below, and ↓ / PgDn / ↑ scroll the preview", async () => {
		const { panel, press, app } = open("write", write(60));
		// 61 rows of preview (the hunk header and 60 lines): 14 - 2 borders - headline - keys - this line = 9 shown.
		expect(panel().join("\n")).toContain("52 more lines — ↓ to read");
		await press(DOWN);
		expect(panel().join("\n")).toContain("51 more lines — ↓ to read");
		expect(panel().join("\n")).toContain("+line 9");
		expect(panel().join("\n")).not.toContain("@@ -0,0");
		for (let i = 0; i < 10; i++) await press(PAGE_DOWN);
		const end = panel().join("\n");
		expect(end).toContain("+line 60");
		expect(end).not.toContain("more lines");
		expect(end).toMatch(/end of the preview/);
		// Past the end is still the end: one ↑ shows one line more above.
		await press(UP);
		expect(panel().join("\n")).toContain("1 more line — ↓ to read");
		app.unmount();
	});

	it("flags zero-width characters in a command and shows where they are", async () => {
		const { panel, app } = open("bash", bash("rm -rf /tmp/build\u200b /home"));
		const text = panel().join("\n");
		expect(text).toContain("rm -rf /tmp/build⟨U+200B⟩ /home");
		expect(text).toMatch(/⚠ .*zero-width/);
		app.unmount();
	});

	it("flags a zero-width character in a path", async () => {
		const preview = { ...write(1), path: "/work/project/\ufeffconfig.json" } as ToolPreview;
		const { panel, app } = open("write", preview);
		const text = panel().join("\n");
		expect(text).toContain("/work/project/⟨U+FEFF⟩config.json");
		expect(text).toMatch(/⚠ .*zero-width/);
		app.unmount();
	});

	it("does not allow a command before all of it was on screen: y shows what is left to read", async () => {
		const command = [...Array.from({ length: 30 }, (_, i) => `echo step ${i}`), "rm -rf important"].join("\n");
		const { panel, press, answers, app } = open("bash", bash(command));
		await press("y");
		expect(answers).toEqual([]);
		expect(panel().join("\n")).toMatch(/read the whole command first/);
		await press("a");
		expect(answers).toEqual([]);
		for (let i = 0; i < 10; i++) await press(PAGE_DOWN);
		expect(panel().join("\n")).toContain("> rm -rf important");
		await press("y");
		expect(answers).toEqual([{ approved: true }]);
		app.unmount();
	});

	it("forgets what was read when a new width wraps the command anew", async () => {
		const command = Array.from({ length: 12 }, (_, i) => `echo ${String(i).repeat(60)}`).join("\n");
		const store = new UiStore(initialView({ provider: "p", model: "m" }));
		const answers = ask(store, "bash", bash(command));
		const draw = (columns: number) => (
			<App store={store} input={new InputModel()} info={info} actions={noop} size={{ columns, rows: 30 }} />
		);
		const app = render(draw(40));
		// 40 columns: 24 rows of command, 6 on screen. Read down to row 16, then back to the top.
		for (const key of [...Array(10).fill(DOWN), ...Array(10).fill(UP)]) {
			app.stdin.write(key);
			await tick();
		}
		// 120 columns: 12 rows, 9 on screen. 16 rows of 24 read before were two thirds of it, not 16 of 12.
		app.rerender(draw(120));
		await tick();
		app.stdin.write("y");
		await tick();
		expect(answers).toEqual([]);
		expect(app.lastFrame()).toContain("read the whole command first");
		app.unmount();
	});

	it("lets n and Esc answer at once, read or not", async () => {
		const command = Array.from({ length: 30 }, (_, i) => `echo step ${i}`).join("\n");
		const first = open("bash", bash(command));
		await first.press(ESC);
		await new Promise((r) => setTimeout(r, 50));
		expect(first.answers).toEqual([{ approved: false, reason: "the user stopped the run", stop: true }]);
		first.app.unmount();
		const second = open("bash", bash(command));
		await second.press("n");
		expect(second.store.approval?.stage).toBe("reason");
		second.app.unmount();
	});
});

describe("the approval layout", () => {
	it("wraps by display width: a wide character never straddles a row, nothing is dropped", () => {
		const rows = wrapExact("ab日本語テキスト", 6);
		expect(rows).toEqual(["ab日本", "語テキ", "スト"]);
		for (const row of rows) expect(stringWidth(row)).toBeLessThanOrEqual(6);
	});

	it("keeps a mark whole and moves the spaces before a break to the next row, where they show", () => {
		expect(wrapExact("abc ⟨U+200B⟩", 6)).toEqual(["abc", " ⟨U+200B⟩"]);
		expect(wrapExact("rm -rf /home/user/ x", 18)).toEqual(["rm -rf /home/user/", " x"]);
		expect(wrapExact("", 10)).toEqual([""]);
		// The first row and the rest can differ in width (the rest leave room for "↪").
		expect(wrapExact("a".repeat(10), 4, 3)).toEqual(["aaaa", "aaa", "aaa"]);
		expect(wrapExact("日".repeat(5), 4, 2)).toEqual(["日日", "日", "日", "日"]);
		expect(wrapExact(" ".repeat(9), 4)).toEqual(["    ", "    ", " "]);
	});

	it("puts a headline too long for its space at the top of the preview, whole", () => {
		const path = `/w/${"deep/".repeat(200)}f.txt`;
		const pending = {
			request: { callId: "c", name: "write", args: {}, preview: { ...write(3), path } as ToolPreview },
			since: 0,
			answer: () => {},
			stage: "ask" as const,
			scroll: 0,
		};
		const layout = layoutApproval(pending, 80, 12);
		expect(layout.height).toBeLessThanOrEqual(12);
		expect(layout.header.length).toBe(4);
		expect(layout.header.at(-1)).toMatch(/…$/);
		expect(layout.body.map((r) => r.text).join("")).toContain(`${path} (3 lines)`);
	});

	it("says the reason keys while the person types why not", () => {
		const pending = {
			request: { callId: "c", name: "bash", args: {}, preview: bash("ls") },
			since: 0,
			answer: () => {},
			stage: "reason" as const,
			scroll: 0,
		};
		expect(layoutApproval(pending, 80, 12).keys).toEqual([
			"type why (optional) · Enter deny with this reason · Esc deny",
		]);
	});
});
