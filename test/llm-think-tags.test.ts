import { describe, expect, it } from "vitest";
import { ThinkTagSplitter } from "../src/llm/think-tags.js";

/** Feeds the deltas and returns what came out, merged by kind in order. */
function split(deltas: string[]): [kind: "text" | "thinking", text: string][] {
	const out: [kind: "text" | "thinking", text: string][] = [];
	const add = (kind: "text" | "thinking", text: string) => {
		if (text === "") return;
		const last = out[out.length - 1];
		if (last?.[0] === kind) last[1] += text;
		else out.push([kind, text]);
	};
	const splitter = new ThinkTagSplitter(
		(t) => add("text", t),
		(t) => add("thinking", t),
	);
	for (const delta of deltas) splitter.push(delta);
	splitter.flush();
	return out;
}

describe("ThinkTagSplitter", () => {
	it("splits a leading think block", () => {
		expect(split(["<think>plan</think>answer"])).toEqual([
			["thinking", "plan"],
			["text", "answer"],
		]);
	});

	it("handles tags cut at every position across deltas", () => {
		const whole = "  <think>a b</think>\n\nreply <b>";
		for (let i = 1; i < whole.length; i++) {
			for (let j = i + 1; j < whole.length; j++) {
				expect(split([whole.slice(0, i), whole.slice(i, j), whole.slice(j)])).toEqual([
					["thinking", "a b"],
					["text", "reply <b>"],
				]);
			}
		}
	});

	it("makes an unclosed think block all thinking, with an empty answer", () => {
		expect(split(["<think>still ", "going </th"])).toEqual([["thinking", "still going </th"]]);
	});

	it("leaves text that mentions the tag later in the answer alone", () => {
		expect(split(["Use ", "<think> tags", " and </think>."])).toEqual([["text", "Use <think> tags and </think>."]]);
		expect(split(["<thin", "g>"])).toEqual([["text", "<thing>"]]);
		expect(split(["<think>a</think>b <think>c</think>"])).toEqual([
			["thinking", "a"],
			["text", "b <think>c</think>"],
		]);
	});

	it("flushes a reply that is only a partial opening tag as text", () => {
		expect(split(["<thi"])).toEqual([["text", "<thi"]]);
		expect(split(["\n"])).toEqual([["text", "\n"]]);
	});
});
