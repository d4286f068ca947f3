import { describe, expect, it } from "vitest";
import { contextTokens, limitsFor } from "../src/compaction/accounting.js";
import { cutPoints, findCut } from "../src/compaction/cut-point.js";
import { capToolResult, maxResultChars } from "../src/compaction/result-cap.js";
import { filesTouched, formatFiles, parseFiles, withoutFiles } from "../src/compaction/serialize.js";
import { EMPTY_USAGE, type Message } from "../src/llm/types.js";
import { summaryMessage, summaryOf } from "../src/session/context.js";

const user = (content: string): Message => ({ role: "user", content });
const reply = (text: string, usage = EMPTY_USAGE): Message => ({
	role: "assistant",
	content: [{ type: "text", text }],
	provider: "p",
	model: "m",
	usage,
	stopReason: "stop",
});
const calls = (...ids: string[]): Message => ({
	role: "assistant",
	content: ids.map((id) => ({ type: "tool_call" as const, id, name: "read", arguments: { path: `${id}.ts` } })),
	provider: "p",
	model: "m",
	usage: EMPTY_USAGE,
	stopReason: "tool_use",
});
const result = (callId: string, content = "x"): Message => ({
	role: "tool_result",
	callId,
	name: "read",
	content,
	isError: false,
});

describe("context accounting", () => {
	it("is the last reply's reported tokens plus an estimate of what came after it", () => {
		const usage = { input: 1000, output: 50, cacheRead: 200, cacheWrite: 10 };
		const messages = [user("a"), reply("b", usage), user("c".repeat(400))];
		expect(contextTokens(messages, 999)).toBe(1260 + 100);
	});

	it("estimates everything (system and tools included) when no reply is trusted", () => {
		const usage = { input: 1000, output: 50, cacheRead: 0, cacheWrite: 0 };
		const messages = [user("a".repeat(40)), reply("b".repeat(40), usage)];
		expect(contextTokens(messages, 500, messages.length)).toBe(500 + 20);
		expect(contextTokens([user("a".repeat(40))], 500)).toBe(510);
	});

	it("keeps the reserve and the recent part within the window", () => {
		const settings = { autoCompact: true, reserveTokens: 16_384, keepRecentTokens: 20_000, maxToolResultShare: 0.25 };
		expect(limitsFor(200_000, settings)).toEqual({ threshold: 183_616, keepRecent: 20_000 });
		expect(limitsFor(8_000, settings)).toEqual({ threshold: 4_000, keepRecent: 2_000 });
	});
});

describe("cut points", () => {
	// user, a reply with three tool calls and their results, a reply, a user message
	const turn = [user("go"), calls("a", "b", "c"), result("a"), result("b"), result("c"), reply("done"), user("next")];

	it("never fall between a tool call and its result, nor inside a reply's tool calls", () => {
		expect(cutPoints(turn, 0)).toEqual([1, 5, 6]);
	});

	it("never split a turn with several tool calls, whatever the budget", () => {
		const big = [
			user("go"),
			calls("a", "b", "c"),
			result("a", "r".repeat(4000)),
			result("b", "r".repeat(4000)),
			result("c", "r".repeat(4000)),
			reply("done"),
			user("next"),
		];
		for (const keep of [1, 10, 500, 1000, 2000, 2500, 3000, 5000]) {
			const cut = findCut(big, 0, keep);
			expect([1, 5, 6]).toContain(cut);
		}
		// A budget the last turn fits in keeps just that; one that fits the tool turn keeps it whole.
		expect(findCut(big, 0, 1)).toBe(6);
		expect(findCut(big, 0, 10)).toBe(5);
		expect(findCut(big, 0, 3100)).toBe(1);
	});

	it("is not found when there is nothing older to summarize", () => {
		expect(findCut([user("only")], 0, 100)).toBeUndefined();
		expect(findCut([summaryMessage("s"), user("only")], 1, 100)).toBeUndefined();
		// Results answered after a steer: no cut while a call is open.
		const steered = [user("go"), calls("a", "b"), result("a"), user("steer"), result("b"), user("more")];
		expect(cutPoints(steered, 0)).toEqual([1, 5]);
	});
});

describe("summary message and file lists", () => {
	it("round-trips the summary and the files the tool calls touched", () => {
		const messages: Message[] = [
			calls("a"),
			{
				role: "assistant",
				content: [
					{ type: "tool_call", id: "w", name: "write", arguments: { path: "a.ts", content: "" } },
					{ type: "tool_call", id: "e", name: "edit", arguments: { path: "c.ts", edits: [] } },
				],
				provider: "p",
				model: "m",
				usage: EMPTY_USAGE,
				stopReason: "tool_use",
			},
		];
		const files = filesTouched(messages, { read: ["b.ts"], modified: [] });
		expect(files).toEqual({ read: ["b.ts"], modified: ["a.ts", "c.ts"] });
		const summary = `## Goal\nship it\n\n${formatFiles(files)}`;
		expect(parseFiles(summary)).toEqual(files);
		expect(withoutFiles(summary)).toBe("## Goal\nship it");
		expect(summaryOf(summaryMessage(summary))).toBe(summary);
		expect(summaryOf(user("just a user message"))).toBeUndefined();
	});
});

describe("tool result share", () => {
	it("cuts a result above its share of the window and says how to get the rest", () => {
		const max = maxResultChars(8000, 0.25);
		expect(max).toBe(8000);
		const capped = capToolResult("x".repeat(20_000), "read", max);
		expect(capped.length).toBeLessThan(8400);
		expect(capped).toContain("cut to 8000 of 20000 characters");
		expect(capped).toContain("offset and limit");
		expect(capToolResult("short", "bash", max)).toBe("short");
		expect(capToolResult("x".repeat(20_000), "bash", null)).toHaveLength(20_000);
	});
});
