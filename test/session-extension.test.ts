import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildContext, INTERRUPTED, NOT_RUN } from "../src/session/context.js";
import type { ToolStartEntry } from "../src/session/format.js";
import { loadSession } from "../src/session/load.js";
import { SessionWriter } from "../src/session/writer.js";
import { fakeClock, firstReply, tempDirsPerTest } from "./fixtures/session/run.js";

const tmp = tempDirsPerTest();
const header = { type: "session", version: 1, id: "ext000000001", cwd: "/w", createdAt: "2026-01-02T03:04:05.000Z" };
const ts = "2026-01-02T03:04:06.000Z";

/** A session file made of these records, one JSON line each. */
function file(...records: object[]): string {
	const path = join(tmp(), "s.jsonl");
	writeFileSync(path, `${[header, ...records].map((r) => JSON.stringify(r)).join("\n")}\n`);
	return path;
}

describe("the extension rule: entries this gar does not know", () => {
	it("keeps an unknown type marked meta out of the tree: never a node, never on a path, never the leaf", () => {
		const session = loadSession(
			file(
				{ type: "user", id: "u1", parentId: null, ts, content: "hi" },
				{ type: "bookmark", meta: true, id: "b1", parentId: "u1", ts, note: "from a newer gar" },
				{ type: "user", id: "u2", parentId: "u1", ts, content: "more" },
				{ type: "bookmark", meta: true, id: "b2", parentId: "u2", ts },
			),
		);
		expect(session.warnings).toEqual([]);
		expect(session.get("b1")).toMatchObject({ type: "unknown", meta: true, raw: { note: "from a newer gar" } });
		expect(session.node("b1")).toBeUndefined();
		expect(session.leafId).toBe("u2");
		expect(session.pathTo("u2").map((e) => e.id)).toEqual(["u1", "u2"]);
		expect(session.children("u1").map((e) => e.id)).toEqual(["u2"]);
		expect(session.leaves().map((e) => e.id)).toEqual(["u2"]);
		expect(session.branchPoints()).toEqual([]);
	});

	it("keeps an unknown type without meta as a tree node its children hang off", () => {
		const session = loadSession(
			file(
				{ type: "user", id: "u1", parentId: null, ts, content: "hi" },
				{ type: "checkpoint", id: "c1", parentId: "u1", ts },
				{ type: "user", id: "u2", parentId: "c1", ts, content: "after" },
			),
		);
		expect(session.node("c1")).toMatchObject({ type: "unknown", meta: false });
		expect(session.pathTo("u2").map((e) => e.id)).toEqual(["u1", "c1", "u2"]);
		expect(buildContext(session).messages).toEqual([
			{ role: "user", content: "hi" },
			{ role: "user", content: "after" },
		]);
	});

	it("degrades a known type with a bad field to an unknown node, so its children keep their parent", () => {
		const session = loadSession(
			file(
				{ type: "user", id: "u1", parentId: null, ts, content: "hi" },
				// `content` must be an array of blocks.
				{ type: "assistant", id: "a1", parentId: "u1", ts, content: 42, provider: "p", model: "m" },
				{ type: "user", id: "u2", parentId: "a1", ts, content: "still here" },
			),
		);
		expect(session.get("a1")).toMatchObject({ type: "unknown", meta: false });
		expect(session.get("u2")?.parentId).toBe("a1");
		expect(session.pathTo("u2").map((e) => e.id)).toEqual(["u1", "a1", "u2"]);
		expect(session.warnings).toEqual([
			"1 entry does not match the fields of its type and was kept as an unknown entry (a1)",
		]);
	});

	it("makes an entry that names itself as its parent a root instead of a cycle", () => {
		const session = loadSession(
			file(
				{ type: "user", id: "u1", parentId: "u1", ts, content: "loop" },
				{ type: "user", id: "u2", parentId: "u1", ts, content: "child" },
			),
		);
		expect(session.get("u1")?.parentId).toBeNull();
		expect(session.pathTo("u2").map((e) => e.id)).toEqual(["u1", "u2"]);
		expect(session.warnings).toEqual(["1 entry whose parent is missing became a root (u1)"]);
	});
});

describe("records written by this gar", () => {
	it("are metadata: a request, run and tool_start record never change the path or the leaf", () => {
		const writer = SessionWriter.create({ dir: tmp(), cwd: "/w", now: fakeClock() });
		const user = writer.appendUser("go", { source: "prompt", runId: "r1" });
		const reply = writer.appendAssistant(firstReply, 0.001, "r1");
		writer.appendRecord<ToolStartEntry>({ type: "tool_start", callId: "call_1", name: "bash", runId: "r1" });
		writer.close();
		const session = loadSession(writer.file);
		expect(session.warnings).toEqual([]);
		expect(session.leafId).toBe(reply.id);
		expect(session.pathTo(session.leafId).map((e) => e.id)).toEqual([user.id, reply.id]);
		expect(session.entries.at(-1)).toMatchObject({ type: "tool_start", meta: true, parentId: reply.id });
	});

	it("tell a call that started but never finished from one that never ran", () => {
		const writer = SessionWriter.create({ dir: tmp(), cwd: "/w", now: fakeClock() });
		writer.appendUser("go");
		writer.appendAssistant({
			...firstReply,
			content: [
				{ type: "tool_call", id: "ran", name: "bash", arguments: { command: "git commit -am x" } },
				{ type: "tool_call", id: "never", name: "bash", arguments: { command: "git push" } },
			],
		});
		// gar died while the first call ran: its start is recorded, its result is not.
		writer.appendRecord<ToolStartEntry>({ type: "tool_start", callId: "ran", name: "bash" });
		writer.close();
		const { messages } = buildContext(loadSession(writer.file));
		expect(messages.slice(2)).toEqual([
			{ role: "tool_result", callId: "ran", name: "bash", content: INTERRUPTED, isError: true },
			{ role: "tool_result", callId: "never", name: "bash", content: NOT_RUN, isError: true },
		]);
		expect(INTERRUPTED).toContain("may have run");
	});

	it("store the system prompt once per distinct content", () => {
		const writer = SessionWriter.create({ dir: tmp(), cwd: "/w", now: fakeClock() });
		const prompt = { hash: "h1", text: "sys", parts: [], toolsHash: "t1", tools: [] };
		writer.ensurePrompt(prompt);
		writer.ensurePrompt(prompt);
		writer.ensurePrompt({ ...prompt, hash: "h2", text: "other" });
		writer.close();
		const reopened = SessionWriter.open(writer.file);
		reopened.ensurePrompt(prompt);
		reopened.close();
		const types = loadSession(writer.file).entries.map((e) => (e.type === "system_prompt" ? e.hash : e.type));
		expect(types).toEqual(["h1", "h2"]);
	});

	it("mask the key values in use in every line written", () => {
		const key = "sk-test-0123456789abcdef";
		const writer = SessionWriter.create({ dir: tmp(), cwd: "/w", secrets: [key] });
		writer.appendUser(`my key is ${key}`);
		writer.appendToolResult({
			callId: "c",
			name: "bash",
			content: `OPENAI_API_KEY=${key}`,
			details: null,
			isError: false,
		});
		writer.close();
		const text = loadSession(writer.file)
			.entries.map((e) => JSON.stringify(e))
			.join("\n");
		expect(text).not.toContain(key);
		expect(text).toContain("my key is [redacted]");
	});
});
