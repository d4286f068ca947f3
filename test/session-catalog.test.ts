// The session index (src/session/catalog.ts) and what it keeps of each file (summary.ts): listing reads only what
// changed since the index was written, and finds a name appended far from the end; the trash (trash.ts) and the
// fuzzy filter (text/fuzzy.ts) over 1,000 generated sessions.
import {
	appendFileSync,
	existsSync,
	mkdirSync,
	readFileSync,
	renameSync,
	rmSync,
	statSync,
	utimesSync,
	writeFileSync,
} from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { EventChannel } from "../src/agent/channel.js";
import type { AgentEvent } from "../src/agent/events.js";
import { folderPrompts, INDEX_FILE, listFolder } from "../src/session/catalog.js";
import { loadSession } from "../src/session/load.js";
import { infoOf, listSessions, readCatalog, readPrompts } from "../src/session/ops.js";
import { sessionDirFor } from "../src/session/paths.js";
import { readLastExchange } from "../src/session/preview.js";
import { SessionRecorder } from "../src/session/recorder.js";
import { summarize } from "../src/session/summary.js";
import { listTrash, moveToTrash, restoreFromTrash } from "../src/session/trash.js";
import { SessionWriter } from "../src/session/writer.js";
import { FuzzyRows } from "../src/text/fuzzy.js";
import { firstReply, secondReply, tempDirsPerTest, twoTurnRun } from "./fixtures/session/run.js";

const tmp = tempDirsPerTest();
const CWD = "/p/app";

const WORDS = ["parser", "tokenizer", "README", "deploy", "theme", "picker", "cache", "router", "schema", "lexer"];

/** `count` sessions of one project: prompts with a word each, a distinct marker, replies; mtimes one second apart. */
function generate(base: string, count: number): string[] {
	const files: string[] = [];
	const now = Date.now();
	for (let i = 0; i < count; i++) {
		const writer = SessionWriter.create({ dir: base, cwd: CWD });
		writer.appendUser(`fix the ${WORDS[i % WORDS.length]} bug number m${i}x`);
		writer.appendAssistant(secondReply, 0.001);
		writer.appendUser(`now update the ${WORDS[(i + 3) % WORDS.length]} docs`);
		writer.appendAssistant(secondReply, 0.002);
		writer.close();
		const when = new Date(now - (count - i) * 1000);
		utimesSync(writer.file, when, when);
		files.push(writer.file);
	}
	return files;
}

/** listFolder, noting which files it read and from where. */
function listed(dir: string) {
	const reads: { file: string; from: number }[] = [];
	const listing = listFolder(dir, (file, from) => reads.push({ file: basename(file), from }));
	return { ...listing, reads };
}

function record(writer: SessionWriter, events: AgentEvent[]): void {
	const channel = new EventChannel();
	const detach = new SessionRecorder(writer, (_file, error) => {
		throw new Error(error);
	}).attach(channel);
	for (const event of events) channel.emit(event);
	detach();
}

describe("a session's summary", () => {
	it("knows the name, labels, prompts, branches, model, cost and context a full load knows", () => {
		const base = tmp();
		const writer = SessionWriter.create({ dir: base, cwd: CWD });
		record(writer, twoTurnRun("List the files"));
		const firstUser = writer.session.entries.find((e) => e.type === "user");
		writer.setName("Tidy up");
		record(writer, twoTurnRun("Now count them", "run_2"));
		// A branch from the first prompt, and a label on it.
		writer.moveTo(firstUser?.id ?? null);
		writer.appendUser("Instead, delete them", { source: "prompt" });
		writer.appendAssistant({ ...secondReply, model: "claude-opus-4-1" }, null);
		writer.label(firstUser?.id ?? "", "start");
		writer.appendUser("tool output", { source: "shell" });
		writer.close();
		const session = loadSession(writer.file);
		const { summary } = summarize(writer.file);
		expect(summary).toMatchObject({
			id: session.header.id,
			cwd: CWD,
			name: "Tidy up",
			firstPrompt: "List the files",
			latestPrompt: "Instead, delete them",
			entries: session.entries.length,
			leaves: session.leaves().map((leaf) => leaf.id),
			leaf: session.leafId,
			labels: Object.fromEntries(session.labels),
			provider: "anthropic",
			model: "claude-opus-4-1",
			costUsd: null, // the last reply's price is unknown
			contextTokens: 130 + 10 + 50 + 0,
			contextWindow: 200_000,
			damaged: 0,
		});
		expect(summary.leaves).toHaveLength(2);
		expect(summary.prompts).toEqual(["List the files", "Now count them", "Instead, delete them"]);
		const info = infoOf(writer.file, 0, summary);
		expect(info).toMatchObject({ branches: 2, labels: ["start"], messages: 9 });
	});

	it("follows the current leaf as a load does: the last conversation entry, or a later leaf record's target", () => {
		const base = tmp();
		const writer = SessionWriter.create({ dir: base, cwd: CWD });
		const first = writer.appendUser("one");
		writer.appendAssistant(secondReply);
		writer.moveTo(first.id);
		writer.close();
		expect(summarize(writer.file).summary.leaf).toBe(first.id);
		expect(loadSession(writer.file).leafId).toBe(first.id);
	});

	it("names a session of any size by appending one line, after a torn last line too", () => {
		const base = tmp();
		const writer = SessionWriter.create({ dir: base, cwd: CWD });
		writer.appendUser("one");
		const reply = writer.appendAssistant(secondReply);
		writer.close();
		appendFileSync(writer.file, '{"type":"user","id":"torn');
		const before = readFileSync(writer.file, "utf8");
		const { summary } = summarize(writer.file);
		const entry = SessionWriter.appendName(writer.file, "  Renamed  ", summary.leaf);
		expect(readFileSync(writer.file, "utf8")).toBe(`${before}\n${JSON.stringify(entry)}\n`);
		expect(entry).toMatchObject({ type: "name", name: "Renamed", parentId: reply.id });
		const loaded = loadSession(writer.file);
		expect(loaded.name).toBe("Renamed");
		expect(loaded.leafId).toBe(reply.id);
		expect(() => SessionWriter.appendName(writer.file, " ", null)).toThrow(/cannot be empty/);
	});

	it("keeps the start of the first prompts and of the latest ones for the filter, bounded however many there are", () => {
		const base = tmp();
		const writer = SessionWriter.create({ dir: base, cwd: CWD });
		for (let i = 0; i < 200; i++) writer.appendUser(`prompt number ${i} ${"x".repeat(300)}`);
		writer.close();
		const { prompts } = summarize(writer.file).summary;
		const numbers = prompts.map((p) => Number(/prompt number (\d+)/.exec(p)?.[1]));
		expect(prompts.every((p) => p.length <= 200)).toBe(true);
		expect(prompts.join("").length).toBeLessThanOrEqual(8000);
		expect(numbers.slice(0, 3)).toEqual([0, 1, 2]);
		expect(numbers.at(-1)).toBe(199);
		expect(numbers).not.toContain(100);
	});

	it("adds up what the replies cost and counts damaged lines", () => {
		const base = tmp();
		const writer = SessionWriter.create({ dir: base, cwd: CWD });
		writer.appendUser("one");
		writer.appendAssistant(firstReply, 0.25);
		writer.appendAssistant(secondReply, 0.5);
		writer.close();
		appendFileSync(writer.file, 'not json\n{"type":"user","id":"x');
		const { summary } = summarize(writer.file);
		expect(summary).toMatchObject({ costUsd: 0.75, damaged: 1, entries: 3, messages: 3 });
	});

	it("reads the last exchange from the latest prompt on", () => {
		const base = tmp();
		const writer = SessionWriter.create({ dir: base, cwd: CWD });
		record(writer, twoTurnRun("List the files"));
		record(writer, twoTurnRun("Count the files", "run_2"));
		writer.close();
		const { summary } = summarize(writer.file);
		expect(readLastExchange(writer.file, summary.latestUserOffset)).toEqual({
			prompt: "Count the files",
			reply: "There are two files: a.txt and b.txt.",
			tools: [["bash", 1]],
		});
	});
});

describe("the index of a project's sessions", () => {
	it("lists 1,000 sessions, then reads nothing until a file changes, and then only what changed", () => {
		const base = tmp();
		const files = generate(base, 1000);
		const dir = sessionDirFor(base, CWD);
		const cold = listed(dir);
		expect(cold.sessions).toHaveLength(1000);
		expect(cold.reads).toHaveLength(1000);
		expect(existsSync(join(dir, INDEX_FILE))).toBe(true);
		const warm = listed(dir);
		expect(warm.reads).toEqual([]);
		expect(warm.sessions.map((s) => s.summary)).toEqual(cold.sessions.map((s) => s.summary));

		// A file grows: a name appended far from its start is found, reading from where the index stopped.
		const grown = files[10] as string;
		const before = statSync(grown).size;
		const writer = SessionWriter.open(grown);
		writer.appendUser(`a long prompt ${"x".repeat(200_000)}`);
		writer.setName("Found by name");
		writer.close();
		const afterGrowth = listed(dir);
		expect(afterGrowth.reads).toEqual([{ file: basename(grown), from: before }]);
		const named = afterGrowth.sessions.find((s) => s.file === grown);
		expect(named?.summary).toMatchObject({ name: "Found by name", entries: 6, messages: 5 });
		// The prompts are kept apart (a search reads them), carried on from before the growth.
		const prompts = folderPrompts(dir).get(grown);
		expect({ ...named?.summary, prompts }).toEqual(summarize(grown).summary);
		expect(prompts).toHaveLength(3);

		// Renamed: read again under its new name; removed: gone from the listing.
		const renamed = join(dir, basename(files[20] as string).replace(/_[0-9a-z]+\.jsonl$/, "_renamed00001.jsonl"));
		renameSync(files[20] as string, renamed);
		rmSync(files[30] as string);
		const afterMoves = listed(dir);
		expect(afterMoves.reads).toEqual([{ file: basename(renamed), from: 0 }]);
		expect(afterMoves.sessions).toHaveLength(999);
		expect(afterMoves.sessions.some((s) => s.file === files[30])).toBe(false);
		expect(afterMoves.sessions.find((s) => s.file === renamed)?.summary.firstPrompt).toContain("m20x");
	});

	it("reads a file again from its start when it changed other than by growing", () => {
		const base = tmp();
		const [file] = generate(base, 1) as [string];
		const dir = sessionDirFor(base, CWD);
		listed(dir);
		// Rewritten in place with the same size: a prompt's text changed (and its mtime).
		const text = readFileSync(file, "utf8");
		writeFileSync(file, text.replace("bug number", "bug NUMBER"));
		utimesSync(file, new Date(), new Date(Date.now() + 5000));
		const after = listed(dir);
		expect(after.reads).toEqual([{ file: basename(file), from: 0 }]);
		expect(after.sessions[0]?.summary.firstPrompt).toContain("bug NUMBER");
	});

	it("lists damaged, newer and foreign files with the reason, and never crashes on them", () => {
		const base = tmp();
		const [good, damaged, newer] = generate(base, 3) as [string, string, string];
		const dir = sessionDirFor(base, CWD);
		listed(dir);
		const text = readFileSync(damaged, "utf8");
		writeFileSync(damaged, `garbage${text.slice(7)}`);
		writeFileSync(newer, readFileSync(newer, "utf8").replace('"version":1', '"version":2'));
		writeFileSync(join(dir, "2020-01-01T00-00-00-000Z_empty0000000.jsonl"), "");
		const { sessions, unreadable } = listed(dir);
		expect(sessions.map((s) => s.file)).toEqual([good]);
		const reasons = Object.fromEntries(unreadable.map((u) => [basename(u.file), u.reason]));
		expect(reasons[basename(damaged)]).toMatch(/not a gar session: line 1/);
		expect(reasons[basename(newer)]).toMatch(/written by a newer gar \(format 2\).*upgrade gar/);
		expect(reasons["2020-01-01T00-00-00-000Z_empty0000000.jsonl"]).toMatch(/is empty/);
		// `gar sessions` reports them as warnings.
		const warnings: string[] = [];
		expect(listSessions(base, CWD, { onWarning: (w) => warnings.push(w) })).toHaveLength(1);
		expect(warnings).toHaveLength(3);
	});

	it("survives a damaged index and a folder it cannot write", () => {
		const base = tmp();
		generate(base, 3);
		const dir = sessionDirFor(base, CWD);
		writeFileSync(join(dir, INDEX_FILE), "{ not json");
		expect(listed(dir).sessions).toHaveLength(3);
		expect(JSON.parse(readFileSync(join(dir, INDEX_FILE), "utf8")).version).toBe(1);
		// The index's name taken by a folder: nothing can be saved, and listing still works.
		rmSync(join(dir, INDEX_FILE));
		mkdirSync(join(dir, INDEX_FILE));
		expect(listed(dir).sessions).toHaveLength(3);
		expect(listed(dir).reads).toHaveLength(3);
	});

	it("lists every project with readCatalog, newest first", () => {
		const base = tmp();
		generate(base, 2);
		const other = SessionWriter.create({ dir: base, cwd: "/p/other" });
		other.appendUser("elsewhere");
		other.close();
		const all = readCatalog(base);
		expect(all.sessions.map((s) => s.summary.cwd)).toEqual(["/p/other", CWD, CWD]);
	});
});

describe("filtering 1,000 sessions", () => {
	it("finds sessions by a word of any prompt, a misspelt one, the name and a label, best first", () => {
		const base = tmp();
		const files = generate(base, 1000);
		const named = SessionWriter.open(files[500] as string);
		named.setName("Quarterly numbers");
		named.label(named.leafId ?? "", "shipped-it");
		named.close();
		const rows = readCatalog(base, CWD).sessions;
		const prompts = readPrompts(base, CWD);
		const fuzzy = new FuzzyRows(rows, (r) => [
			r.summary.name ?? "",
			...Object.values(r.summary.labels),
			...(prompts.get(r.file) ?? []),
		]);
		const file = (hit: { row: (typeof rows)[number] }) => hit.row.file;
		expect(fuzzy.find("m123x").map(file)).toEqual([files[123]]);
		expect(fuzzy.find("m123").map(file)[0]).toBe(files[123]);
		// A word of the second prompt (each session's "now update the … docs").
		// Each word in some text of the session: "tokenizer" is in the first prompt of 100 sessions and in the second of
		// 100 others, all of which say "docs".
		expect(fuzzy.find("tokenizer docs")).toHaveLength(200);
		// Fuzzy: "m7x" is in "m17x" and "m170x" too, but the exact one ranks first.
		const sevens = fuzzy.find("m7x docs").map(file);
		expect(sevens[0]).toBe(files[7]);
		expect(sevens).toContain(files[170]);
		// Misspelt: letters in order, close together.
		expect(fuzzy.find("m12x3x")).toEqual([]);
		expect(fuzzy.find("tokenzr").length).toBe(200);
		expect(fuzzy.find("quarterly").map(file)).toEqual([files[500]]);
		expect(fuzzy.find("shipped").map(file)).toEqual([files[500]]);
		// Both words must match; scattered letters do not.
		expect(fuzzy.find("parser m501x")).toEqual([]);
		expect(fuzzy.find("tokenizer m501x").map(file)).toEqual([files[501]]);
		expect(fuzzy.find("qzx")).toEqual([]);
		// Typing on: each longer query is searched among the rows the last one found, with the same result.
		const fresh = new FuzzyRows(rows, (r) => [r.summary.name ?? "", ...(prompts.get(r.file) ?? [])]);
		for (const query of ["m", "m4", "m45", "m45x", "m45x now"]) {
			expect(fuzzy.find(query).map(file), query).toEqual(fresh.find(query).map(file));
		}
		expect(fuzzy.find("m45x now").map(file)[0]).toBe(files[45]);
		// A blank filter keeps every row in order.
		expect(fuzzy.find("  ").map(file)).toEqual(rows.map((r) => r.file));
	});
});

describe("the trash", () => {
	it("moves a deleted session there and restores it, byte for byte, to where it was", () => {
		const base = tmp();
		const [file] = generate(base, 1) as [string];
		const bytes = readFileSync(file);
		const trash = join(tmp(), "trash");
		const moved = moveToTrash(file, trash, new Date("2026-03-04T05:06:07Z"));
		expect(existsSync(file)).toBe(false);
		expect(readFileSync(moved.file)).toEqual(bytes);
		expect(listSessions(base, CWD)).toEqual([]);
		expect(listTrash(trash)).toEqual([moved]);
		expect(moved).toMatchObject({ from: file, deletedAt: "2026-03-04T05:06:07.000Z" });
		const restored = restoreFromTrash(moved.id.slice(0, 5), trash);
		expect(restored.from).toBe(file);
		expect(readFileSync(file)).toEqual(bytes);
		expect(listTrash(trash)).toEqual([]);
		expect(listSessions(base, CWD)).toHaveLength(1);
	});

	it("refuses with the reason when the trash cannot be written, and deletes nothing", () => {
		const base = tmp();
		const [file] = generate(base, 1) as [string];
		const blocked = join(tmp(), "not-a-folder");
		writeFileSync(blocked, "a file where the trash folder would be\n");
		expect(() => moveToTrash(file, join(blocked, "trash"))).toThrow(
			/cannot move the session to the trash: .*not-a-folder\/trash cannot be written .*nothing was deleted/,
		);
		expect(existsSync(file)).toBe(true);
	});

	it("restores nothing over a file that took the session's place, and says what it holds", () => {
		const base = tmp();
		const [file] = generate(base, 1) as [string];
		const trash = join(tmp(), "trash");
		const moved = moveToTrash(file, trash);
		writeFileSync(file, "someone else's\n");
		expect(() => restoreFromTrash(moved.id, trash)).toThrow(/a file is at .* now; move it away first/);
		expect(existsSync(moved.file)).toBe(true);
		expect(() => restoreFromTrash("zzz", trash)).toThrow(/no session "zzz" in the trash/);
	});
});
