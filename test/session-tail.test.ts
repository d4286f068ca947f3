import { createHash } from "node:crypto";
import { appendFileSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { writeSyntheticSession } from "../scripts/synthetic-session.js";
import { loadSession } from "../src/session/load.js";
import { replayEvents } from "../src/session/replay.js";
import type { Session } from "../src/session/session.js";
import { readSessionTail } from "../src/session/tail.js";
import { SessionWriter } from "../src/session/writer.js";
import { reduce } from "../src/view/reducer.js";
import { initialView } from "../src/view/state.js";
import { tempDirsPerTest } from "./fixtures/session/run.js";

const tmp = tempDirsPerTest();
const CWD = "/home/me/src/app";
const KB = 1024;

/** A synthetic session of `entries` entries (about 3.5 KB each) written by the real writer. */
function synthetic(entries: number): string {
	return writeSyntheticSession(tmp(), entries, { cwd: CWD });
}

/** The chat items of the path to the session's leaf, without their keys (which count items from the path's start). */
function lastItems(session: Session, count: number) {
	let view = initialView({ provider: "anthropic", model: "m" });
	for (const { event, ts } of replayEvents(session)) view = reduce(view, event, Date.parse(ts));
	return view.items.slice(-count).map(({ key: _key, ...item }) => item);
}

/** Where each line of `file` starts (the header's too). */
function lineStarts(file: string): number[] {
	const bytes = readFileSync(file);
	const starts = [0];
	for (let nl = bytes.indexOf(10); nl !== -1 && nl + 1 < bytes.length; nl = bytes.indexOf(10, nl + 1)) {
		starts.push(nl + 1);
	}
	return starts;
}

const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

describe("readSessionTail", () => {
	it("ends at the full load's leaf with the same last items, from the file's last 256 KB, and writes nothing", () => {
		const file = synthetic(600);
		const before = sha256(file);
		const full = loadSession(file);
		const tail = readSessionTail(file);
		expect(sha256(file)).toBe(before);
		expect(statSync(file).size).toBeGreaterThan(4 * 256 * KB);
		expect(tail).not.toBeNull();
		if (!tail) return;
		expect(tail.header).toEqual(full.header);
		expect(tail.leafId).toBe(full.leafId);
		// Only the tail was read: far fewer entries, the first of them a root cut from its parent.
		expect(tail.entries.length).toBeGreaterThan(20);
		expect(tail.entries.length).toBeLessThan(full.entries.length / 3);
		const same = full.entries.slice(-tail.entries.length);
		expect(tail.entries.map((e) => e.id)).toEqual(same.map((e) => e.id));
		expect(tail.roots()[0]?.id).toBe(tail.entries[0]?.id);
		expect(tail.entries.slice(1)).toEqual(same.slice(1));
		expect(lastItems(tail, 12)).toEqual(lastItems(full, 12));
	});

	it("gives the whole file of a small session, as the full load", () => {
		const file = synthetic(30);
		const tail = readSessionTail(file);
		const full = loadSession(file);
		expect(tail?.entries).toEqual(full.entries);
		expect(tail?.orphans.size).toBe(0);
		expect(tail && lastItems(tail, 1000)).toEqual(lastItems(full, 1000));
	});

	it("starts at the first whole line when the tail begins in the middle of one", () => {
		const file = synthetic(60);
		const starts = lineStarts(file);
		const size = statSync(file).size;
		const full = loadSession(file);
		// 5 bytes into line 40 (index 39): line 41 is the tail's first entry, line 40 is not half-read.
		const cut = starts[39] ?? 0;
		const tail = readSessionTail(file, size - (cut + 5));
		// Line 1 is the header: line n is entry n − 2.
		expect(tail?.entries[0]?.id).toBe(full.entries[39]?.id);
		expect(tail?.entries.length).toBe(full.entries.length - 39);
		// Exactly at a line's start: that line is whole, and it is the first.
		const exact = readSessionTail(file, size - cut);
		expect(exact?.entries[0]?.id).toBe(full.entries[38]?.id);
	});

	it("skips a torn last line, as the full load does", () => {
		const file = synthetic(60);
		const leaf = loadSession(file).leafId;
		appendFileSync(file, '{"type":"user","id":"torn0001","parentId":');
		const tail = readSessionTail(file, 64 * KB);
		expect(tail?.leafId).toBe(leaf);
		expect(loadSession(file).leafId).toBe(leaf);
	});

	it("skips a malformed line inside the tail", () => {
		const file = synthetic(60);
		const full = loadSession(file);
		appendFileSync(file, "not json\n");
		const writer = SessionWriter.open(file);
		const last = writer.appendUser("after the damage");
		writer.close();
		const tail = readSessionTail(file, 64 * KB);
		expect(tail?.leafId).toBe(last.id);
		expect(tail?.node(last.id)?.parentId).toBe(full.leafId);
	});

	it("is null when a leaf record points before the tail (the leaf's path is not in it)", () => {
		const file = synthetic(600);
		const writer = SessionWriter.open(file);
		const early = writer.session.entries[5]?.id ?? "";
		writer.moveTo(early);
		writer.close();
		expect(loadSession(file).leafId).toBe(early);
		expect(readSessionTail(file)).toBeNull();
		// Read whole, the same file has a trustworthy tail.
		expect(readSessionTail(file, statSync(file).size)?.leafId).toBe(early);
	});

	it("follows a leaf record whose target is in the tail", () => {
		const file = synthetic(600);
		const writer = SessionWriter.open(file);
		const target = writer.session.entries.at(-10)?.id ?? "";
		writer.moveTo(target);
		writer.close();
		const tail = readSessionTail(file);
		expect(tail?.leafId).toBe(target);
		expect(tail && lastItems(tail, 5)).toEqual(lastItems(loadSession(file), 5));
	});

	it("is null for a bad header, a newer format, an empty or missing file, and a file with no entries", () => {
		const dir = tmp();
		const file = synthetic(60);
		const lines = readFileSync(file, "utf8").split("\n");
		const header = JSON.parse(lines[0] ?? "{}");
		const write = (name: string, text: string) => {
			const path = `${dir}/${name}`;
			writeFileSync(path, text);
			return path;
		};
		expect(readSessionTail(write("bad.jsonl", ["{not a header", ...lines.slice(1)].join("\n")))).toBeNull();
		const newer = JSON.stringify({ ...header, version: 99 });
		expect(readSessionTail(write("newer.jsonl", [newer, ...lines.slice(1)].join("\n")))).toBeNull();
		expect(readSessionTail(write("empty.jsonl", ""))).toBeNull();
		expect(readSessionTail(`${dir}/missing.jsonl`)).toBeNull();
		expect(readSessionTail(write("header-only.jsonl", `${lines[0]}\n`))).toBeNull();
		// A line longer than the tail: nothing whole in it.
		expect(readSessionTail(file, 10)).toBeNull();
	});
});
