import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EventChannel } from "../src/agent/channel.js";
import type { AgentEvent } from "../src/agent/events.js";
import type { Conversation } from "../src/conversation/conversation.js";
import {
	type CommandContext,
	commandCompleter,
	helpText,
	lineKind,
	osc52,
	readyToRun,
	runCommand,
	runShellLine,
} from "../src/ui/screens/commands.js";
import { InputModel } from "../src/ui/state/input-model.js";
import { UiStore } from "../src/ui/state/store.js";
import { initialView } from "../src/view/state.js";
import { tempDirsPerTest } from "./fixtures/session/run.js";
import { writePlainSession } from "./support/export-sessions.js";

/** What setup.modelChoices() gives on OpenAI with an Anthropic key too (test/model-switch.test.ts checks that). */
const MODELS = [
	"gpt-5",
	"gpt-5.4",
	"gpt-5-mini",
	"gpt-5-nano",
	"anthropic/claude-sonnet-4-5",
	"anthropic/claude-sonnet-4-0",
];
const source = { models: () => MODELS, themes: () => ["dark", "light", "mono"] };
const complete = commandCompleter(source);
const values = (text: string) => complete(text)?.items.map((i) => i.value) ?? null;

/** A conversation stand-in with the few levers commands use. */
function harness(running = false) {
	const channel = new EventChannel();
	const events: AgentEvent[] = [];
	channel.subscribe((e) => events.push(e));
	const calls: string[] = [];
	const conversation = {
		running,
		model: { provider: "openai", model: "gpt-5", contextWindow: 400_000 },
		session: null,
		newSession: () => calls.push("new"),
		setModel: (_p: unknown, model: string) => calls.push(`model ${model}`),
		runShell: async (command: string) => ({ content: `ran ${command}\n`, details: null, isError: false }),
		addShellContext: (command: string) => calls.push(`context ${command}`),
		compact: async (focus?: string) => calls.push(`compact ${focus}`),
	} as unknown as Conversation;
	const store = new UiStore(initialView({ provider: "openai", model: "gpt-5" }));
	const written: string[] = [];
	const ctx: CommandContext = {
		setup: {
			conversation,
			channel,
			providerFor: async (model) => ({ provider: { name: "openai" } as never, model, contextWindow: null, note: null }),
		},
		store,
		input: new InputModel(),
		exit: () => calls.push("exit"),
		columns: () => 120,
		writeTerminal: (data) => written.push(data),
	};
	const notices = () => events.flatMap((e) => (e.type === "notice" ? [e.message] : []));
	return { ctx, calls, store, written, notices };
}

describe("slash command completion", () => {
	it("lists commands matching what is typed, each with a one-line description", () => {
		expect(values("/")).toEqual([
			"/help",
			"/new",
			"/model ",
			"/theme ",
			"/inspector",
			"/name ",
			"/label ",
			"/session",
			"/resume ",
			"/request ",
			"/context",
			"/tree",
			"/rewind",
			"/redo",
			"/fork ",
			"/clone",
			"/changes",
			"/compact ",
			"/copy",
			"/export ",
			"/quit",
		]);
		expect(values("/n")).toEqual(["/new", "/name "]);
		expect(complete("/se")?.items).toEqual([
			{ value: "/session", label: "/session", description: "this session's file, id, entries and cost" },
		]);
		expect(complete("/mo")?.items[0]?.label).toBe("/model [NAME]");
		expect(values("/session")).toBeNull();
		expect(values("/zzz")).toBeNull();
		expect(values("hello")).toBeNull();
		expect(values("//not a command")).toBeNull();
	});

	it("completes /model from the model table and /theme from the themes", () => {
		expect(values("/model gpt-5-m")).toEqual(expect.arrayContaining(["gpt-5-mini"]));
		expect(values("/model gpt-5-")).toEqual(["gpt-5-mini", "gpt-5-nano"]);
		expect(complete("/model claude-son")?.from).toBe("/model ".length);
		expect(values("/model gpt-5")).toBeNull(); // a whole name: nothing left to complete
		expect(values("/theme l")).toEqual(["light"]);
		expect(values("/model ")).toBeNull();
		// Tab asks for the whole list, before anything is typed or on a whole name.
		expect(complete("/model ", true)?.items.map((i) => i.value)[0]).toBe("gpt-5");
		expect(complete("/theme ", true)?.items.map((i) => i.value)).toEqual(["dark", "light", "mono"]);
		expect(complete("/theme dark", true)?.items.map((i) => i.value)).toEqual(["dark"]);
		expect(complete("/name ", true)).toBeNull();
	});

	it("completes `/model claude` with the other provider's `anthropic/…` models", () => {
		expect(values("/model claude-sonnet-4")).toEqual(["anthropic/claude-sonnet-4-5", "anthropic/claude-sonnet-4-0"]);
		expect(values("/model anthropic/claude-sonnet-4-5")).toBeNull();
	});

	it("accepting a completion through the input fills in the command; a command that needs an argument waits", () => {
		const input = new InputModel();
		input.completer = complete;
		input.insert("/na");
		expect(input.accept()).toBe("/name ");
		expect(readyToRun("/name ")).toBe(false);
		expect(readyToRun("/name fix parser")).toBe(true);
		expect(readyToRun("/session")).toBe(true);
		input.clear();
		input.insert("/m");
		input.insert("odel gpt-5-m");
		input.select(1);
		input.select(-1);
		expect(input.accept()).toMatch(/^\/model gpt-5-m/);
	});
});

describe("slash commands", () => {
	it("/help lists every command and key", async () => {
		const h = harness();
		await runCommand("/help", h.ctx);
		const text = h.notices()[0] ?? "";
		for (const name of [
			"/new",
			"/model [NAME]",
			"/theme NAME",
			"/inspector",
			"/name TEXT",
			"/label TEXT",
			"/session",
			"/copy",
			"/quit",
			"!cmd",
			"!!cmd",
			"Ctrl+R",
			"Ctrl+G",
			"Shift+Enter",
		]) {
			expect(text).toContain(name);
		}
		expect(helpText()).toBe(text);
	});

	it("/model switches, /new starts over, /quit exits, /inspector toggles", async () => {
		const h = harness();
		await runCommand("/model gpt-5-mini", h.ctx);
		await runCommand("/new", h.ctx);
		await runCommand("/inspector", h.ctx);
		await runCommand("/quit", h.ctx);
		expect(h.calls).toEqual(["model gpt-5-mini", "new", "exit"]);
		expect(h.store.inspector).toBe(false);
		expect(h.notices()).toEqual(["model: openai/gpt-5-mini from the next message on", "new session (not saved)"]);
	});

	it("/inspector in a terminal narrower than 100 columns says so instead of hiding it unseen", async () => {
		const h = harness();
		h.ctx.columns = () => 90;
		await runCommand("/inspector", h.ctx);
		expect(h.store.inspector).toBe(true);
		expect(h.store.hint).toContain("the inspector needs 100 columns, this terminal has 90");
	});

	it("a command that must wait for the run goes back into the editor, so nothing typed is lost", async () => {
		const h = harness(true);
		await runCommand("/model gpt-5-mini", h.ctx);
		expect(h.calls).toEqual([]);
		expect(h.ctx.input.text).toBe("/model gpt-5-mini");
		expect(h.notices()[0]).toContain("waits until the run ends");
		await runCommand("/nope", h.ctx);
		expect(h.notices()[1]).toContain("unknown command /nope");
	});

	it("`//text` is the message `/text`; a line with an unknown /word stays in the input, and sent again is a message", async () => {
		expect(lineKind("//text", null)).toEqual({ kind: "message", text: "/text" });
		expect(lineKind("/help", null)).toEqual({ kind: "command" });
		expect(lineKind("!ls", null)).toEqual({ kind: "shell" });
		expect(lineKind("hello", null)).toEqual({ kind: "message", text: "hello" });
		const h = harness();
		const line = "/usr/bin/env fails here, why?";
		h.ctx.input.take();
		await runCommand(line, h.ctx);
		expect(h.ctx.input.text).toBe(line);
		expect(h.notices()).toEqual([
			"unknown command /usr/bin/env: Enter sends the line as a message (so does starting it with //); /help lists the commands",
		]);
		expect(lineKind(line, h.ctx.input.offered)).toEqual({ kind: "message", text: line });
		// Changed, it is a command line again.
		expect(lineKind("/usr/bin/env", h.ctx.input.offered)).toEqual({ kind: "command" });
	});

	it("/copy puts the last answer on the clipboard with OSC 52; /session tells what it can", async () => {
		const h = harness();
		await runCommand("/copy", h.ctx);
		expect(h.written).toEqual([]);
		h.store.view = {
			...h.store.view,
			items: [{ kind: "text", key: "t1", text: "the answer é", streaming: false }],
		};
		await runCommand("/copy", h.ctx);
		expect(h.written).toEqual([osc52("the answer é")]);
		expect(osc52("hi")).toBe("\x1b]52;c;aGk=\x07");
		await runCommand("/session", h.ctx);
		expect(h.notices().at(-1)).toBe("this conversation is not saved · ↑0 ↓0 · cost $0.00");
		await runCommand("/theme light", h.ctx);
		expect(h.notices().at(-1)).toContain("themes cannot be switched");
		await runCommand("/compact the parser work", h.ctx);
		await runCommand("/compact", h.ctx);
		expect(h.calls).toEqual(["compact the parser work", "compact undefined"]);
	});

	it("!cmd adds the output to the context; !!cmd only shows it", async () => {
		const h = harness();
		await runShellLine("!echo hi", h.ctx);
		expect(h.calls).toEqual(["context echo hi"]);
		await runShellLine("!!ls", h.ctx);
		expect(h.calls).toEqual(["context echo hi"]);
		expect(h.notices()).toEqual(["$ ls\nran ls"]);
	});
});

describe("/export", () => {
	const tmp = tempDirsPerTest();

	/** The harness over a saved session whose folder is a temp dir (where /export writes by default). */
	function saved() {
		const cwd = tmp();
		const writer = writePlainSession(tmp(), cwd);
		const h = harness();
		(h.ctx.setup.conversation as { session: unknown }).session = writer;
		return { ...h, cwd, id: writer.session.header.id, leaf: writer.leafId };
	}

	it("writes the current path as Markdown to gar-ID.md in the session's folder", async () => {
		const { ctx, cwd, id, leaf, notices } = saved();
		await runCommand("/export", ctx);
		const file = join(cwd, `gar-${id}.md`);
		expect(readFileSync(file, "utf8").startsWith("# fix the parser\n")).toBe(true);
		expect(notices()).toEqual([`exported the conversation up to ${leaf} to ${file} (Markdown)`]);
	});

	it("writes HTML for a .html name, and asks before overwriting: the command comes back with --force", async () => {
		const { ctx, cwd, notices } = saved();
		const file = join(cwd, "page.html");
		writeFileSync(file, "mine");
		await runCommand("/export page.html", ctx);
		expect(readFileSync(file, "utf8")).toBe("mine");
		expect(ctx.input.text).toBe("/export page.html --force");
		expect(notices().at(-1)).toBe(
			`${file} exists: Enter overwrites it (the command is back in the input with --force); change the name to keep it`,
		);
		await runCommand(ctx.input.take(), ctx);
		expect(readFileSync(file, "utf8").startsWith("<!doctype html>")).toBe(true);
	});

	it("says why when there is nothing to export or the file cannot be written", async () => {
		const { ctx, notices } = harness();
		await runCommand("/export", ctx);
		expect(notices()).toEqual(["this conversation is not saved, so there is nothing to export"]);
		const s = saved();
		await runCommand("/export no/such/folder/x.md", s.ctx);
		expect(s.notices().at(-1)).toBe(
			`cannot write ${join(s.cwd, "no/such/folder/x.md")}: the folder ${join(s.cwd, "no/such/folder")} does not exist`,
		);
	});
});
