// Hooks in a conversation as the app composes it (setupRun with an `ask`, a lazy session): the one approval path for
// a hook's "ask", notifications, Esc during a hook, context reaching the model, records in the session.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../src/agent/events.js";
import type { ApprovalDecision, ApprovalRequest } from "../src/agent/loop.js";
import { permissionRequest } from "../src/modes/acp/permission.js";
import { type Setup, setupRun } from "../src/modes/setup.js";
import { forkSession, isMetadata, loadSession, replayEvents, SessionWriter } from "../src/session/index.js";
import { reduce } from "../src/view/reducer.js";
import { initialView } from "../src/view/state.js";
import { hookToml, hookWorld, running, sent } from "./support/hook-world.js";
import { startWireServer, type WireServer } from "./support/wire-server.js";

let server: WireServer | undefined;
let setup: Setup | undefined;
afterEach(async () => {
	await setup?.conversation.close();
	setup = undefined;
	await server?.close();
	server = undefined;
});

/** The app's composition: config, hooks, tools and the Conversation, with `ask` answering approval questions. */
async function app(w: ReturnType<typeof hookWorld>, ask?: (request: ApprovalRequest) => ApprovalDecision) {
	setup = await setupRun({ cwd: w.project, baseUrl: server?.url ?? "" }, w.env, {
		...(ask ? { ask: async (request) => ask(request) } : {}),
		lazySession: true,
	});
	const events: AgentEvent[] = [];
	setup.channel.subscribe((event) => events.push(event));
	return { setup, conversation: setup.conversation, events };
}

const bash = (command: string, id: string) => ({ toolCalls: [{ id, name: "bash", args: { command } }] });
const askJson = (reason: string) =>
	`echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"${reason}"}}'`;

describe("a PreToolUse hook's ask", () => {
	it("goes through the one approval path with the hook's reason, even where --approve would not ask", async () => {
		const w = hookWorld(
			hookToml("PreToolUse", askJson("it deploys"), { matcher: "bash" }) + hookToml("Notification", "$HOOKS/log.sh"),
		);
		server = await startWireServer([
			bash("echo one > one.txt", "c1"),
			bash("echo two > two.txt", "c2"),
			{ text: "ok" },
		]);
		const asked: ApprovalRequest[] = [];
		const { conversation, events } = await app(w, (request) => {
			asked.push(request);
			return asked.length === 1 ? { approved: true } : { approved: false, reason: "not now" };
		});
		await conversation.run("deploy");
		expect(asked.map((r) => [r.callId, r.reason, r.preview.kind])).toEqual([
			["c1", "the PreToolUse hook echo: it deploys", "bash"],
			["c2", "the PreToolUse hook echo: it deploys", "bash"],
		]);
		expect(existsSync(join(w.project, "one.txt"))).toBe(true);
		expect(existsSync(join(w.project, "two.txt"))).toBe(false);
		// The dialog reads the question (with the hook's reason) from the view.
		let view = initialView({ provider: "openai", model: "m" });
		for (const event of events) {
			view = reduce(view, event, 0);
			if (event.type === "approval_request" && event.callId === "c1") break;
		}
		expect(view.pending).toMatchObject({ callId: "c1", reason: "the PreToolUse hook echo: it deploys" });
		// gar waited for the person: a Notification hook heard of it each time.
		await new Promise((r) => setTimeout(r, 100));
		expect(w.logged().map((p) => [p.notification_type, p.message])).toEqual([
			["permission_prompt", "gar needs your permission to use bash"],
			["permission_prompt", "gar needs your permission to use bash"],
		]);
	});

	it("of a read opens the question with a read's preview", async () => {
		const w = hookWorld(hookToml("PreToolUse", askJson("secrets live here"), { matcher: "read" }));
		server = await startWireServer([
			{ toolCalls: [{ id: "r1", name: "read", args: { path: ".env" } }] },
			{ text: "ok" },
		]);
		const asked: ApprovalRequest[] = [];
		const { conversation } = await app(w, (request) => {
			asked.push(request);
			return { approved: false };
		});
		await conversation.run("read .env");
		expect(asked[0]?.preview).toEqual({ kind: "read", path: ".env" });
	});
});

describe("a resumed session", () => {
	it("replays a tool call's hook runs with it, so the view shows them under the call again", async () => {
		const w = hookWorld(
			hookToml("PreToolUse", "echo 'no rm' >&2; exit 2", { matcher: "bash" }) +
				hookToml("PostToolUse", "echo formatted", { matcher: "write" }),
		);
		server = await startWireServer([
			bash("rm -rf x", "c1"),
			{ toolCalls: [{ id: "w1", name: "write", args: { path: "a.txt", content: "x" } }] },
			{ text: "ok" },
		]);
		const { conversation } = await app(w);
		await conversation.run("go");
		const file = conversation.session?.file ?? "";
		await conversation.close();
		setup = undefined;
		const events = [...replayEvents(loadSession(file))].map((r) => r.event);
		const order = events
			.filter((e) => e.type === "hook" || e.type === "tool_start" || e.type === "tool_end")
			.map((e) => (e.type === "hook" ? `hook:${e.event}:${e.callId}` : `${e.type}:${"callId" in e ? e.callId : ""}`));
		expect(order).toEqual(["hook:PreToolUse:c1", "tool_end:c1", "tool_start:w1", "hook:PostToolUse:w1", "tool_end:w1"]);
		let view = initialView({ provider: "openai", model: "m" });
		for (const event of events) view = reduce(view, event, 0);
		const calls = view.items.filter((item) => item.kind === "tool");
		expect(calls.map((item) => item.kind === "tool" && item.hooks?.map((h) => h.decision ?? h.message))).toEqual([
			["deny"],
			["formatted"],
		]);
	});
});

describe("Notification", () => {
	it("fires when a run ends while the terminal is not focused, and not while it is", async () => {
		const w = hookWorld(hookToml("Notification", "$HOOKS/log.sh"));
		server = await startWireServer([{ text: "one" }, { text: "two" }]);
		const { conversation } = await app(w);
		conversation.setFocused(true);
		await conversation.run("first");
		conversation.setFocused(false);
		await conversation.run("second");
		await new Promise((r) => setTimeout(r, 100));
		expect(w.logged().map((p) => [p.hook_event_name, p.notification_type])).toEqual([["Notification", "idle_prompt"]]);
	});
});

describe("Esc during a hook", () => {
	it("kills the hook's process group; the call never runs and the run ends aborted", async () => {
		const w = hookWorld();
		const pidFile = join(w.root, "child.pid");
		w.config(hookToml("PreToolUse", `sleep 30 & echo $! > ${pidFile}; wait`));
		server = await startWireServer([bash("echo ran > ran.txt", "c1"), { text: "never" }]);
		const { conversation, events } = await app(w);
		const result = conversation.run("go");
		let child = 0;
		for (let i = 0; i < 300 && !child; i++) {
			await new Promise((r) => setTimeout(r, 20));
			child = existsSync(pidFile) ? Number(readFileSync(pidFile, "utf8")) : 0;
		}
		conversation.abort();
		expect((await result).stopReason).toBe("aborted");
		await new Promise((r) => setTimeout(r, 200));
		expect(running(child)).toBe(false);
		expect(existsSync(join(w.project, "ran.txt"))).toBe(false);
		expect(events.find((e) => e.type === "hook")).toMatchObject({ status: "aborted" });
		expect(events.find((e) => e.type === "tool_end")).toMatchObject({ outcome: "not_run" });
	});
});

describe("SessionStart and the session file", () => {
	it("context reaches the first request; records wait for a lazy session's first entry; nothing typed, no file", async () => {
		const w = hookWorld(hookToml("SessionStart", "echo 'on branch main'") + hookToml("SessionEnd", "true"));
		server = await startWireServer([{ text: "ok" }]);
		const idle = await app(w);
		await idle.conversation.start();
		const file = idle.conversation.session?.file ?? "";
		expect(idle.events.find((e) => e.type === "hook")).toMatchObject({
			event: "SessionStart",
			context: "on branch main",
		});
		await idle.conversation.close();
		setup = undefined;
		expect(existsSync(file)).toBe(false);

		const { conversation } = await app(w);
		await conversation.start();
		await conversation.run("hi");
		expect(sent(server, 0)).toContain("Context from the SessionStart hook echo:\\non branch main");
		const saved = conversation.session?.file ?? "";
		await conversation.close();
		setup = undefined;
		const lines = readFileSync(saved, "utf8")
			.trim()
			.split("\n")
			.map((l) => JSON.parse(l));
		const kinds = lines.map((l) =>
			l.type === "hook" ? `hook:${l.event}` : l.type === "user" ? `user:${l.source}` : l.type,
		);
		expect(kinds).toEqual([
			"session",
			"hook:SessionStart",
			"system_prompt",
			"model_change",
			"user:hook",
			"user:prompt",
			"assistant",
			"request",
			"run",
			"hook:SessionEnd",
		]);
		expect(lines[1]).toMatchObject({ meta: true, name: "echo", status: "ok", exitCode: 0, context: "on branch main" });
		// Records, never nodes: the conversation's path holds none of them.
		const session = loadSession(saved);
		const hooks = session.entries.filter((entry) => entry.type === "hook");
		expect(hooks.map((entry) => isMetadata(entry))).toEqual([true, true]);
		expect(session.pathTo(session.leafId).map((entry) => entry.type as string)).not.toContain("hook");
	});

	it("/new ends the old session (reason clear) and starts the new one (source clear)", async () => {
		const w = hookWorld(hookToml("SessionStart", "$HOOKS/log.sh") + hookToml("SessionEnd", "$HOOKS/log.sh"));
		server = await startWireServer([{ text: "ok" }]);
		const { conversation } = await app(w);
		await conversation.start();
		await conversation.run("hi");
		await conversation.newSession();
		expect(w.logged().map((p) => `${p.hook_event_name}:${p.source ?? p.reason}`)).toEqual([
			"SessionStart:startup",
			"SessionEnd:clear",
			"SessionStart:clear",
		]);
	});

	it("a fork or clone ends the old session (reason other) and resumes the copy (source resume)", async () => {
		const w = hookWorld(hookToml("SessionStart", "$HOOKS/log.sh") + hookToml("SessionEnd", "$HOOKS/log.sh"));
		server = await startWireServer([{ text: "ok" }]);
		const { conversation } = await app(w);
		await conversation.start();
		await conversation.run("hi");
		const source = conversation.session as SessionWriter;
		const copy = SessionWriter.open(forkSession(source.file, undefined, { dir: w.root }));
		await conversation.switchSession(copy);
		expect(conversation.session).toBe(copy);
		expect(w.logged().map((p) => `${p.hook_event_name}:${p.source ?? p.reason}`)).toEqual([
			"SessionStart:startup",
			"SessionEnd:other",
			"SessionStart:resume",
		]);
	});

	it("an automatic compaction runs PreCompact (auto), and SessionStart (compact) context reaches the next request", async () => {
		const w = hookWorld(
			"[context]\nwindow = 4000\nreserve_tokens = 1000\nkeep_recent_tokens = 100\n\n" +
				hookToml("PreCompact", "$HOOKS/log.sh") +
				hookToml("SessionStart", "echo 'read NOTES.md again'", { matcher: "compact" }),
		);
		server = await startWireServer([
			{ text: "one", usage: { input: 3500, output: 10 } },
			{ text: "SUMMARY" },
			{ text: "two" },
		]);
		const { conversation } = await app(w);
		await conversation.run(`task one ${"x".repeat(400)}`);
		await conversation.run("task two");
		expect(w.logged()).toEqual([expect.objectContaining({ hook_event_name: "PreCompact", trigger: "auto" })]);
		expect(server.requests).toHaveLength(3);
		expect(sent(server, 2)).toContain("Context from the SessionStart hook echo:\\nread NOTES.md again");
	});
});

describe("an ACP client's permission request", () => {
	it("leads with a hook's reason, and shows a read a hook asked about", () => {
		const update = permissionRequest(
			{
				callId: "r1",
				name: "read",
				args: { path: ".env" },
				preview: { kind: "read", path: ".env" },
				reason: "the PreToolUse hook guard.sh: secrets live here",
			},
			"/p",
		);
		expect(update.content).toEqual([
			{ type: "content", content: { type: "text", text: "the PreToolUse hook guard.sh: secrets live here" } },
			{ type: "content", content: { type: "text", text: "Read .env" } },
		]);
	});
});
