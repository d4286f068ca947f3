// What fills the context (src/inspect/context-report.ts, src/view/context-view.ts): the numbers of /context and gar
// context against a request whose sizes are known, character for character.
import { describe, expect, it } from "vitest";
import { contextReport } from "../src/inspect/context-report.js";
import type { Message } from "../src/llm/types.js";
import { summaryMessage } from "../src/session/index.js";
import { contextLines } from "../src/view/context-view.js";

const chars = (n: number, c = "x") => c.repeat(n);
const assistant = (content: Extract<Message, { role: "assistant" }>["content"]): Message => ({
	role: "assistant",
	content,
	provider: "openai",
	model: "m",
	usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	stopReason: "tool_use",
});

// 400 + 2,000 (a context file) + 40 characters of system prompt: 100 + 500 + 10 tokens.
const parts = [
	{ source: "base" as const, chars: 400, tokens: 100 },
	{ source: "context_file" as const, path: "/p/AGENTS.md", chars: 2000, tokens: 500 },
	{ source: "environment" as const, chars: 40, tokens: 10 },
];
const tools = [{ name: "read", description: chars(100), parameters: {} }];
const toolTokens = Math.ceil(JSON.stringify(tools).length / 4);
const summary = summaryMessage(chars(800, "s"));
const messages: Message[] = [
	summary,
	{ role: "user", content: chars(40) },
	assistant([
		{ type: "thinking", thinking: chars(80) },
		{ type: "text", text: chars(20) },
		{ type: "tool_call", id: "c1", name: "read", arguments: { path: "a" } },
	]),
	{ role: "tool_result", callId: "c1", name: "read", content: chars(1200), isError: false },
	{ role: "tool_result", callId: "c2", name: "bash", content: chars(4), isError: false },
];

describe("what fills the context", () => {
	it("splits the next request by kind, against the window, with the largest items and their entries", () => {
		const report = contextReport({
			provider: "openai",
			model: "m",
			window: 10_000,
			parts,
			tools,
			messages,
			entryIds: [null, "u1", "a1", "r1", "r2"],
			reported: 2900,
		});
		const summaryTokens = Math.ceil(summary.content.length / 4);
		const callTokens = Math.ceil(("read".length + JSON.stringify({ path: "a" }).length) / 4);
		expect(report.groups).toEqual([
			{ label: "system prompt", tokens: 610 },
			{ label: "base", tokens: 100, sub: true },
			{ label: "context file /p/AGENTS.md", tokens: 500, sub: true },
			{ label: "environment", tokens: 10, sub: true },
			{ label: "tools (1)", tokens: toolTokens },
			{ label: "compaction summary", tokens: summaryTokens },
			{ label: "user", tokens: 10 },
			{ label: "thinking", tokens: 20 },
			{ label: "assistant text", tokens: 5 },
			{ label: "tool calls", tokens: callTokens },
			{ label: "tool results: read", tokens: 300 },
			{ label: "tool results: bash", tokens: 1 },
		]);
		// A message's tokens are counted once: the assistant's as a whole (its characters / 4, rounded up once).
		const assistantTokens = Math.ceil((80 + 20 + "read".length + JSON.stringify({ path: "a" }).length) / 4);
		expect(report.total).toBe(610 + toolTokens + summaryTokens + 10 + assistantTokens + 300 + 1);
		expect(report.largest.map((item) => [item.label, item.entryId, item.tokens])).toEqual([
			["context file", null, 500],
			["tool result read", "r1", 300],
			["compaction summary", null, summaryTokens],
			["assistant", "a1", assistantTokens],
			["user", "u1", 10],
			["tool result bash", "r2", 1],
		]);
		// 500 of about 1,200 tokens: the context file is named.
		expect(report.warnings).toEqual([
			`the context file /p/AGENTS.md takes ${Math.round((500 / report.total) * 100)}% of the request: shorten it, or move what is rarely needed out of it`,
		]);
		const lines = contextLines(report);
		expect(lines[1]).toBe(
			`~${(report.total / 1000).toFixed(1)}k tokens of 10k (${Math.round((report.total / 10_000) * 100)}%) · ${((10_000 - report.total) / 1000).toFixed(1)}k free · the last reply's count: 2.9k`,
		);
		expect(lines).toContain(`  ${"tool results: read".padEnd(32)} ${"300".padStart(6)} ${"3%".padStart(4)}`);
		expect(lines).toContain(`  ${"  context file /p/AGENTS.md".padEnd(32)} ${"500".padStart(6)} ${"5%".padStart(4)}`);
		expect(lines.at(-1)).toContain("⚠ the context file /p/AGENTS.md takes");
	});

	it("a context file under a fifth of the request is no warning; an unknown window says so", () => {
		const small = parts.map((p) => (p.source === "context_file" ? { ...p, tokens: 50 } : p));
		const report = contextReport({
			provider: "p",
			model: "m",
			window: null,
			parts: small,
			tools: [],
			messages: [{ role: "user", content: chars(4000) }],
			entryIds: [],
			reported: null,
		});
		expect(report.warnings).toEqual([]);
		expect(report.groups.find((g) => g.label === "tools (0)")?.tokens).toBe(0);
		expect(contextLines(report)[1]).toBe(`~${((160 + 1000) / 1000).toFixed(1)}k tokens (window unknown)`);
		expect(contextLines(report).some((line) => line.includes("free"))).toBe(false);
	});
});
