import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, expectTypeOf, it, vi } from "vitest";
import type { PastedRange, RunStopReason, ToolOutcome, UserSource } from "../src/agent/events.js";
import type { AssistantBlock, ErrorKind, StopReason, Usage } from "../src/llm/types.js";
import type {
	AssistantEntry,
	RunEntry,
	StoredBlock,
	SystemPromptEntry,
	ToolResultEntry,
	ToolStartEntry,
	UserEntry,
} from "../src/session/format.js";
import { loadSession } from "../src/session/load.js";
import { SessionWriter } from "../src/session/writer.js";
import { tempDirsPerTest } from "./fixtures/session/run.js";

const tmp = tempDirsPerTest();
const usage = { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 };
const HEADER = '{"type":"session","version":1,"id":"f1","cwd":"/w","createdAt":"2026-01-02T03:04:05.000Z"}';

/** A session file of the header and `lines` (objects, one JSON line each). */
function sessionFile(lines: object[]): string {
	const file = `${tmp()}/s.jsonl`;
	writeFileSync(file, `${[HEADER, ...lines.map((line) => JSON.stringify(line))].join("\n")}\n`);
	return file;
}
const at = (id: string, parentId: string | null) => ({ id, parentId, ts: "2026-01-02T03:04:06.000Z" });
const run = {
	type: "run",
	...at("r1", null),
	meta: true,
	runId: "run1",
	stopReason: "done",
	turns: 1,
	maxTurns: 50,
	contextWindow: null,
	durationMs: 5,
	usage,
	costUsd: null,
};

describe("the entry schemas", () => {
	it("are not built to write a new session, only to read one", async () => {
		vi.resetModules();
		const format = await import("../src/session/format.js");
		const { SessionWriter: Writer } = await import("../src/session/writer.js");
		const { loadSession: load } = await import("../src/session/load.js");
		const writer = Writer.create({ dir: tmp(), cwd: "/w" });
		const user = writer.appendUser("hi", { source: "prompt", runId: "run1" });
		writer.ensurePrompt({ hash: "h", text: "sys", parts: [], toolsHash: "t", tools: [] });
		writer.appendAssistant({ role: "assistant", content: [], provider: "p", model: "m", usage, stopReason: "stop" });
		writer.appendRecord<RunEntry>({
			type: "run",
			runId: "run1",
			stopReason: "done",
			turns: 1,
			maxTurns: 50,
			contextWindow: null,
			durationMs: 5,
			usage,
			costUsd: null,
		});
		writer.appendToolResult({ callId: "c", name: "bash", content: "ok", details: null, isError: false });
		writer.label(user.id, "start");
		writer.setName("name");
		writer.moveTo(user.id);
		writer.close();
		expect(format.schemasBuilt()).toBe(false);
		expect(load(writer.file).entries).toHaveLength(8);
		expect(format.schemasBuilt()).toBe(true);
	});

	it("keep a newer gar's value of a field whose values may grow, as it is", () => {
		const file = sessionFile([
			{ type: "user", ...at("u1", null), content: "hi", source: "voice" },
			{
				type: "tool_result",
				...at("t1", "u1"),
				callId: "c",
				name: "bash",
				content: "",
				isError: true,
				outcome: "timed_out",
			},
			{ ...run, stopReason: "hook_stop", errorKind: "quota" },
		]);
		const session = loadSession(file);
		expect(session.warnings).toEqual([]);
		expect(session.entries.map((e) => e.type)).toEqual(["user", "tool_result", "run"]);
		expect(session.get("t1")).toMatchObject({ outcome: "timed_out" });
		expect(session.get("r1")).toMatchObject({ stopReason: "hook_stop", errorKind: "quota" });
	});

	it("keep a record without a field every gar wrote as an unknown entry, with a warning", () => {
		const { maxTurns: _, ...older } = run;
		const session = loadSession(sessionFile([older]));
		expect(session.get("r1")).toMatchObject({ type: "unknown", meta: true, raw: older });
		expect(session.warnings.join("\n")).toContain("1 entry does not match the fields of its type");
	});

	it("give back the line's own object, a newer gar's fields in it", () => {
		const line = { type: "user", ...at("u1", null), content: "hi", mood: "curious" };
		const file = sessionFile([line]);
		expect(loadSession(file).get("u1")).toEqual(line);
		const writer = SessionWriter.open(file);
		writer.close();
		expect(readFileSync(file, "utf8")).toContain('"mood":"curious"');
	});

	it("leave the writing as it was: a record's line starts with its type, id, parentId, ts and meta", () => {
		const writer = SessionWriter.create({ dir: tmp(), cwd: "/w" });
		writer.appendRecord<ToolStartEntry>({ type: "tool_start", callId: "c", name: "bash", runId: "run1" });
		writer.close();
		const line = readFileSync(writer.file, "utf8").trim().split("\n")[1] ?? "";
		expect(Object.keys(JSON.parse(line))).toEqual(["type", "id", "parentId", "ts", "meta", "callId", "name", "runId"]);
	});

	it("are the source of the entry types, which say what older files lack", () => {
		expectTypeOf<UserEntry["source"]>().toEqualTypeOf<UserSource | undefined>();
		expectTypeOf<UserEntry["pastes"]>().toEqualTypeOf<PastedRange[] | undefined>();
		expectTypeOf<UserEntry["runId"]>().toEqualTypeOf<string | undefined>();
		expectTypeOf<AssistantEntry["usage"]>().toEqualTypeOf<Usage>();
		expectTypeOf<AssistantEntry["stopReason"]>().toEqualTypeOf<StopReason>();
		expectTypeOf<AssistantEntry["errorKind"]>().toEqualTypeOf<ErrorKind | undefined>();
		expectTypeOf<AssistantEntry["costUsd"]>().toEqualTypeOf<number | null | undefined>();
		expectTypeOf<AssistantBlock>().toMatchTypeOf<StoredBlock>();
		expectTypeOf<StoredBlock>().not.toMatchTypeOf<AssistantBlock>();
		expectTypeOf<ToolResultEntry["outcome"]>().toEqualTypeOf<ToolOutcome | undefined>();
		expectTypeOf<ToolResultEntry["details"]>().toEqualTypeOf<unknown>();
		expectTypeOf<RunEntry["stopReason"]>().toEqualTypeOf<RunStopReason>();
		expectTypeOf<RunEntry["maxTurns"]>().toEqualTypeOf<number>();
		expectTypeOf<SystemPromptEntry["parts"][number]["text"]>().toEqualTypeOf<string | undefined>();
	});
});
