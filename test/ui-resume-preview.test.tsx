// Resuming a long session in the app: its last screen drawn from the file's tail (ui/resume-preview.ts) while setupRun
// has not read the file yet (its beforeSessionLoad), then the full view, as connect.ts composes them; drawn by the
// app's router with ink-testing-library.
import { join } from "node:path";
import { render } from "ink-testing-library";
import { beforeAll, describe, expect, it } from "vitest";
import { writeSyntheticSession } from "../scripts/synthetic-session.js";
import { type RunFlags, setupRun } from "../src/modes/setup.js";
import { readSessionTail } from "../src/session/tail.js";
import { SessionWriter } from "../src/session/writer.js";
import { loadMarkdown } from "../src/ui/chat/markdown.js";
import { pathView, replayedView } from "../src/ui/path-view.js";
import { endPreview, showPreview } from "../src/ui/resume-preview.js";
import { App } from "../src/ui/screens/App.js";
import { appInfo, type Linked } from "../src/ui/start.js";
import { InputModel } from "../src/ui/state/input-model.js";
import { PickerModel } from "../src/ui/state/picker.js";
import { UiStore } from "../src/ui/state/store.js";
import { formatUsage } from "../src/view/format.js";
import { initialView } from "../src/view/state.js";
import { tempDirsPerTest } from "./fixtures/session/run.js";
import { tick, until } from "./support/ui-app.js";

beforeAll(loadMarkdown);

const tmp = tempDirsPerTest();
const noop = { submit: () => {}, abort: () => {}, exit: () => {} };
/** The synthetic session's 600 entries end with the reply to task 590 (scripts/synthetic-session.ts replyText). */
const LAST_REPLY = "Done with task 590.";

/** A project folder with a home, and a 600-entry session recorded in it. */
function world() {
	const home = tmp();
	const base = join(home, "sessions");
	const env = { HOME: home, XDG_CONFIG_HOME: join(home, "config"), OPENAI_API_KEY: "k" };
	const file = writeSyntheticSession(base, 600, { cwd: home });
	const flags: RunFlags = { cwd: home, sessionDir: base, provider: "openai", session: file };
	return { home, env, file, flags };
}

/** The app as start.tsx draws it (the status bar's facts from `linked`), at `columns` × 40. */
function app(cwd: string, columns = 120) {
	const store = new UiStore(initialView({ provider: "openai", model: "" }));
	const linked: Linked = {};
	const info = appInfo({ cwd }, linked);
	const ui = render(
		<App store={store} input={new InputModel()} info={info} actions={noop} size={{ columns, rows: 40 }} />,
	);
	const show = (session: NonNullable<Linked["preview"]>) => {
		linked.preview = session;
	};
	return { store, linked, show, frame: () => ui.lastFrame() ?? "", unmount: ui.unmount };
}

describe("the preview of a resumed session", () => {
	it("shows the last reply and the id before the file is read, holds the inspector, then the full view", async () => {
		const w = world();
		const a = app(w.home);
		let preview = "";
		let shown = false;
		const setup = await setupRun(w.flags, w.env, {
			lazySession: true,
			beforeSessionLoad: async (file) => {
				shown = await showPreview(file, { store: a.store, cwd: w.home, show: a.show, frameMs: 0 });
				preview = a.frame();
			},
		});
		const id = setup.conversation.session?.session.header.id ?? "";
		const tail = readSessionTail(w.file);
		if (!tail) throw new Error("no tail");
		const partial = formatUsage(replayedView(tail, initialView({ provider: "openai", model: "" })).session.usage);
		expect(shown).toBe(true);
		expect(preview).toContain(LAST_REPLY);
		expect(preview).toContain(id);
		expect(preview).toContain("loading the session…");
		expect(preview).toMatch(/tokens +…/);
		expect(preview).not.toContain(partial);
		// The name is the first prompt's, which the tail does not hold: none until the load, never the tail's first.
		expect(preview).not.toContain('"Task');

		// As connect.ts goes on: the full view replaces the preview, then the conversation is linked.
		a.store.view = pathView(setup.conversation);
		endPreview(a.store);
		a.linked.setup = setup;
		a.store.changed();
		await until(() => !a.frame().includes("loading the session"));
		const full = a.frame();
		expect(full).toContain(LAST_REPLY);
		expect(full).toContain(formatUsage(a.store.view.session.usage));
		expect(full).toContain('"Task 0:');
		expect(a.store.previewing).toBe(false);
		setup.conversation.close();
		a.unmount();
	});

	it("holds the status bar's summary on a narrow terminal", async () => {
		const w = world();
		const a = app(w.home, 90);
		expect(await showPreview(w.file, { store: a.store, cwd: w.home, show: a.show, frameMs: 0 })).toBe(true);
		await tick();
		const top = a.frame().split("\n")[0] ?? "";
		expect(top).toContain("loading the session…");
		expect(top).not.toMatch(/↑/);
		expect(a.frame()).toContain(LAST_REPLY);
		a.unmount();
	});

	it("gar -r: the picker gives way to the preview at once", async () => {
		const w = world();
		const a = app(w.home);
		a.store.picker = new PickerModel("", () => a.store.changed());
		a.store.openScreen("picker");
		expect(await showPreview(w.file, { store: a.store, cwd: w.home, show: a.show, frameMs: 0 })).toBe(true);
		expect(a.store.screen).toBe("chat");
		expect(a.store.picker).toBeNull();
		a.unmount();
	});

	it("reads the longer tail when the first 64 KB hold less than a screen (large tool results)", async () => {
		const home = tmp();
		const file = writeSyntheticSession(join(home, "sessions"), 200, { cwd: home, toolResultBytes: 20_000 });
		const short = readSessionTail(file, 64 << 10);
		if (!short) throw new Error("no tail");
		const a = app(home);
		expect(await showPreview(file, { store: a.store, cwd: home, show: a.show, frameMs: 0 })).toBe(true);
		const fromShort = replayedView(short, initialView({ provider: "openai", model: "" })).items.length;
		expect(short.pathTo(short.leafId).length).toBeLessThan(16);
		expect(a.store.view.items.length).toBeGreaterThan(fromShort);
		a.unmount();
	});

	it("draws nothing for a session of another folder, or one whose leaf is not in the tail", async () => {
		const w = world();
		const a = app(w.home);
		const before = a.store.view;
		expect(await showPreview(w.file, { store: a.store, cwd: join(w.home, "elsewhere"), show: a.show })).toBe(false);
		const writer = SessionWriter.open(w.file);
		writer.moveTo(writer.session.entries[3]?.id ?? null);
		writer.close();
		expect(await showPreview(w.file, { store: a.store, cwd: w.home, show: a.show })).toBe(false);
		expect(a.store.view).toBe(before);
		expect(a.store.previewing).toBe(false);
		expect(a.linked.preview).toBeUndefined();
		a.unmount();
	});
});
