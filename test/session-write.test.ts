import { appendFileSync, readFileSync, statSync } from "node:fs";
import { basename, dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { EventChannel } from "../src/agent/channel.js";
import { FORMAT_VERSION, SessionError } from "../src/session/format.js";
import { loadSession } from "../src/session/load.js";
import { projectSlug, sessionDirFor } from "../src/session/paths.js";
import { SessionRecorder } from "../src/session/recorder.js";
import { redactSecrets } from "../src/session/redact.js";
import { SessionWriter } from "../src/session/writer.js";
import { fakeClock, firstReply, MODEL, PROVIDER, tempDirsPerTest, twoTurnRun } from "./fixtures/session/run.js";

const tmp = tempDirsPerTest();
/** Records a channel's events into `writer`; a write failure fails the test. */
function attach(writer: SessionWriter, channel: EventChannel): () => void {
	return new SessionRecorder(writer, (_file, error) => {
		throw new Error(error);
	}).attach(channel);
}
function lines(file: string): Record<string, unknown>[] {
	return readFileSync(file, "utf8")
		.split("\n")
		.filter(Boolean)
		.map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("SessionWriter.create", () => {
	it("makes <dir>/<project-slug>/<timestamp>_<id>.jsonl with mode 0600 in a 0700 folder", () => {
		const base = tmp();
		const writer = SessionWriter.create({ dir: base, cwd: "/home/me/src/app", now: fakeClock() });
		writer.close();
		expect(dirname(writer.file)).toBe(sessionDirFor(base, "/home/me/src/app"));
		expect(basename(dirname(writer.file))).toMatch(/^home-me-src-app-[0-9a-f]{8}$/);
		expect(basename(writer.file)).toBe(`2026-01-02T03-04-05-000Z_${writer.session.header.id}.jsonl`);
		expect(statSync(writer.file).mode & 0o777).toBe(0o600);
		expect(statSync(dirname(writer.file)).mode & 0o777).toBe(0o700);
		expect(lines(writer.file)).toEqual([
			{
				type: "session",
				version: FORMAT_VERSION,
				id: writer.session.header.id,
				cwd: "/home/me/src/app",
				createdAt: "2026-01-02T03:04:05.000Z",
			},
		]);
	});

	it("gives different projects different slugs, even when their words are the same", () => {
		expect(projectSlug("/home/me/src/app")).not.toBe(projectSlug("/home/me/src-app"));
		expect(projectSlug("/")).toMatch(/^root-[0-9a-f]{8}$/);
		expect(projectSlug(`/x/${"deep/".repeat(40)}end`).length).toBeLessThanOrEqual(60 + 9);
	});
});

describe("recording agent events", () => {
	it("turns a 2-turn run with a tool call into user, assistant, tool_result, assistant entries", () => {
		const base = tmp();
		const writer = SessionWriter.create({ dir: base, cwd: "/w", now: fakeClock() });
		const channel = new EventChannel((error) => {
			throw error;
		});
		const detach = attach(writer, channel);
		const events = twoTurnRun();
		for (const event of events) {
			channel.emit(event);
			// The user entry is on disk before the model is called (the next event).
			if (event.type === "user_message") expect(readFileSync(writer.file, "utf8")).toContain('"type":"user"');
		}
		detach();
		writer.close();

		const [header, ...entries] = lines(writer.file);
		expect(header?.type).toBe("session");
		expect(entries.map((e) => e.type)).toEqual([
			"model_change",
			"user",
			"assistant",
			"request",
			"tool_start",
			"tool_result",
			"assistant",
			"request",
			"run",
		]);
		const nodes = entries.filter((e) => e.meta !== true);
		for (const [i, entry] of nodes.entries()) {
			expect(entry.id).toMatch(/^[0-9a-z]{10}$/);
			expect(entry.parentId).toBe(i === 0 ? null : nodes[i - 1]?.id);
			expect(Object.keys(entry).slice(0, 4)).toEqual(["type", "id", "parentId", "ts"]);
		}
		expect(nodes[0]).toMatchObject({ provider: PROVIDER, model: MODEL });
		expect(nodes[1]).toMatchObject({ content: "List the files", source: "prompt", runId: "run_1" });
		expect(nodes[2]).toMatchObject({ content: firstReply.content, stopReason: "tool_use", costUsd: 0.0012 });
		expect(nodes[3]).toMatchObject({
			callId: "call_1",
			name: "bash",
			content: "a.txt\nb.txt\n",
			details: { kind: "bash", exitCode: 0, durationMs: 12 },
			isError: false,
			outcome: "done",
			durationMs: 12,
			runId: "run_1",
		});
		// Records hang off the entry they follow and never become part of the path.
		expect(entries[3]).toMatchObject({
			meta: true,
			parentId: nodes[2]?.id,
			requestId: "run_1.1",
			runId: "run_1",
			turn: 1,
			startedAt: Date.parse("2026-01-02T03:04:05.000Z"),
			ttftMs: 300,
			durationMs: 900,
			retries: 0,
			messageCount: 1,
			usage: firstReply.usage,
			costUsd: 0.0012,
		});
		expect(entries[4]).toMatchObject({ type: "tool_start", meta: true, callId: "call_1", name: "bash" });
		expect(entries[8]).toMatchObject({ type: "run", runId: "run_1", stopReason: "done", turns: 2, maxTurns: 50 });

		const session = loadSession(writer.file);
		expect(session.warnings).toEqual([]);
		expect(session.entries).toHaveLength(9);
		expect(session.leafId).toBe(nodes[4]?.id);
		expect(session.pathTo(session.leafId).map((e) => e.type)).toEqual([
			"model_change",
			"user",
			"assistant",
			"tool_result",
			"assistant",
		]);
	});

	it("writes a model_change only when the model differs from the one chosen on the path", () => {
		const writer = SessionWriter.create({ dir: tmp(), cwd: "/w", now: fakeClock() });
		const channel = new EventChannel();
		attach(writer, channel);
		for (const event of twoTurnRun()) channel.emit(event);
		for (const event of twoTurnRun("again")) channel.emit(event);
		channel.emit({
			type: "agent_start",
			runId: "r3",
			provider: "openai",
			model: "gpt-5",
			maxTurns: 5,
			contextWindow: null,
		});
		writer.close();
		const types = writer.session.entries.map((e) => e.type);
		expect(types.filter((t) => t === "model_change")).toHaveLength(2);
		expect(writer.session.entries.at(-1)).toMatchObject({ type: "model_change", provider: "openai", model: "gpt-5" });
	});

	it("saves an aborted reply with its partial content", () => {
		const writer = SessionWriter.create({ dir: tmp(), cwd: "/w" });
		writer.appendUser("go");
		new SessionRecorder(writer, () => {}).record({
			type: "message_end",
			requestId: "r.1",
			turn: 1,
			message: { ...firstReply, stopReason: "aborted", error: "aborted by the user", errorKind: "aborted" },
			costUsd: null,
			timing: { startedAt: 0, firstTokenMs: null, durationMs: 10 },
			retries: 0,
			errorKind: "aborted",
		});
		writer.close();
		const entry = loadSession(writer.file).entries.at(-2);
		expect(entry).toMatchObject({
			type: "assistant",
			stopReason: "aborted",
			errorKind: "aborted",
			content: firstReply.content,
			costUsd: null,
		});
	});
});

describe("redaction", () => {
	it("removes API keys and bearer tokens from error messages", () => {
		const text =
			"401 from https://api: Authorization: Bearer abcdefghijklmnop1234 key sk-ant-api03-AAAAbbbbCCCCdddd " +
			'and sk-proj-ABCDEFGHIJKLMNOPQRSTUV, x-api-key: "k1234567890abc"';
		const out = redactSecrets(text);
		expect(out).not.toMatch(/abcdefghijklmnop1234|AAAAbbbb|ABCDEFGHIJKLMNOP|k1234567890abc/);
		expect(out).toContain("sk-ant-[redacted]");
		expect(out).toContain("sk-[redacted]");
		expect(redactSecrets("no secrets; the task ran; skip-this sk-short")).toBe(
			"no secrets; the task ran; skip-this sk-short",
		);
	});

	it("is applied to assistant errors before they reach the file", () => {
		const writer = SessionWriter.create({ dir: tmp(), cwd: "/w" });
		writer.appendAssistant({
			...firstReply,
			content: [],
			stopReason: "error",
			error: "401 Unauthorized (x-api-key: sk-ant-api03-secretsecretsecret)",
		});
		writer.close();
		const raw = readFileSync(writer.file, "utf8");
		expect(raw).not.toContain("secretsecret");
		expect(raw).toContain("[redacted]");
	});
});

describe("metadata and the leaf", () => {
	it("labels and names do not move the leaf; the latest name and label win; null clears a label", () => {
		const writer = SessionWriter.create({ dir: tmp(), cwd: "/w" });
		const user = writer.appendUser("hello");
		writer.label(user.id, "start");
		writer.setName("first name");
		writer.setName("  second name ");
		const reply = writer.appendAssistant(firstReply);
		expect(reply.parentId).toBe(user.id);
		writer.label(reply.id, "reply");
		writer.label(user.id, null);
		writer.close();
		const session = loadSession(writer.file);
		expect(session.leafId).toBe(reply.id);
		expect(session.name).toBe("second name");
		expect([...session.labels]).toEqual([[reply.id, "reply"]]);
		expect(() => SessionWriter.open(writer.file).label("nope", "x")).toThrow(SessionError);
	});

	it("moveTo survives a restart, and the next message becomes a child of that entry", () => {
		const writer = SessionWriter.create({ dir: tmp(), cwd: "/w" });
		const a = writer.appendUser("a");
		writer.appendAssistant(firstReply);
		writer.moveTo(a.id);
		writer.close();

		const reopened = SessionWriter.open(writer.file);
		expect(reopened.leafId).toBe(a.id);
		const b = reopened.appendUser("b");
		expect(b.parentId).toBe(a.id);
		reopened.moveTo(null);
		reopened.close();

		const session = loadSession(writer.file);
		expect(session.leafId).toBeNull();
		const again = SessionWriter.open(writer.file);
		expect(again.appendUser("new root").parentId).toBeNull();
		again.close();
		expect(loadSession(writer.file).roots()).toHaveLength(2);
	});

	it("refuses to move to a missing entry or to a metadata entry", () => {
		const writer = SessionWriter.create({ dir: tmp(), cwd: "/w" });
		const user = writer.appendUser("a");
		const label = writer.label(user.id, "x");
		expect(() => writer.moveTo("missing")).toThrow(/no entry missing/);
		expect(() => writer.moveTo(label.id)).toThrow(SessionError);
		writer.close();
	});
});

describe("appending after a crash", () => {
	it("starts a fresh line after a torn last line, leaving the torn bytes as they were", () => {
		const writer = SessionWriter.create({ dir: tmp(), cwd: "/w" });
		const first = writer.appendUser("before the crash");
		writer.close();
		appendFileSync(writer.file, '{"type":"assistant","id":"torn","par');
		const before = readFileSync(writer.file, "utf8");

		const reopened = SessionWriter.open(writer.file);
		const next = reopened.appendUser("after the crash");
		reopened.close();
		expect(readFileSync(writer.file, "utf8").startsWith(before)).toBe(true);
		expect(next.parentId).toBe(first.id);

		const session = loadSession(writer.file);
		expect(session.entries.map((e) => e.id)).toEqual([first.id, next.id]);
		expect(session.warnings).toEqual([`skipped 1 malformed line (3) in ${writer.file}`]);
	});

	it("refuses appends after close", () => {
		const writer = SessionWriter.create({ dir: tmp(), cwd: "/w" });
		writer.close();
		writer.close();
		expect(() => writer.appendUser("late")).toThrow(/closed/);
	});
});
