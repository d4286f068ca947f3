// The resume picker (src/ui/screens/PickerScreen.tsx) over real session files: gar -r's picker before the app
// connects (pickAtStart) and /resume's over a running conversation (resumeInApp), drawn by the app's router with
// ink-testing-library; its keys, the filter and rename fields (ink-text-input), the trash, and the switch.
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { render } from "ink-testing-library";
import { beforeAll, describe, expect, it } from "vitest";
import { EventChannel } from "../src/agent/channel.js";
import type { AgentEvent } from "../src/agent/events.js";
import { Conversation } from "../src/conversation/conversation.js";
import { createScriptedProvider } from "../src/llm/scripted.js";
import { forkSession } from "../src/session/fork.js";
import { loadSession } from "../src/session/load.js";
import { sessionDirFor } from "../src/session/paths.js";
import { listTrash } from "../src/session/trash.js";
import { SessionWriter } from "../src/session/writer.js";
import { loadMarkdown } from "../src/ui/chat/markdown.js";
import { PICKER_KEYS } from "../src/ui/keys/key-table.js";
import { type KeyActions, keyDispatcher, NO_KEY } from "../src/ui/keys/keymap.js";
import { closePicker, pickAtStart, resumeInApp } from "../src/ui/resume.js";
import { App } from "../src/ui/screens/App.js";
import { InputModel } from "../src/ui/state/input-model.js";
import { PickerModel } from "../src/ui/state/picker.js";
import { UiStore } from "../src/ui/state/store.js";
import { initialView } from "../src/view/state.js";
import { secondReply, tempDirsPerTest } from "./fixtures/session/run.js";
import { appInfo, tick } from "./support/ui-app.js";

beforeAll(loadMarkdown);

const tmp = tempDirsPerTest();
const DEBUG: { frame?: () => string } = {};
async function until(test: () => boolean, what: string, ms = 3000): Promise<void> {
	const end = Date.now() + ms;
	while (!test()) {
		if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${DEBUG.frame?.() ?? ""}`);
		await new Promise((r) => setTimeout(r, 5));
	}
}

const info = appInfo({ cwd: "~/app" });
const noop = { submit: () => {}, abort: () => {}, exit: () => {} };

/** A session of `cwd` with these prompts (each answered), `minutes` old, maybe named. */
function session(base: string, cwd: string, prompts: string[], minutes: number, name?: string): string {
	const writer = SessionWriter.create({ dir: base, cwd });
	for (const [i, prompt] of prompts.entries()) {
		writer.appendUser(prompt);
		writer.appendAssistant(
			{ ...secondReply, content: [{ type: "text", text: `Answer ${i + 1} to: ${prompt}` }] },
			0.01,
		);
	}
	if (name) writer.setName(name);
	writer.close();
	const when = new Date(Date.now() - minutes * 60_000);
	utimesSync(writer.file, when, when);
	return writer.file;
}

/** Three sessions here (the router one newest), one in another project. */
function project() {
	const base = tmp();
	const cwd = tmp();
	const other = tmp();
	const parser = session(base, cwd, ["fix the flaky parser test", "now tidy the lexer", "run the tests"], 300);
	const themes = session(base, cwd, ["add a theme switcher"], 120, "Themes");
	const router = session(base, cwd, ["explain the router"], 5);
	const elsewhere = session(base, other, ["cache the results elsewhere"], 1);
	return { base, cwd, other, parser, themes, router, elsewhere, trash: join(tmp(), "trash") };
}

/** The app at 120×30 with the picker open (as gar -r opens it before its first frame). */
function drawn(query = "") {
	const store = new UiStore(initialView({ provider: "p", model: "m" }));
	store.picker = new PickerModel(query, () => store.changed());
	store.openScreen("picker");
	const view = render(
		<App store={store} input={new InputModel()} info={info} actions={noop} size={{ columns: 120, rows: 30 }} />,
	);
	const frame = () => view.lastFrame() ?? "";
	DEBUG.frame = frame;
	const press = async (text: string) => {
		view.stdin.write(text);
		await tick();
		await tick();
	};
	/** The frame as one line: a message wraps over rows. */
	const text = () => frame().replace(/\s+/g, " ");
	return { store, frame, text, press, unmount: view.unmount };
}

const KEY = {
	up: "\u001b[A",
	down: "\u001b[B",
	esc: "\u001b",
	tab: "\t",
	enter: "\r",
	ctrlR: "\u0012",
	ctrlD: "\u0004",
};

describe("gar -r: the picker before the app connects", () => {
	it("lists this project's sessions newest first with their figures and the selected one's last exchange", async () => {
		const p = project();
		const a = drawn();
		expect(a.frame()).toContain("loading…");
		void pickAtStart(a.store, { cwd: p.cwd, sessionDir: p.base }, p.trash);
		await until(() => a.frame().includes("3 sessions"), "the rows");
		const lines = a.frame().split("\n");
		expect(lines[2]).toMatch(/NAME\s+LATEST PROMPT\s+AGE\s+ENTRIES\s+BR\s+MODEL\s+COST/);
		expect(lines[3]).toMatch(/^› explain the router\s+explain the router\s+5m\s+2\s+1\s+claude-sonnet-4-5\s+\$0\.010/);
		expect(lines[4]).toMatch(/^ {2}Themes\s+add a theme switcher\s+2h\s+3\s+1/);
		expect(lines[5]).toMatch(
			/^ {2}fix the flaky parser test\s+run the tests\s+5h\s+6\s+1\s+claude-sonnet-4-5\s+\$0\.030/,
		);
		expect(a.frame()).not.toContain("elsewhere");
		expect(a.frame()).toContain("you › explain the router");
		expect(a.frame()).toContain("gar › Answer 1 to: explain the router");
		await a.press(KEY.down);
		await until(() => a.frame().includes("gar › Answer 1 to: add a theme switcher"), "the preview to follow");
		a.unmount();
	});

	it("filters by any prompt as it is typed, fuzzy, and says which prompt matched", async () => {
		const p = project();
		const a = drawn();
		void pickAtStart(a.store, { cwd: p.cwd, sessionDir: p.base }, p.trash);
		await until(() => a.frame().includes("3 sessions"), "the rows");
		await a.press("lexr");
		await until(() => a.frame().includes("1 of 3 sessions"), "the filter");
		expect(a.frame()).toContain("› fix the flaky parser test");
		expect(a.frame()).toContain("≈ now tidy the lexer");
		// Esc clears the filter first; the picker stays.
		await a.press(KEY.esc);
		await until(() => a.frame().includes("│ 3 sessions"), "the filter cleared");
		expect(a.store.screen).toBe("picker");
		a.unmount();
	});

	it("opens the session chosen, in the folder it was recorded in, even another project's (Tab)", async () => {
		const p = project();
		const a = drawn("elsewhere");
		const picked = pickAtStart(a.store, { cwd: p.cwd, sessionDir: p.base }, p.trash);
		await until(() => a.frame().includes("0 of 3 sessions"), "no match in this project");
		expect(a.frame()).toContain("no session matches");
		await a.press(KEY.tab);
		await until(() => a.frame().includes("1 of 4 sessions"), "every project's");
		expect(a.frame()).toMatch(/PROJECT/);
		await a.press(KEY.enter);
		expect(await picked).toEqual({ file: p.elsewhere, cwd: p.other });
		// The picker stays until the session is on screen (run.tsx closes it once connected).
		await until(() => a.frame().includes("opening…"), "opening");
		expect(a.store.screen).toBe("picker");
		closePicker(a.store);
		expect(a.store.screen).toBe("chat");
		a.unmount();
	});

	it("leaves for a new session with Esc (or Ctrl+C), and takes a typed run with its Enter as one input", async () => {
		const p = project();
		const a = drawn();
		const left = pickAtStart(a.store, { cwd: p.cwd, sessionDir: p.base }, p.trash);
		await until(() => a.frame().includes("3 sessions"), "the rows");
		await a.press(KEY.esc);
		expect(await left).toBeNull();
		a.unmount();

		const b = drawn();
		const picked = pickAtStart(b.store, { cwd: p.cwd, sessionDir: p.base }, p.trash);
		await until(() => b.frame().includes("3 sessions"), "the rows");
		// tmux's `send-keys 'theme' Enter` arrives as one read.
		await b.press("theme\r");
		expect(await picked).toEqual({ file: p.themes, cwd: p.cwd });
		b.unmount();
	});

	it("groups a fork under the session it was copied from, newest first among them", async () => {
		const p = project();
		const fork = forkSession(p.parser, undefined, { dir: p.base });
		const a = drawn();
		void pickAtStart(a.store, { cwd: p.cwd, sessionDir: p.base }, p.trash);
		await until(() => a.frame().includes("4 sessions"), "the rows");
		const titles = a
			.frame()
			.split("\n")
			.slice(3, 7)
			.map((line) => line.slice(2, 33).trimEnd());
		expect(titles).toEqual([
			"explain the router",
			"Themes",
			"fix the flaky parser test",
			"  ⑂ fix the flaky parser test",
		]);
		// Filtered, rows go by how well they match; a fork still shows its mark.
		await a.press("flaky");
		await until(() => a.frame().includes("2 of 4 sessions"), "the filter");
		expect(a.frame()).toContain("⑂ fix the flaky parser test");
		void fork;
		a.unmount();
	});

	it("renames with Ctrl+R (the name is saved in the file), and Ctrl+R is never typed into the filter", async () => {
		const p = project();
		const a = drawn();
		void pickAtStart(a.store, { cwd: p.cwd, sessionDir: p.base }, p.trash);
		await until(() => a.frame().includes("3 sessions"), "the rows");
		await a.press(KEY.ctrlR);
		await until(() => a.frame().includes("› name:"), "the rename field");
		expect(a.frame()).toContain("Enter save the name · Esc keep the old one");
		await a.press("Router notes");
		await a.press(KEY.enter);
		await until(() => a.frame().includes("named "), "the rename");
		expect(loadSession(p.router).name).toBe("Router notes");
		expect(a.frame()).toMatch(/^› Router notes\s+explain the router/m);
		expect(a.store.picker?.query).toBe("");
		// An empty name is refused, the field stays; Esc keeps the old name.
		await a.press(KEY.ctrlR);
		await a.press(KEY.esc);
		await a.press(KEY.ctrlR);
		await a.press("\u0015"); // Ctrl+U: ignored by the field, never typed
		expect(a.store.picker?.renameText).toBe("Router notes");
		a.unmount();
	});

	it("moves a session to the trash after asking, and says how to restore it", async () => {
		const p = project();
		const a = drawn();
		void pickAtStart(a.store, { cwd: p.cwd, sessionDir: p.base }, p.trash);
		await until(() => a.frame().includes("3 sessions"), "the rows");
		await a.press(KEY.down);
		await a.press(KEY.ctrlD);
		await until(() => a.frame().includes('Move "Themes" to the trash? y yes · n no'), "the question");
		// Other keys do nothing while it asks.
		await a.press("x");
		await a.press(KEY.down);
		expect(existsSync(p.themes)).toBe(true);
		await a.press("n");
		await until(() => a.frame().includes("Enter open"), "the question closed");
		await a.press(KEY.ctrlD);
		await a.press("y");
		await until(() => a.frame().includes("2 sessions"), "the row gone");
		expect(existsSync(p.themes)).toBe(false);
		expect(listTrash(p.trash).map((t) => t.from)).toEqual([p.themes]);
		const id = loadSession(listTrash(p.trash)[0]?.file ?? "").header.id;
		expect(a.text()).toContain(`gar sessions restore ${id} brings it back`);
		// The selection takes the deleted row's place.
		expect(a.frame()).toMatch(/^› fix the flaky parser test/m);
		a.unmount();
	});

	it("refuses to delete when the trash cannot be written, and keeps the file", async () => {
		const p = project();
		const blocked = join(tmp(), "a-file");
		writeFileSync(blocked, "not a folder\n");
		const a = drawn();
		void pickAtStart(a.store, { cwd: p.cwd, sessionDir: p.base }, join(blocked, "trash"));
		await until(() => a.frame().includes("3 sessions"), "the rows");
		await a.press(KEY.ctrlD);
		await a.press("y");
		await until(() => a.text().includes("nothing was deleted"), "the refusal");
		expect(a.text()).toContain("cannot move the session to the trash");
		expect(existsSync(p.router)).toBe(true);
		a.unmount();
	});

	it("shows a file it cannot read as a row that says why, and never opens it", async () => {
		const p = project();
		const dir = sessionDirFor(p.base, p.cwd);
		mkdirSync(dir, { recursive: true });
		const newer = join(dir, "2026-01-01T00-00-00-000Z_newer0000001.jsonl");
		writeFileSync(newer, `${readFileSync(p.router, "utf8").replace('"version":1', '"version":9')}`);
		writeFileSync(join(dir, "2026-01-01T00-00-00-000Z_broken000001.jsonl"), "garbage\n");
		const a = drawn();
		const picked = pickAtStart(a.store, { cwd: p.cwd, sessionDir: p.base }, p.trash);
		await until(() => a.frame().includes("5 sessions"), "the rows");
		expect(a.frame()).toMatch(/⚠ newer0000001\s+.*written by a newer gar \(format 9\)/);
		expect(a.frame()).toMatch(/⚠ broken000001\s+.*not a gar session/);
		while (!a.frame().includes("› ⚠ newer0000001")) await a.press(KEY.down);
		await a.press(KEY.enter);
		await until(() => a.frame().includes("cannot open it:"), "the refusal");
		expect(a.store.screen).toBe("picker");
		void picked;
		a.unmount();
	});
});

describe("/resume: the picker over a running conversation", () => {
	function running(p: ReturnType<typeof project>) {
		const channel = new EventChannel();
		const events: AgentEvent[] = [];
		channel.subscribe((e) => events.push(e));
		const provider = createScriptedProvider(() => ({ text: "ok" }), { model: "m-now" });
		const current = SessionWriter.create({ dir: p.base, cwd: p.cwd });
		current.appendUser("the conversation open now");
		current.appendAssistant(secondReply);
		const conversation = new Conversation({
			channel,
			provider,
			model: "m-now",
			contextWindow: 200_000,
			system: { text: "test", parts: [{ source: "base", text: "test" }] },
			tools: [],
			session: current,
			approval: { required: false, autoApprove: [] },
		});
		const setup = { conversation, channel, secrets: [], config: { session: { dir: p.base } } };
		return { setup, events, provider, current };
	}

	it("switches the conversation to the chosen session at its current leaf: the next request carries its history", async () => {
		const p = project();
		const r = running(p);
		const a = drawn();
		a.store.closeScreen();
		resumeInApp(a.store, r.setup, p.cwd, "parser", { trash: p.trash });
		await until(() => a.frame().includes("1 of 4 sessions"), "the filtered rows");
		await a.press(KEY.enter);
		await until(() => a.store.screen === "chat", "the chat");
		expect(r.setup.conversation.session?.file).toBe(p.parser);
		expect(r.current.leafId).not.toBeNull();
		expect(a.frame()).toContain("you › run the tests");
		const notice = r.events.find((e) => e.type === "notice");
		expect(notice).toMatchObject({
			message: expect.stringMatching(/^resumed session \w+; it last used claude-sonnet-4-5, the model stays m-now/),
		});
		await r.setup.conversation.run("and one more thing");
		const sent = r.provider.calls[0]?.messages.map((m) => (typeof m.content === "string" ? m.content : "")) ?? [];
		expect(sent).toEqual([
			"fix the flaky parser test",
			"",
			"now tidy the lexer",
			"",
			"run the tests",
			"",
			"and one more thing",
		]);
		expect(loadSession(p.parser).entries.at(-1)?.type).toBe("run");
		a.unmount();
	});

	it("opens no session of another folder here: it says how to open it there", async () => {
		const p = project();
		const r = running(p);
		const a = drawn();
		resumeInApp(a.store, r.setup, p.cwd, "cache", { trash: p.trash });
		await until(() => a.frame().includes("0 of 4"), "this project's rows");
		await a.press(KEY.tab);
		await until(() => a.frame().includes("1 of 5"), "every project's rows");
		await a.press(KEY.enter);
		await until(() => a.text().includes("not here: quit, then run gar --cwd"), "the refusal");
		expect(a.text()).toContain(`gar --cwd ${p.other} --session`);
		expect(r.setup.conversation.session?.file).toBe(r.current.file);
		a.unmount();
	});

	it("never moves the open session to the trash", async () => {
		const p = project();
		const r = running(p);
		const a = drawn();
		resumeInApp(a.store, r.setup, p.cwd, "", { trash: p.trash });
		await until(() => a.frame().includes("4 sessions"), "the rows");
		expect(a.frame()).toMatch(/^› the conversation open now/m);
		await a.press(KEY.ctrlD);
		await a.press("y");
		await until(() => a.text().includes("it cannot go to the trash while it is open"), "the refusal");
		expect(existsSync(r.current.file)).toBe(true);
		// The question is answered: the list takes keys again.
		await a.press(KEY.down);
		await until(() => a.frame().includes("› explain the router"), "the selection moved");
		a.unmount();
	});
});

describe("the picker's keys", () => {
	it("reach each action from the key as Ink reports it", () => {
		const fired: string[] = [];
		const actions = new Proxy({} as KeyActions<string>, {
			get: (_target, action: string) => () => {
				fired.push(action);
			},
		});
		const press = keyDispatcher(PICKER_KEYS, [{ context: "picker_delete" }, { context: "picker" }], actions);
		const key = (over: object) => ({ ...NO_KEY, ...over });
		press("", key({ downArrow: true }));
		press("", key({ pageDown: true }));
		press("\r", key({ return: true }));
		press("\t", key({ tab: true }));
		press("r", key({ ctrl: true }));
		press("d", key({ ctrl: true }));
		press("", key({ escape: true }));
		press("y", key({}));
		press("n", key({}));
		expect(fired).toEqual([
			"pickerMove",
			"pickerPage",
			"pickerOpen",
			"pickerScope",
			"pickerRename",
			"pickerDelete",
			"pickerBack",
			"pickerConfirm",
			"pickerBack",
		]);
	});

	it.each([
		["README.md", "picker key"],
		["README_CN.md", "选择器按键"],
	])("are the keys %s's picker table names (and Ctrl+C)", (file, header) => {
		const lines = readFileSync(new URL(`../${file}`, import.meta.url), "utf8").split("\n");
		const start = lines.findIndex((line) => line.startsWith(`| ${header}`));
		expect(start, `${file} has a picker key table`).toBeGreaterThan(0);
		const named: string[] = [];
		for (const line of lines.slice(start + 2)) {
			if (!line.startsWith("|")) break;
			named.push(line.split("|")[1]?.trim() ?? "");
		}
		const list = PICKER_KEYS.filter((b) => b.context === "picker");
		const labels = [...new Set(list.map((b) => ("label" in b ? b.label : b.keys.join(", "))))];
		expect(named).toEqual([...labels, "Ctrl+C"]);
	});
});
