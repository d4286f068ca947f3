import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { render } from "ink-testing-library";
import { beforeAll, describe, expect, it } from "vitest";
import { EventChannel } from "../src/agent/channel.js";
import { Conversation } from "../src/conversation/conversation.js";
import { createScriptedProvider, type ScriptedTurn } from "../src/llm/scripted.js";
import { createTools } from "../src/tools/index.js";
import { loadMarkdown } from "../src/ui/chat/markdown.js";
import { App, type AppInfo } from "../src/ui/screens/App.js";
import { InputModel } from "../src/ui/state/input-model.js";
import { UiStore } from "../src/ui/state/store.js";
import { reduce } from "../src/view/reducer.js";
import { initialView } from "../src/view/state.js";
import { MODEL, PROVIDER, tempDirsPerTest, twoTurnRun } from "./fixtures/session/run.js";

// Replies are markdown: the app loads marked and lowlight after its first frame; these tests need them loaded.
beforeAll(loadMarkdown);

const tmp = tempDirsPerTest();
const tick = () => new Promise((resolve) => setImmediate(resolve));
async function until(test: () => boolean, ms = 3000): Promise<void> {
	const end = Date.now() + ms;
	while (!test()) {
		if (Date.now() > end) throw new Error("timed out");
		await new Promise((r) => setTimeout(r, 10));
	}
}

function info(over: Partial<AppInfo> = {}): AppInfo {
	return {
		version: "0.1.0",
		cwd: "~/project",
		branch: "main",
		sessionId: () => "k3v9q0x2m7ab",
		sessionName: () => "fix parser",
		sessionBranch: () => "1 of 1",
		running: () => false,
		...over,
	};
}

const noop = { submit: () => {}, abort: () => {}, exit: () => {} };

describe("the full-screen layout", () => {
	it("draws the status bar, the chat, the inspector and the input from the view", () => {
		let view = initialView({ provider: PROVIDER, model: MODEL });
		for (const [i, event] of twoTurnRun().entries()) view = reduce(view, event, 1000 * i);
		const store = new UiStore(view);
		const { lastFrame, unmount } = render(
			<App store={store} input={new InputModel()} info={info()} actions={noop} size={{ columns: 120, rows: 30 }} />,
		);
		const lines = (lastFrame() ?? "").split("\n");
		expect(lines[0]).toContain(' gar 0.1.0 │ claude-sonnet-4-5 │ ~/project (main) │ k3v9q0x2m7ab "fix parser"');
		const frame = lastFrame() ?? "";
		expect(frame).toContain("you › List the files");
		expect(frame).toContain("▸ bash ls");
		expect(frame).toContain("There are two files: a.txt and b.txt.");
		expect(frame).toMatch(/│ state\s+● idle/);
		expect(frame).toMatch(/│ turn\s+2 \/ 50/);
		expect(frame).toMatch(/│ tokens\s+↑330 ↓30/);
		expect(frame).toMatch(/│ cost\s+\$0\.0020/);
		expect(frame).toMatch(/│ context\s+░+ 0% of 200k/);
		expect(frame).toMatch(/│ tools\s+bash 1/);
		expect(lines.at(-1)).toMatch(/^› .*Enter send$/);
		// The root is one row shorter than the terminal (a full-height root makes Ink clear the screen per frame).
		expect(lines.length).toBe(29);
		unmount();
	});

	it("folds the inspector into the status bar below 100 columns", () => {
		const store = new UiStore(initialView({ provider: PROVIDER, model: MODEL, contextWindow: 200_000 }));
		const { lastFrame, unmount } = render(
			<App store={store} input={new InputModel()} info={info()} actions={noop} size={{ columns: 90, rows: 20 }} />,
		);
		const frame = lastFrame() ?? "";
		expect(frame).not.toContain("│ state");
		expect(frame.split("\n")[0]).toContain("idle │ ↑0 ↓0 │ $0.00 │ ctx 0%");
		unmount();
	});

	it("keeps CJK and emoji text inside the chat column", () => {
		let view = initialView({ provider: PROVIDER, model: MODEL });
		view = reduce(
			view,
			{ type: "user_message", message: { role: "user", content: "修复这个错误 🚀 ".repeat(12) }, source: "prompt" },
			0,
		);
		const store = new UiStore(view);
		const { lastFrame, unmount } = render(
			<App store={store} input={new InputModel()} info={info()} actions={noop} size={{ columns: 120, rows: 20 }} />,
		);
		const rows = (lastFrame() ?? "").split("\n").filter((l) => l.includes("修"));
		expect(rows.length).toBeGreaterThan(1);
		// The inspector border sits in the same column on every row.
		for (const row of rows) expect(row).toMatch(/│ /);
		unmount();
	});
});

/** A conversation whose model makes one mutating call, with the app asking the person through the store. */
function approvalRig(makeCall: (cwd: string) => ScriptedTurn) {
	const cwd = tmp();
	writeFileSync(join(cwd, "a.txt"), "old\n");
	const call = makeCall(cwd);
	const store = new UiStore(initialView({ provider: "scripted", model: "m" }));
	const ask = store.ask;
	const channel = new EventChannel();
	const conversation = new Conversation({
		channel,
		provider: createScriptedProvider([call, { text: "ok" }]),
		model: "m",
		contextWindow: null,
		system: { text: "", parts: [] },
		tools: createTools({ cwd }),
		session: null,
		approval: { required: true, autoApprove: [], ask },
	});
	channel.subscribe(store.onEvent);
	const input = new InputModel();
	const app = render(
		<App
			store={store}
			input={input}
			info={info({ running: () => conversation.running })}
			actions={noop}
			size={{ columns: 120, rows: 30 }}
		/>,
	);
	return { cwd, store, conversation, app };
}

describe.each([
	["write", (cwd: string) => ({ name: "write", args: { path: join(cwd, "new.txt"), content: "x\n" } })],
	[
		"edit",
		(cwd: string) => ({
			name: "edit",
			args: { path: join(cwd, "a.txt"), edits: [{ oldText: "old", newText: "new" }] },
		}),
	],
	["bash", (cwd: string) => ({ name: "bash", args: { command: `touch ${join(cwd, "made")}` } })],
] as const)("approving %s in the app", (_name, makeCall) => {
	it("shows the preview and leaves the disk unchanged when denied with a reason", async () => {
		let name = "";
		const { cwd, store, conversation, app } = approvalRig((dir) => {
			const call = makeCall(dir);
			name = call.name;
			return { toolCalls: [{ id: "c1", ...call }] };
		});
		const call = { name };
		const target = name === "write" ? "new.txt" : name === "edit" ? "a.txt" : "made";
		const run = conversation.run("go");
		await until(() => store.approval !== null);
		await tick();
		const frame = app.lastFrame() ?? "";
		expect(frame).toContain("y allow once");
		if (call.name === "edit") expect(frame).toContain("+new");
		if (call.name === "bash") expect(frame).toContain("$ touch");
		if (call.name === "write") expect(frame).toContain("create");
		app.stdin.write("n");
		await tick();
		app.stdin.write("not now");
		await tick();
		app.stdin.write("\r");
		const result = await run;
		expect(result.stopReason).toBe("done");
		if (call.name === "edit") expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("old\n");
		else expect(existsSync(join(cwd, target))).toBe(false);
		const tool = store.view.items.find((i) => i.kind === "tool");
		expect(tool).toMatchObject({ status: "denied", content: expect.stringContaining("not now") });
		app.unmount();
	});
});

describe("the approval question in the app", () => {
	const edit = (cwd: string): ScriptedTurn => ({
		toolCalls: [
			{ id: "c1", name: "edit", args: { path: join(cwd, "a.txt"), edits: [{ oldText: "old", newText: "new" }] } },
		],
	});

	it("is one copy: the panel and the chat draw the view's question", async () => {
		const { store, conversation, app } = approvalRig(edit);
		const run = conversation.run("go");
		await until(() => store.approval !== null);
		await tick();
		const question = store.view.pending;
		expect(store.approval?.request).toBe(question);
		const item = store.view.items.find((i) => i.kind === "tool");
		expect(item?.kind === "tool" && item.preview).toBe(question?.preview);
		// The diff's added line, once in the chat's tool item and once in the panel.
		const rows = (app.lastFrame() ?? "").split("\n");
		expect(rows.filter((row) => /\+new\b/.test(row)).length).toBe(2);
		app.stdin.write("y");
		await run;
		expect(store.view.pending).toBeNull();
		app.unmount();
	});

	it("goes away when the run ends while it asks", async () => {
		const { store, conversation, app } = approvalRig(edit);
		const run = conversation.run("go");
		await until(() => store.approval !== null);
		conversation.abort();
		const result = await run;
		await tick();
		expect(result.stopReason).toBe("aborted");
		expect(store.approval).toBeNull();
		expect(store.view.pending).toBeNull();
		expect(app.lastFrame()).not.toContain("y allow once");
		app.unmount();
	});
});

describe("a session written by an older gar", () => {
	it("draws tool results whose details have no kind (they are typed when replayed)", async () => {
		const { SessionWriter } = await import("../src/session/writer.js");
		const { replayEvents } = await import("../src/session/replay.js");
		const { firstReply } = await import("./fixtures/session/run.js");
		const writer = SessionWriter.create({ dir: tmp(), cwd: "/w" });
		writer.appendUser("go");
		writer.appendAssistant(firstReply);
		// The shape gar 0.1.0 wrote: no kind, no cwd.
		const legacy = {
			command: "ls",
			exitCode: 0,
			signal: null,
			durationMs: 12,
			timedOut: false,
			aborted: false,
			truncated: false,
			totalLines: 1,
			totalBytes: 5,
		};
		writer.appendToolResult({ callId: "call_1", name: "bash", content: "a.txt", details: legacy, isError: false });
		writer.close();
		let view = initialView({ provider: PROVIDER, model: MODEL });
		for (const { event } of replayEvents(writer.session)) view = reduce(view, event, 0);
		const tool = view.items.find((i) => i.kind === "tool");
		expect(tool).toMatchObject({ details: { kind: "bash", exitCode: 0 } });
		const { lastFrame, unmount } = render(
			<App
				store={new UiStore(view)}
				input={new InputModel()}
				info={info()}
				actions={noop}
				size={{ columns: 120, rows: 30 }}
			/>,
		);
		expect(lastFrame()).toContain("▸ bash ls");
		unmount();
	});
});
