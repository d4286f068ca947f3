// The exact request of every call, rebuilt from the session (src/inspect/request-report.ts): for every model call of a
// multi-turn session with a context file, a tool result cut to the window's share and an automatic compaction, the
// body rebuilt from the session's records and tree equals, as JSON, the body the test server received — on both wires,
// in the same process (from memory and rebuilt) and after a restart; and it says so by the sha256 recorded when the
// body was sent. A rebuild that differs, or cannot be checked, never passes for exact.
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { EventChannel } from "../src/agent/channel.js";
import { Conversation } from "../src/conversation/conversation.js";
import { findRequest, requestRecords, requestReport } from "../src/inspect/request-report.js";
import { createAnthropicProvider } from "../src/llm/anthropic.js";
import { createOpenAIProvider } from "../src/llm/openai.js";
import { loadContextFiles } from "../src/prompt/context-files.js";
import { buildSystemPrompt } from "../src/prompt/system-prompt.js";
import { buildContext, loadSession, SessionError, SessionWriter } from "../src/session/index.js";
import { createTools } from "../src/tools/index.js";
import { requestText } from "../src/view/request-view.js";
import { fakeClock, tempDirsPerTest } from "./fixtures/session/run.js";
import { type RecordedRequest, startWireServer, type WireServer, type WireTurn } from "./support/wire-server.js";

const tmp = tempDirsPerTest();
let servers: WireServer[] = [];
afterEach(async () => {
	await Promise.all(servers.map((s) => s.close()));
	servers = [];
});

type Wire = "anthropic" | "openai";
const big = (tag: string) => `${tag} ${"y".repeat(2400)}`;
const isSummary = (req: RecordedRequest) => req.raw.includes("You summarize a conversation");

/** The agent's turns, in order; a summary request (compaction) gets a summary whatever its place. */
function script(): (req: RecordedRequest) => WireTurn {
	const turns: WireTurn[] = [
		{ toolCalls: [{ id: "call_1", name: "read", args: { path: "big.txt" } }], usage: { input: 1500, output: 20 } },
		{ text: "Read it: it is all x.", usage: { input: 2900, output: 15 } },
		{ thinking: "think", text: "Second task done.", usage: { input: 1200, output: 12 } },
		{ text: "Third.", usage: { input: 1300, output: 5 } },
	];
	let next = 0;
	return (req) =>
		isSummary(req) ? { text: "Summary: the user asked about big.txt." } : (turns[next++] ?? { text: "?" });
}

async function session(wire: Wire, secrets: string[] = []) {
	const server = await startWireServer(script());
	servers.push(server);
	const provider =
		wire === "anthropic"
			? createAnthropicProvider({ apiKey: "k-test-1234567890", baseURL: server.url })
			: createOpenAIProvider({ apiKey: "k-test-1234567890", baseURL: `${server.url}/v1` });
	const cwd = tmp();
	writeFileSync(join(cwd, "AGENTS.md"), "# Project rules\nAlways answer in one line.\n");
	// One line longer than the tool-result cap (a quarter of the 4,000-token window: 4,000 characters).
	writeFileSync(join(cwd, "big.txt"), `${"x".repeat(6000)}\n`);
	const system = buildSystemPrompt({
		cwd,
		tools: ["read"],
		date: new Date("2026-01-02T00:00:00Z"),
		contextFiles: loadContextFiles(cwd, tmp()),
	});
	const writer = SessionWriter.create({ dir: tmp(), cwd, now: fakeClock(), secrets });
	const channel = new EventChannel((error) => {
		throw error;
	});
	const conversation = new Conversation({
		channel,
		provider,
		model: wire === "anthropic" ? "claude-sonnet-4-5" : "gpt-5.4",
		contextWindow: 4000,
		system,
		tools: createTools({ cwd }).filter((t) => t.name === "read"),
		session: writer,
		maxTokens: 2048,
		approval: { required: false, autoApprove: [] },
		context: { autoCompact: true, reserveTokens: 1000, keepRecentTokens: 600, maxToolResultShare: 0.25 },
	});
	return { server, conversation, writer, system };
}

describe("the exact request of every call, rebuilt from the session", () => {
	for (const wire of ["anthropic", "openai"] as const) {
		it(`${wire}: every call's rebuilt body is the one the server got, in the same process and after a restart`, async () => {
			const { server, conversation, writer, system } = await session(wire);
			expect(system.parts.some((p) => p.source === "context_file")).toBe(true);
			for (const task of [big("task one: read big.txt"), big("task two"), "task three"]) {
				const result = await conversation.run(task);
				expect(result.stopReason).toBe("done");
			}
			const sent = server.requests.filter((req) => !isSummary(req));
			expect(server.requests.some(isSummary)).toBe(true);
			// The tool result was cut to the window's share, and the compaction is on the session's path.
			expect(writer.session.entries.some((e) => e.type === "compaction")).toBe(true);
			const capped = writer.session.entries.find((e) => e.type === "tool_result");
			expect(capped?.type === "tool_result" && capped.content).toContain("[gar: this result was cut");
			const records = requestRecords(writer.session);
			expect(records).toHaveLength(sent.length);
			expect(records).toHaveLength(4);
			for (const [i, record] of records.entries()) {
				const received = sent[i];
				// From memory (the last 8 requests of this gar): exact.
				const live = conversation.recentRequest(record.requestId);
				expect(live).toBeDefined();
				const fromMemory = requestReport({ session: writer.session, record, ...(live ? { live } : {}) });
				expect(fromMemory.origin).toEqual({ kind: "memory" });
				expect(fromMemory.body).toEqual(received?.body);
				expect(fromMemory.sent.headers?.authorization).toBe("[redacted]");
				// Rebuilt in the same process, from the session alone.
				const rebuilt = requestReport({ session: writer.session, record });
				expect(rebuilt.origin).toEqual({ kind: "rebuilt" });
				expect(rebuilt.body).toEqual(received?.body);
				expect(record.bodyBytes).toBe(Buffer.byteLength(received?.raw ?? ""));
			}
			writer.close();
			// After a restart: the file alone.
			const reloaded = loadSession(writer.file);
			for (const [i, record] of requestRecords(reloaded).entries()) {
				const report = requestReport({ session: reloaded, record });
				expect(report.origin).toEqual({ kind: "rebuilt" });
				expect(report.body).toEqual(sent[i]?.body);
			}
			// The call after the compaction lists the summary with the entries it replaced.
			const last = requestReport({ session: reloaded, record: findRequest(reloaded, { nth: -1 }) });
			const summary = last.messages?.items[0];
			expect(summary?.kind).toBe("summary");
			expect(summary?.replaces?.count).toBeGreaterThan(0);
			expect(last.system?.parts.map((p) => p.source)).toContain("context_file");
			expect(requestText(last)).toContain("exact: rebuilt from the session");
		});
	}

	it("a rebuild that differs says why, and one that cannot be checked or made says so: never exact", async () => {
		const secret = "sk-abcdefgh12345678";
		const { conversation, writer } = await session("anthropic", [secret]);
		await conversation.run(`task with ${secret} in it: read big.txt`);
		writer.close();
		const reloaded = loadSession(writer.file);
		const record = findRequest(reloaded, { nth: 1 });
		const masked = requestReport({ session: reloaded, record });
		expect(masked.origin.kind).toBe("differs");
		expect(masked.origin.kind === "differs" && masked.origin.reasons.join(" ")).toContain("hides secrets");
		expect(requestText(masked)).toContain("rebuilt; differs from what was sent because");

		// A session written before hashes were recorded: rebuilt, not checked.
		const old = readFileSync(writer.file, "utf8")
			.split("\n")
			.map((line) => line.replace(/,"bodySha256":"[0-9a-f]+","bodyBytes":\d+/, ""))
			.join("\n");
		const oldFile = join(tmp(), "old.jsonl");
		writeFileSync(oldFile, old);
		const unverified = requestReport({ session: loadSession(oldFile), record: findRequest(loadSession(oldFile), {}) });
		expect(unverified.origin.kind).toBe("unverified");

		// Without its system prompt record: nothing is rebuilt, and the report says which parts are unknown.
		const noPrompt = readFileSync(writer.file, "utf8")
			.split("\n")
			.filter((line) => !line.includes('"type":"system_prompt"'))
			.join("\n");
		const noPromptFile = join(tmp(), "no-prompt.jsonl");
		writeFileSync(noPromptFile, noPrompt);
		const partial = loadSession(noPromptFile);
		const unknown = requestReport({ session: partial, record: findRequest(partial, {}) });
		expect(unknown.origin.kind).toBe("unknown");
		expect(unknown.origin.kind === "unknown" && unknown.origin.reasons.join(" ")).toContain(
			"system prompt was not recorded",
		);
		expect(unknown.system).toBeNull();
		expect(unknown.messages?.items.length).toBeGreaterThan(0);
		expect(requestText(unknown)).toContain("not recorded in this session");

		// Written before request records existed: a call the replay knows only by its place. Nothing is guessed.
		const noRecords = readFileSync(writer.file, "utf8")
			.split("\n")
			.filter((line) => !line.includes('"type":"request"') && !line.includes('"type":"system_prompt"'))
			.join("\n");
		const oldestFile = join(tmp(), "oldest.jsonl");
		writeFileSync(oldestFile, noRecords);
		const oldest = requestReport({ session: loadSession(oldestFile) });
		expect(oldest.origin.kind).toBe("unknown");
		expect(oldest.messages).toBeNull();
		const text = requestText(oldest);
		expect(text).toContain("the session's tree does not say which entries the call sent");
		expect(text).toContain("unknown: the session's tree does not say what was sent");
	});

	it("a request id that does not exist is an error naming gar request and gar show", async () => {
		const { conversation, writer } = await session("openai");
		await conversation.run("task: read big.txt");
		const id = writer.session.header.id;
		expect(() => findRequest(writer.session, { id: "run_nope.1" })).toThrow(SessionError);
		expect(() => findRequest(writer.session, { id: "run_nope.1" })).toThrow(`gar show ${id}`);
		expect(() => findRequest(writer.session, { nth: 9 })).toThrow("--turn takes 1 to 2");
		expect(findRequest(writer.session, { nth: 2 }).turn).toBe(2);
		// A torn last line does not hide the calls before it.
		writer.close();
		appendFileSync(writer.file, '{"type":"request","id":"x');
		expect(requestRecords(loadSession(writer.file))).toHaveLength(2);
		expect(buildContext(loadSession(writer.file)).messages.length).toBeGreaterThan(0);
	});
});
