import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EventChannel } from "../src/agent/channel.js";
import { MAX_ARGUMENT_DEPTH, nestsDeeperThan } from "../src/agent/depth.js";
import type { AgentEvent } from "../src/agent/events.js";
import { Agent } from "../src/agent/loop.js";
import { createScriptedProvider } from "../src/llm/scripted.js";
import { openRunSession } from "../src/modes/run-session.js";
import { setupRun } from "../src/modes/setup.js";
import { buildContext } from "../src/session/context.js";
import { forkSession } from "../src/session/fork.js";
import { SessionError } from "../src/session/format.js";
import { loadSession } from "../src/session/load.js";
import { listSessions } from "../src/session/ops.js";
import { sessionDirFor } from "../src/session/paths.js";
import { SessionWriter } from "../src/session/writer.js";
import { createBashTool } from "../src/tools/index.js";
import { fakeClock, tempDirsPerTest } from "./fixtures/session/run.js";
import { makeUnwritable } from "./support/unwritable.js";

const tmp = tempDirsPerTest();
const CWD = "/home/me/src/app";

function filesUnder(dir: string): string[] {
	if (!existsSync(dir)) return [];
	return readdirSync(dir, { recursive: true, withFileTypes: true })
		.filter((d) => d.isFile())
		.map((d) => d.name);
}

const header = (id: string, version = 1) =>
	JSON.stringify({ type: "session", version, id, cwd: CWD, createdAt: "2026-01-02T03:04:05.000Z" });
const ts = "2026-01-02T03:04:06.000Z";
const userLine = (id: string, content: string, parentId: string | null = null) =>
	JSON.stringify({ type: "user", id, parentId, ts, content });

describe("session faults are facts", () => {
	it("a session folder under a regular file is a SessionError naming the path, and leaves no file", () => {
		const base = tmp();
		writeFileSync(join(base, "plain"), "x");
		const create = () => SessionWriter.create({ dir: join(base, "plain", "sessions"), cwd: CWD });
		expect(create).toThrow(SessionError);
		expect(create).toThrow(/cannot save sessions in .*plain.*is a file, not a folder/);
	});

	it("a session folder under /proc/sys fails at once (Node 20's recursive mkdir would spin there)", () => {
		expect(() => SessionWriter.create({ dir: "/proc/sys/gar-test", cwd: CWD })).toThrow(SessionError);
	});

	it("a full disk while writing the header leaves no 0-byte session file", () => {
		const base = tmp();
		const full = () => {
			throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
		};
		const create = () => SessionWriter.create({ dir: base, cwd: CWD, appendLine: full });
		expect(create).toThrow(/cannot write the session file .*\.jsonl: ENOSPC/);
		expect(filesUnder(base)).toEqual([]);
	});

	it("a lazy session has its id at once and its file only with the first entry", () => {
		const base = tmp();
		const writer = SessionWriter.create({ dir: base, cwd: CWD, lazy: true, now: fakeClock() });
		expect(writer.session.header.id).toMatch(/^[0-9a-z]{12}$/);
		expect(existsSync(writer.file)).toBe(false);
		writer.appendUser("hello");
		writer.close();
		expect(loadSession(writer.file).entries.map((e) => e.type)).toEqual(["user"]);
	});

	it("a line nested thousands deep is skipped with a warning; fork and context still work", () => {
		const dir = tmp();
		const file = join(dir, "deep.jsonl");
		const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
		const assistant = `{"type":"assistant","id":"a1","parentId":"u1","ts":"${ts}","content":[{"type":"tool_call","id":"c1","name":"bash","arguments":{"x":${deep}}}],"provider":"openai","model":"m","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0},"stopReason":"tool_use"}`;
		const result = JSON.stringify({
			type: "tool_result",
			id: "t1",
			parentId: "a1",
			ts,
			callId: "c1",
			name: "bash",
			content: "ok",
			isError: false,
		});
		writeFileSync(file, [header("deepsession01"), userLine("u1", "go"), assistant, result, ""].join("\n"));
		const session = loadSession(file);
		expect(session.get("a1")).toBeUndefined();
		expect(session.warnings.join("\n")).toMatch(/skipped 1 line \(3\) in .* nested deeper than 100 levels/);
		expect(() => buildContext(session)).not.toThrow();
		const copy = forkSession(file, undefined, { dir: tmp() });
		expect(loadSession(copy).get("t1")).toBeDefined();
	});

	it("the interactive setup (lazySession) leaves no session file when nobody typed anything", async () => {
		const home = tmp();
		const base = join(home, "sessions");
		const env = { HOME: home, XDG_CONFIG_HOME: join(home, "config"), OPENAI_API_KEY: "k" };
		const flags = { cwd: home, sessionDir: base, provider: "openai" as const };
		const idle = await setupRun(flags, env, { lazySession: true });
		expect(idle.conversation.session?.session.header.id).toMatch(/^[0-9a-z]{12}$/);
		idle.conversation.close();
		expect(filesUnder(base)).toEqual([]);
		const eager = await setupRun(flags, env);
		eager.conversation.close();
		expect(filesUnder(base)).toHaveLength(1);
	});

	it("a session file that starts with a UTF-8 BOM loads and is listed", () => {
		const base = tmp();
		const dir = sessionDirFor(base, CWD);
		mkdirSync(dir, { recursive: true });
		const file = join(dir, "2026-01-02T03-04-05-000Z_bomsession01.jsonl");
		writeFileSync(file, `\ufeff${header("bomsession01")}\n${userLine("u1", "hi")}\n`);
		expect(loadSession(file).entries).toHaveLength(1);
		expect(listSessions(base, CWD).map((s) => s.id)).toEqual(["bomsession01"]);
	});

	it("gar -c names a session it skipped because a newer gar wrote it", () => {
		const base = tmp();
		const dir = sessionDirFor(base, CWD);
		mkdirSync(dir, { recursive: true });
		const file = join(dir, "2026-01-02T03-04-05-000Z_newsession01.jsonl");
		writeFileSync(file, `${header("newsession01", 2)}\n${userLine("u1", "hi")}\n`);
		expect(() => openRunSession({ continue: true }, base, CWD)).toThrow(/written by a newer gar .*upgrade gar/);
		// With an older session of its own to continue, the newer one is still named, as a warning.
		const old = join(dir, "2025-01-02T03-04-05-000Z_oldsession01.jsonl");
		writeFileSync(
			old,
			`${header("oldsession01")}\n${userLine("u1", "hi")}\n${JSON.stringify({ type: "assistant", id: "a1", parentId: "u1", ts, content: [{ type: "text", text: "yo" }], provider: "openai", model: "m", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }, stopReason: "stop" })}\n`,
		);
		utimesSync(old, new Date(2020, 1, 1), new Date(2020, 1, 1));
		const opened = openRunSession({ continue: true, noSession: true }, base, CWD);
		expect(opened.warnings.join("\n")).toMatch(/newsession01.*newer gar/);
	});

	it("a session file that cannot be written is a SessionError naming the path and the cause (gar -c, the app)", (ctx) => {
		const base = tmp();
		const writer = SessionWriter.create({ dir: base, cwd: CWD });
		writer.appendUser("hi");
		writer.close();
		const undo = makeUnwritable(writer.file);
		if (!undo) return ctx.skip();
		try {
			// What setupRun does for `gar -c` and `--session`, in headless mode and in the full-screen app.
			const resume = () => openRunSession({ continue: true }, base, CWD);
			expect(resume).toThrow(SessionError);
			const cause = /(permission denied \(EACCES\)|operation not permitted \(EPERM\))/.source;
			const pattern = `^cannot write to the session file ${writer.file}: ${cause}; make it writable, or add --no-session`;
			expect(resume).toThrow(new RegExp(pattern));
			// Other writers (gar label, gar name) get the path and the cause, without the advice about runs.
			expect(() => SessionWriter.open(writer.file)).toThrow(
				new RegExp(`^cannot write to the session file ${writer.file}: ${cause}$`),
			);
			// Reading it needs no write: --no-session continues from it.
			expect(openRunSession({ continue: true, noSession: true }, base, CWD).history).toHaveLength(1);
		} finally {
			undo();
		}
	});

	it("continuing a session recorded in another directory is refused, naming both", () => {
		const base = tmp();
		const writer = SessionWriter.create({ dir: base, cwd: CWD });
		writer.appendUser("hi");
		writer.close();
		expect(() => openRunSession({ session: writer.file }, base, "/somewhere/else")).toThrow(
			/recorded in \/home\/me\/src\/app, not in \/somewhere\/else: continue it there \(gar --cwd/,
		);
	});
});

describe("tool-call arguments nested too deep", () => {
	it("nestsDeeperThan is iterative and exact at the limit", () => {
		let value: unknown = {};
		for (let i = 1; i < 64; i++) value = { v: value };
		expect(nestsDeeperThan(value, 64)).toBe(false);
		expect(nestsDeeperThan({ v: value }, 64)).toBe(true);
		let huge: unknown = [];
		for (let i = 0; i < 200_000; i++) huge = [huge];
		expect(nestsDeeperThan(huge, 64)).toBe(true);
	});

	it("are refused as invalid when the call arrives, and never reach the history", async () => {
		let args: Record<string, unknown> = { command: "true" };
		for (let i = 0; i < 1000; i++) args = { nest: args };
		const provider = createScriptedProvider([{ toolCalls: [{ name: "bash", args }] }, { text: "ok" }], {
			model: "m",
		});
		const channel = new EventChannel();
		const events: AgentEvent[] = [];
		channel.subscribe((e) => events.push(e));
		const system = { text: "sys", parts: [{ source: "base" as const, text: "sys" }] };
		const tools = [createBashTool({ cwd: tmp() })];
		const agent = new Agent({ provider, model: "m", system, tools, channel });
		await agent.run("go");
		const end = events.find((e) => e.type === "tool_end");
		expect(end).toMatchObject({ isError: true, outcome: "error" });
		expect(JSON.stringify(end)).toContain(`nested deeper than ${MAX_ARGUMENT_DEPTH} levels`);
		expect(events.some((e) => e.type === "tool_start")).toBe(false);
		const message = events.find((e) => e.type === "message_end");
		expect(nestsDeeperThan(message, 20)).toBe(false);
	});
});
