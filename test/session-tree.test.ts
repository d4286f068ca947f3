import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AssistantMessage } from "../src/llm/types.js";
import { buildContext, NOT_RUN } from "../src/session/context.js";
import { loadSession } from "../src/session/load.js";
import { resolveEntry } from "../src/session/resolve-entry.js";
import { SessionWriter } from "../src/session/writer.js";
import { firstReply, MODEL, PROVIDER, secondReply, tempDir } from "./fixtures/session/run.js";

const FIXTURES = new URL("./fixtures/session/", import.meta.url).pathname;

let cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups) cleanup();
	cleanups = [];
});
function newWriter(): SessionWriter {
	const { dir, cleanup } = tempDir();
	cleanups.push(cleanup);
	const writer = SessionWriter.create({ dir, cwd: "/w" });
	cleanups.unshift(() => writer.close());
	return writer;
}
function reply(text: string, extra: Partial<AssistantMessage> = {}): AssistantMessage {
	return { ...secondReply, content: [{ type: "text", text }], ...extra };
}

describe("the session tree", () => {
	it("branches when a message is added after moving to an older entry; both ends are leaves", () => {
		const writer = newWriter();
		const u1 = writer.appendUser("one");
		const a1 = writer.appendAssistant(reply("first answer"));
		const u2 = writer.appendUser("two");
		writer.moveTo(a1.id);
		const u2b = writer.appendUser("two, differently");
		const a2b = writer.appendAssistant(reply("second answer"));
		writer.close();

		const session = loadSession(writer.file);
		expect(session.children(a1.id).map((e) => e.id)).toEqual([u2.id, u2b.id]);
		expect(session.leaves().map((e) => e.id)).toEqual([u2.id, a2b.id]);
		expect(session.branchPoints().map((e) => e.id)).toEqual([a1.id]);
		expect(session.roots().map((e) => e.id)).toEqual([u1.id]);
		expect(session.leafId).toBe(a2b.id);
		expect(session.pathTo(a2b.id).map((e) => e.id)).toEqual([u1.id, a1.id, u2b.id, a2b.id]);
		expect(buildContext(session, u2.id).messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
		expect(() => session.pathTo("nope")).toThrow(/no entry nope/);
	});

	it("rebuilds the context of an aborted reply: its text is kept and dangling tool calls get 'not run' results", () => {
		const session = loadSession(copyFixture("v1-basic.jsonl"));
		const { messages, model } = buildContext(session);
		expect(model).toEqual({ provider: "openai", model: "gpt-5" });
		expect(messages).toEqual([
			{ role: "user", content: "List the files" },
			{
				role: "assistant",
				content: [
					{ type: "text", text: "Listing" },
					{ type: "tool_call", id: "call_2", name: "bash", arguments: { command: "ls -la" } },
					{ type: "tool_call", id: "call_3", name: "read", arguments: { path: "a.txt" } },
				],
				provider: "openai",
				model: "gpt-5",
				usage: { input: 90, output: 5, cacheRead: 0, cacheWrite: 0 },
				stopReason: "aborted",
				error: "aborted by the user",
			},
			{ role: "tool_result", callId: "call_2", name: "bash", content: NOT_RUN, isError: true },
			{ role: "tool_result", callId: "call_3", name: "read", content: NOT_RUN, isError: true },
		]);
		// The other branch: the full first exchange.
		const other = buildContext(session, "a000000002");
		expect(other.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool_result", "assistant"]);
		expect(other.model).toEqual({ provider: "anthropic", model: "claude-sonnet-4-5" });
	});

	it("answers every call in call order, drops empty failed replies and stray results", () => {
		const writer = newWriter();
		writer.appendUser("go");
		const calls: AssistantMessage = {
			...firstReply,
			content: [
				{ type: "tool_call", id: "c1", name: "bash", arguments: { command: "a" } },
				{ type: "tool_call", id: "c2", name: "bash", arguments: { command: "b" } },
			],
		};
		writer.appendAssistant(calls);
		writer.appendToolResult({ callId: "c2", name: "bash", content: "b done", details: null, isError: false });
		writer.appendToolResult({ callId: "zz", name: "bash", content: "stray", details: null, isError: false });
		writer.appendAssistant({ ...firstReply, content: [], stopReason: "aborted" });
		writer.appendAssistant({ ...firstReply, content: [{ type: "thinking", thinking: "hmm" }], stopReason: "error" });
		writer.appendUser("again");

		const { messages } = buildContext(writer.session);
		expect(messages).toEqual([
			{ role: "user", content: "go" },
			expect.objectContaining({ role: "assistant", stopReason: "tool_use" }),
			{ role: "tool_result", callId: "c1", name: "bash", content: NOT_RUN, isError: true },
			{ role: "tool_result", callId: "c2", name: "bash", content: "b done", isError: false },
			{ role: "user", content: "again" },
		]);
	});

	it("gives a tool call at the end of the path (the run died while tools ran) a 'not run' result", () => {
		const writer = newWriter();
		writer.appendUser("go");
		writer.appendAssistant(firstReply);
		const { messages } = buildContext(writer.session);
		expect(messages.at(-1)).toEqual({
			role: "tool_result",
			callId: "call_1",
			name: "bash",
			content: NOT_RUN,
			isError: true,
		});
	});

	it("takes the model from the last model_change or assistant on the path", () => {
		const writer = newWriter();
		expect(buildContext(writer.session)).toEqual({ messages: [], entryIds: [] });
		writer.appendModelChange("openai", "gpt-5");
		writer.appendUser("hi");
		expect(buildContext(writer.session).model).toEqual({ provider: "openai", model: "gpt-5" });
		writer.appendAssistant(reply("hello"));
		expect(buildContext(writer.session).model).toEqual({ provider: PROVIDER, model: MODEL });
		writer.appendModelChange("openai", "gpt-5-mini");
		expect(buildContext(writer.session).model).toEqual({ provider: "openai", model: "gpt-5-mini" });
	});
});

describe("resolveEntry", () => {
	it("finds an entry by a unique prefix, prefers an exact id, and names the candidates when ambiguous", () => {
		const session = loadSession(copyFixture("v1-basic.jsonl"));
		expect(resolveEntry(session, "t0")).toBe("t000000001");
		expect(resolveEntry(session, "A000000002")).toBe("a000000002");
		expect(() => resolveEntry(session, "a0")).toThrow(
			expect.objectContaining({
				code: "ambiguous",
				message: expect.stringContaining("a000000001 (assistant: Let me look.)"),
			}),
		);
		expect(() => resolveEntry(session, "zz")).toThrow(expect.objectContaining({ code: "not_found" }));
		// Metadata entries are not resolvable targets.
		expect(() => resolveEntry(session, "l0")).toThrow(expect.objectContaining({ code: "not_found" }));
	});
});

function copyFixture(name: string): string {
	const { dir, cleanup } = tempDir();
	cleanups.push(cleanup);
	const file = join(dir, name);
	copyFileSync(join(FIXTURES, name), file);
	return file;
}
