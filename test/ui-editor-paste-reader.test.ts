import { describe, expect, it } from "vitest";
import { type PasteKey, PasteReader, type PasteStep } from "../src/ui/editor/paste-reader.js";

const NONE: PasteKey = { escape: false, return: false, tab: false, ctrl: false };

/** Feeds events (text, or [text, key flags]) and returns what each one was. */
function feed(reader: PasteReader, ...events: (string | [string, Partial<PasteKey>])[]): PasteStep[] {
	return events.map((e) => (typeof e === "string" ? reader.read(e, NONE) : reader.read(e[0], { ...NONE, ...e[1] })));
}

const pasted = (steps: PasteStep[]) => steps.flatMap((s) => (s.kind === "pasted" ? [s.text] : []));

describe("the bracketed-paste reader", () => {
	it("passes keys through outside a paste", () => {
		const reader = new PasteReader();
		expect(feed(reader, "a", ["", { return: true }])).toEqual([{ kind: "key" }, { kind: "key" }]);
		expect(reader.pasting).toBe(false);
	});

	it("holds everything between the markers and gives it whole at the end; Enter and Tab are text", () => {
		const reader = new PasteReader();
		const steps = feed(reader, "[200~", "line one", ["", { return: true }], "two", ["", { tab: true }], "x", "[201~");
		expect(steps.slice(0, -1).every((s) => s.kind === "held")).toBe(true);
		expect(pasted(steps)).toEqual(["line one\ntwo\tx"]);
		expect(reader.pasting).toBe(false);
		expect(feed(reader, "after")).toEqual([{ kind: "key" }]);
	});

	it("drops control keys inside a paste", () => {
		const reader = new PasteReader();
		expect(pasted(feed(reader, "[200~", "a", ["u", { ctrl: true }], "b", "[201~"))).toEqual(["ab"]);
	});

	it("takes an end marker split between reads, or after a lone Escape", () => {
		expect(pasted(feed(new PasteReader(), "[200~", "text", "[20", "1~"))).toEqual(["text"]);
		expect(pasted(feed(new PasteReader(), "[200~", "text", "[", "201~"))).toEqual(["text"]);
		expect(pasted(feed(new PasteReader(), "[200~", "text", ["", { escape: true }], "[201~"))).toEqual(["text"]);
	});

	it("gives back as text the pieces that looked like the end marker but were not", () => {
		const reader = new PasteReader();
		const steps = feed(reader, "[200~", "[2", "x", ["", { escape: true }], "[", "201~");
		expect(pasted(steps)).toEqual(["[2x"]);
		expect(pasted(feed(new PasteReader(), "[200~", "[20", "[201~"))).toEqual(["[20"]);
	});

	it("starts over at a new start marker", () => {
		const reader = new PasteReader();
		expect(pasted(feed(reader, "[200~", "lost", "[200~", "kept", "[201~"))).toEqual(["kept"]);
	});
});
