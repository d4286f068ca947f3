import { createHash } from "node:crypto";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeSyntheticSession } from "../scripts/synthetic-session.js";
import { buildContext } from "../src/session/context.js";
import { SessionError } from "../src/session/format.js";
import { loadSession, loadSessionSliced } from "../src/session/load.js";
import { SessionWriter } from "../src/session/writer.js";
import { tempDirsPerTest } from "./fixtures/session/run.js";

const FIXTURES = new URL("./fixtures/session/", import.meta.url).pathname;

const tmp = tempDirsPerTest();
/** A copy of a fixture in a temp folder. */
function fixture(name: string): string {
	const file = join(tmp(), name);
	copyFileSync(join(FIXTURES, name), file);
	return file;
}
function sha256(file: string): string {
	return createHash("sha256").update(readFileSync(file)).digest("hex");
}

describe("loadSession", () => {
	it("reads every entry type of format 1 without warnings", () => {
		const session = loadSession(fixture("v1-basic.jsonl"));
		expect(session.warnings).toEqual([]);
		expect(session.header).toMatchObject({ type: "session", version: 1, id: "k3v9q0x2m7ab", cwd: "/home/me/src/app" });
		expect(session.entries.map((e) => e.type)).toEqual([
			"model_change",
			"user",
			"assistant",
			"tool_result",
			"assistant",
			"label",
			"name",
			"leaf",
			"assistant",
		]);
		expect(session.name).toBe("list files");
		expect(session.labels.get("u000000001")).toBe("start");
		// The conversation entry after the leaf record is the leaf.
		expect(session.leafId).toBe("a000000003");
	});

	it("skips a torn last line and malformed middle lines, counts them, and never changes the file", () => {
		const file = fixture("damaged.jsonl");
		const before = sha256(file);
		const session = loadSession(file);
		expect(sha256(file)).toBe(before);
		expect(session.warnings).toEqual([
			`skipped 3 malformed lines (4, 5, 12) in ${file}; the last line is incomplete (a crash while writing?)`,
			"1 entry whose parent is missing became a root (u3)",
			"ignored entries with duplicate ids: u1 (line 9)",
			"1 entry does not match the fields of its type and was kept as an unknown entry (a2)",
			"ignored leaf records pointing at missing entries (f1)",
		]);
		// a2 is an assistant entry whose content is not blocks: kept as an unknown node, so children keep a parent.
		expect(session.entries.map((e) => e.id)).toEqual(["u1", "a1", "a2", "u3", "f1", "u4"]);
		expect(session.get("a2")).toMatchObject({ type: "unknown", meta: false, parentId: "a1" });
		expect(session.roots().map((e) => e.id)).toEqual(["u1", "u3"]);
		expect(session.get("u3")?.parentId).toBeNull();
		expect(session.leafId).toBe("u4");
		expect(session.get("u1")).toMatchObject({ content: "first" });
	});

	it("keeps fields from a newer minor version and unknown entry types, and leaves them out of the context", () => {
		const session = loadSession(fixture("newer-minor.jsonl"));
		expect(session.warnings).toEqual([]);
		expect(session.header).toMatchObject({ client: "gar 1.4.0" });
		expect(session.get("u1")).toMatchObject({ attachments: [], source: "editor" });
		expect(session.get("a1")).toMatchObject({ latencyMs: 900 });
		// "compaction" is a known type now; a type this gar does not know stands in for a newer gar's entry.
		const checkpoint = session.get("c1");
		expect(checkpoint).toMatchObject({ type: "unknown", parentId: "a1", raw: { type: "checkpoint" } });
		// Unknown entries are tree nodes (u2 hangs off one) but do not move the leaf.
		expect(session.get("u2")?.parentId).toBe("c1");
		expect(session.leafId).toBe("u2");
		expect(buildContext(session).messages).toEqual([
			{ role: "user", content: "hi" },
			{
				role: "assistant",
				content: [{ type: "text", text: "Hello", citations: [] }],
				provider: "anthropic",
				model: "m",
				usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, reasoning: 3 },
				stopReason: "stop",
			},
			{ role: "user", content: "and again" },
		]);
	});

	it("reads where a user message was pasted into; a malformed value is dropped, never the message", () => {
		const file = join(tmp(), "pastes.jsonl");
		const head = '{"type":"session","version":1,"id":"p1","cwd":"/w","createdAt":"2026-01-02T03:04:05.000Z"}';
		const user = (id: string, parent: string | null, pastes: unknown) =>
			JSON.stringify({
				type: "user",
				id,
				parentId: parent,
				ts: "2026-01-02T03:04:06.000Z",
				content: "see abc",
				pastes,
			});
		writeFileSync(file, `${[head, user("u1", null, [{ start: 4, end: 7 }]), user("u2", "u1", "oops")].join("\n")}\n`);
		const session = loadSession(file);
		expect(session.warnings).toEqual([]);
		expect(session.get("u1")).toMatchObject({ content: "see abc", pastes: [{ start: 4, end: 7 }] });
		expect(session.get("u2")).toMatchObject({ content: "see abc" });
		expect(session.get("u2")).not.toHaveProperty("pastes", "oops");
	});

	it("refuses a file written by a newer major version, with a clear message", () => {
		const file = fixture("newer-major.jsonl");
		expect(() => loadSession(file)).toThrow(
			`session nx0000000001 (${file}) was written by a newer gar (format 2); this gar reads format 1 — upgrade gar`,
		);
		expect(() => SessionWriter.open(file)).toThrow(SessionError);
	});

	it("refuses a file that is not a session, an empty file and a missing file", () => {
		const file = fixture("not-a-session.jsonl");
		expect(() => loadSession(file)).toThrow(/not a gar session: line 1 is not a valid session header/);
		const empty = join(tmp(), "empty.jsonl");
		writeFileSync(empty, "");
		expect(() => loadSession(empty)).toThrow(/is empty/);
		expect(() => loadSession(join(tmp(), "missing.jsonl"))).toThrow(
			expect.objectContaining({ name: "SessionError", code: "not_found" }),
		);
	});

	it("reads lines that cross the 1 MB read chunks, including multi-byte characters", () => {
		const writer = SessionWriter.create({ dir: tmp(), cwd: "/w" });
		const big = "é€😀x".repeat(300_000);
		const ids = [writer.appendUser(big).id, writer.appendUser("small").id, writer.appendUser(`${big}!`).id];
		writer.close();
		const session = loadSession(writer.file);
		expect(session.warnings).toEqual([]);
		expect(session.entries.map((e) => e.id)).toEqual(ids);
		expect(session.get(ids[2] ?? "")).toMatchObject({ content: `${big}!` });
	});

	it("loads a 10,000-entry session of tens of MB", () => {
		const file = writeSyntheticSession(tmp(), 10_000);
		const session = loadSession(file);
		expect(session.warnings).toEqual([]);
		expect(session.entries).toHaveLength(10_000);
		expect(session.pathTo(session.leafId)).toHaveLength(10_000);
		const context = buildContext(session);
		expect(context.messages).toHaveLength(10_000);
		expect(context.model).toEqual({ provider: "anthropic", model: "claude-sonnet-4-5" });
	});
});

describe("loadSessionSliced (the app's read of a session, keys answered meanwhile)", () => {
	const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

	it("gives the same session, warnings and errors as loadSession", async () => {
		for (const name of ["v1-basic.jsonl", "damaged.jsonl", "newer-minor.jsonl"]) {
			const file = fixture(name);
			const [whole, sliced] = [loadSession(file), await loadSessionSliced(file, nextTurn, 0)];
			expect(sliced.entries).toEqual(whole.entries);
			expect(sliced.warnings).toEqual(whole.warnings);
			expect(sliced.leafId).toBe(whole.leafId);
			expect(sliced.skippedLines).toEqual(whole.skippedLines);
		}
		await expect(loadSessionSliced(fixture("newer-major.jsonl"), nextTurn)).rejects.toThrow(/written by a newer gar/);
		await expect(loadSessionSliced(join(tmp(), "missing.jsonl"), nextTurn)).rejects.toMatchObject({
			name: "SessionError",
			code: "not_found",
		});
	});

	it("lets the event loop run between its reads: a timer set before it fires while it reads", async () => {
		const file = writeSyntheticSession(tmp(), 3_000);
		let pauses = 0;
		let fired = -1;
		setTimeout(() => {
			fired = pauses;
		}, 0);
		const session = await loadSessionSliced(
			file,
			() => {
				pauses++;
				return new Promise((resolve) => setTimeout(resolve, 1));
			},
			0,
		);
		expect(session.entries).toHaveLength(3_000);
		expect(pauses).toBeGreaterThan(2); // a pause per 1 MB read
		expect(fired).toBeGreaterThanOrEqual(1);
		expect(fired).toBeLessThan(pauses);
	});
});
