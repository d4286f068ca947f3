import { createHash } from "node:crypto";
import { readFileSync, renameSync, utimesSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { EventChannel } from "../src/agent/channel.js";
import type { AgentEvent } from "../src/agent/events.js";
import { buildContext } from "../src/session/context.js";
import { forkSession } from "../src/session/fork.js";
import { loadSession } from "../src/session/load.js";
import { findLatestSession, listSessions, readSessionInfo, resolveSession } from "../src/session/ops.js";
import { sessionDirFor } from "../src/session/paths.js";
import { SessionRecorder } from "../src/session/recorder.js";
import { replayEvents } from "../src/session/replay.js";
import { SessionWriter } from "../src/session/writer.js";
import { fakeClock, firstReply, secondReply, tempDirsPerTest, twoTurnRun } from "./fixtures/session/run.js";

const tmp = tempDirsPerTest();
/** A session with the given user prompts (each answered), its mtime set to `ageSec` seconds ago. */
function session(base: string, cwd: string, prompts: string[], ageSec: number, name?: string): string {
	const writer = SessionWriter.create({ dir: base, cwd });
	for (const prompt of prompts) {
		writer.appendUser(prompt);
		writer.appendAssistant(secondReply);
	}
	if (name) writer.setName(name);
	writer.close();
	const when = new Date(Date.now() - ageSec * 1000);
	utimesSync(writer.file, when, when);
	return writer.file;
}
/** Renames a session file so its id is `id` (ids are random; tests need chosen prefixes). */
function withId(file: string, id: string): string {
	const target = join(dirname(file), basename(file).replace(/_[0-9a-z]+\.jsonl$/, `_${id}.jsonl`));
	renameSync(file, target);
	return target;
}
const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

describe("listing sessions", () => {
	it("lists a project's sessions newest first with name, counts and the first prompt", () => {
		const base = tmp();
		const old = session(base, "/p/app", ["first task"], 300);
		const named = session(base, "/p/app", [`a long prompt\nwith lines ${"x".repeat(100)}`, "second"], 100, "Nice name");
		session(base, "/p/other", ["elsewhere"], 10);
		const infos = listSessions(base, "/p/app");
		expect(infos.map((i) => i.file)).toEqual([named, old]);
		expect(infos[0]).toMatchObject({ name: "Nice name", entries: 5, messages: 4, cwd: "/p/app" });
		expect(infos[0]?.firstPrompt).toBe(`a long prompt with lines ${"x".repeat(54)}…`);
		expect(infos[0]?.firstPrompt).toHaveLength(80);
		expect(infos[1]).toMatchObject({ entries: 2, firstPrompt: "first task" });
		expect(infos[1]?.name).toBeUndefined();
		expect(listSessions(base).map((i) => i.firstPrompt)).toEqual(["elsewhere", infos[0]?.firstPrompt, "first task"]);
		expect(listSessions(join(base, "nothing-here"))).toEqual([]);
	});

	it("counts lines the way a full load does, skipping torn and foreign lines, and reports unreadable files", () => {
		const base = tmp();
		const file = session(base, "/p/app", ["one"], 0);
		writeFileSync(file, `${readFileSync(file, "utf8")}not json\n{"type":"user","id":"x`, { flag: "w" });
		expect(readSessionInfo(file)).toMatchObject({ entries: 2, messages: 2 });
		writeFileSync(join(sessionDirFor(base, "/p/app"), "2020-01-01T00-00-00-000Z_broken.jsonl"), "garbage\n");
		const warnings: string[] = [];
		expect(listSessions(base, "/p/app", { onWarning: (w) => warnings.push(w) })).toHaveLength(1);
		expect(warnings).toEqual([expect.stringContaining("not a gar session")]);
	});

	it("finds the latest session of a directory that has messages", () => {
		const base = tmp();
		expect(findLatestSession(base, "/p/app")).toBeUndefined();
		const older = session(base, "/p/app", ["old"], 200);
		session(base, "/p/app", [], 0); // started and quit without a message
		session(base, "/p/other", ["other project"], 0);
		expect(findLatestSession(base, "/p/app")?.file).toBe(older);
	});
});

describe("resolveSession", () => {
	it("resolves a path, an id prefix in this project first, then in any project", () => {
		const base = tmp();
		const here = withId(session(base, "/p/app", ["a"], 0), "abc111111111");
		const there = withId(session(base, "/p/other", ["b"], 0), "abd222222222");
		const alsoThere = withId(session(base, "/p/other", ["c"], 0), "xyz333333333");
		expect(resolveSession(base, here, "/p/app")).toEqual({ file: here, id: readSessionInfo(here).id, inProject: true });
		expect(resolveSession(base, "ab", "/p/app")).toEqual({ file: here, id: "abc111111111", inProject: true });
		expect(resolveSession(base, "abd", "/p/app")).toEqual({ file: there, id: "abd222222222", inProject: false });
		expect(resolveSession(base, "XYZ")).toEqual({ file: alsoThere, id: "xyz333333333", inProject: false });
	});

	it("names the candidates when a prefix is ambiguous and says where it looked when nothing matches", () => {
		const base = tmp();
		const one = withId(session(base, "/p/app", ["a"], 0), "abc111111111");
		const two = withId(session(base, "/p/app", ["b"], 0), "abd222222222");
		expect(() => resolveSession(base, "ab", "/p/app")).toThrow(
			expect.objectContaining({
				code: "ambiguous",
				message: expect.stringMatching(
					new RegExp(`2 sessions match[^]*abc111111111 {2}${one}[^]*abd222222222 {2}${two}`),
				),
			}),
		);
		expect(() => resolveSession(base, "q", "/p/app")).toThrow(
			`no session matches "q" (looked in ${sessionDirFor(base, "/p/app")} or any project under ${base})`,
		);
		expect(() => resolveSession(base, "/no/such/file.jsonl")).toThrow(expect.objectContaining({ code: "not_found" }));
	});
});

describe("forkSession", () => {
	it("copies the root→entry path into a new file whose header names its parent; the source is untouched", () => {
		const base = tmp();
		const writer = SessionWriter.create({ dir: base, cwd: "/p/app", now: fakeClock() });
		const u1 = writer.appendUser("one");
		const a1 = writer.appendAssistant(firstReply);
		const t1 = writer.appendToolResult({
			callId: "call_1",
			name: "bash",
			content: "ok",
			details: { exitCode: 0 },
			isError: false,
		});
		writer.appendAssistant(secondReply);
		writer.label(u1.id, "start");
		writer.label(t1.id, "ran ls");
		writer.setName("source");
		writer.close();
		const before = sha256(writer.file);

		const forked = forkSession(writer.file, t1.id.slice(0, 6), {
			dir: base,
			now: fakeClock(Date.parse("2026-02-01T00:00:00Z")),
		});
		expect(sha256(writer.file)).toBe(before);
		expect(forked).not.toBe(writer.file);
		expect(dirname(forked)).toBe(dirname(writer.file));

		const copy = loadSession(forked);
		const source = loadSession(writer.file);
		expect(copy.warnings).toEqual([]);
		expect(copy.header).toMatchObject({
			cwd: "/p/app",
			createdAt: "2026-02-01T00:00:00.000Z",
			parent: { session: source.header.id, entry: t1.id, path: writer.file },
		});
		expect(copy.entries.filter((e) => e.type !== "label")).toEqual([u1, a1, t1].map((e) => source.get(e.id)));
		expect([...copy.labels]).toEqual([
			[u1.id, "start"],
			[t1.id, "ran ls"],
		]);
		expect(copy.leafId).toBe(t1.id);
		expect(readSessionInfo(forked).forkOf).toEqual({ session: source.header.id, entry: t1.id });
		expect(readSessionInfo(writer.file).forkOf).toBeUndefined();
		expect(copy.name).toBeUndefined();
		expect(buildContext(copy)).toEqual(buildContext(source, t1.id));
	});

	it("forks at the current leaf by default and refuses an empty session", () => {
		const base = tmp();
		const file = session(base, "/p/app", ["one", "two"], 0);
		const forked = forkSession(file, undefined, { dir: base, cwd: "/p/elsewhere" });
		expect(loadSession(forked).entries).toHaveLength(4);
		expect(dirname(forked)).toBe(sessionDirFor(base, "/p/elsewhere"));
		const empty = session(base, "/p/app", [], 0);
		expect(() => forkSession(empty, undefined, { dir: base })).toThrow(/nothing to fork/);
	});

	it("keeps the branch's records, so the fork replays with the source's limits, requests and timings", () => {
		const base = tmp();
		const writer = SessionWriter.create({ dir: base, cwd: "/p/app", now: fakeClock() });
		const channel = new EventChannel();
		new SessionRecorder(writer, (_file, error) => {
			throw new Error(error);
		}).attach(channel);
		const prompt = { text: "You are gar.", parts: [{ source: "base" as const, chars: 12, tokens: 3 }] };
		writer.ensurePrompt({ hash: "h1", ...prompt, toolsHash: "t1", tools: [] });
		const withPrompt = (event: AgentEvent): AgentEvent =>
			event.type === "request" ? { ...event, system: { ...event.system, hash: "h1" } } : event;
		for (const event of [...twoTurnRun("first", "run_1"), ...twoTurnRun("second", "run_2")]) {
			channel.emit(withPrompt(event));
		}
		writer.close();
		const source = loadSession(writer.file);
		const nodes = source.entries.filter((e) => e.type === "tool_result" || e.type === "assistant");
		for (const at of [source.leafId, nodes[0]?.id, nodes[1]?.id, nodes[2]?.id]) {
			const fork = loadSession(forkSession(writer.file, at ?? undefined, { dir: base }));
			expect(fork.warnings).toEqual([]);
			const replayed = [...replayEvents(fork)];
			expect(replayed).toEqual([...replayEvents(source, at)]);
			expect(replayed.find((r) => r.event.type === "agent_start")?.event).toMatchObject({ maxTurns: 50 });
			expect(replayed.find((r) => r.event.type === "request")?.event).toMatchObject({ system: { chars: 12 } });
		}
		const whole = loadSession(forkSession(writer.file, undefined, { dir: base }));
		const records = (s: typeof source) => s.entries.filter((e) => e.type !== "label").map((e) => e.type);
		expect(records(whole)).toEqual(records(source));
		expect([...whole.startedCalls]).toEqual([...source.startedCalls]);
	});
});
