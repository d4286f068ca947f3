// gar's events as ACP updates: the pure parts (titles, diffs, fences, the mapping of each event).
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../src/agent/events.js";
import { promptText } from "../src/modes/acp/prompt.js";
import { callView, diffContent, fenced, SessionUpdates } from "../src/modes/acp/updates.js";
import { unifiedDiff } from "../src/tools/file-change.js";

describe("ACP updates", () => {
	it("gives each tool a title, a kind and absolute locations", () => {
		expect(callView("read", { path: "src/a.ts", offset: 40 }, "/p")).toEqual({
			title: "Read src/a.ts (from line 40)",
			kind: "read",
			locations: [{ path: "/p/src/a.ts", line: 40 }],
		});
		expect(callView("edit", { path: "/etc/x" }, "/p")).toEqual({
			title: "Edit /etc/x",
			kind: "edit",
			locations: [{ path: "/etc/x" }],
		});
		expect(callView("bash", { command: "npm test\necho done" }, "/p")).toEqual({
			title: "npm test",
			kind: "execute",
			locations: [],
		});
		expect(callView("web", {}, "/p")).toEqual({ title: "web", kind: "other", locations: [] });
	});

	it("fences text so that nothing inside can close the fence; the text stays exact", () => {
		expect(fenced("a\n")).toBe("```\na\n```");
		expect(fenced("x ```` y")).toBe("`````\nx ```` y\n`````");
		const hostile = "\u001b[31mred\u2028\u0000";
		expect(fenced(hostile)).toBe(`\`\`\`\n${hostile}\n\`\`\``);
	});

	it("turns a unified diff into one old/new pair per hunk; a created file has no old text", () => {
		const before = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n");
		const after = before.replace("line 2\n", "line two\n").replace("line 29", "line twenty-nine");
		const diff = unifiedDiff("f.txt", `${before}\n`, `${after}\n`);
		const items = diffContent("/p/f.txt", diff, false);
		expect(items).toHaveLength(2);
		expect(items[0]).toEqual({
			type: "diff",
			path: "/p/f.txt",
			oldText: "line 1\nline 2\nline 3\nline 4\nline 5",
			newText: "line 1\nline two\nline 3\nline 4\nline 5",
		});
		expect(diffContent("/p/n.txt", unifiedDiff("n.txt", "", "new\nfile"), true)).toEqual([
			{ type: "diff", path: "/p/n.txt", oldText: null, newText: "new\nfile" },
		]);
	});

	it("maps a denied call to a failed update with gar's words, and sums the cost until a price is unknown", () => {
		const updates = new SessionUpdates({ cwd: "/p", context: () => ({ tokens: 10, window: 100 }), hasHistory: false });
		const end = updates.of({
			type: "tool_end",
			callId: "c",
			name: "write",
			outcome: "denied",
			content: "The user denied this write call.",
			details: null,
			isError: true,
			durationMs: 0,
		});
		expect(end).toEqual([
			{
				sessionUpdate: "tool_call_update",
				toolCallId: "c",
				status: "failed",
				content: [{ type: "content", content: { type: "text", text: "The user denied this write call." } }],
			},
		]);
		updates.of({ type: "compaction_end", ok: true, tokensBefore: 1, tokensAfter: 1, costUsd: 0.5 });
		expect(updates.usage()).toEqual([
			{ sessionUpdate: "usage_update", used: 10, size: 100, cost: { amount: 0.5, currency: "USD" } },
		]);
		updates.of({ type: "compaction_end", ok: true, tokensBefore: 1, tokensAfter: 1, costUsd: null });
		expect(updates.usage()).toEqual([{ sessionUpdate: "usage_update", used: 10, size: 100 }]);
	});

	it("gives a call id repeated in a later reply (servers that number calls per reply) an id of its own", () => {
		const updates = new SessionUpdates({ cwd: "/p", context: () => ({ tokens: 10, window: 100 }), hasHistory: false });
		const reply = (name: string): AgentEvent => ({
			type: "message_end",
			message: {
				role: "assistant",
				content: [{ type: "tool_call", id: "call_1", name, arguments: { path: "a.txt" } }],
				usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 },
				stopReason: "tool_use",
				provider: "openai",
				model: "m",
			},
			costUsd: 0,
			requestId: "r",
			turn: 1,
			timing: { startedAt: 0, firstTokenMs: null, durationMs: 1 },
			retries: 0,
		});
		const idsOf = (list: ReturnType<SessionUpdates["of"]>) =>
			list.flatMap((u) => ("toolCallId" in u ? [`${u.sessionUpdate} ${u.toolCallId}`] : []));
		const started = (name: string) => ({ type: "tool_start", callId: "call_1", name, args: {} }) as const;
		expect(idsOf([...updates.of(reply("read")), ...updates.of(started("read"))])).toEqual([
			"tool_call call_1",
			"tool_call_update call_1",
		]);
		expect(idsOf([...updates.of(reply("write")), ...updates.of(started("write"))])).toEqual([
			"tool_call call_1~2",
			"tool_call_update call_1~2",
		]);
		expect(updates.idOf("call_1")).toBe("call_1~2");
	});

	it("makes a prompt of text, resource links and embedded text resources; refuses images", () => {
		expect(
			promptText([
				{ type: "text", text: "explain" },
				{ type: "resource_link", uri: "file:///p/a%20b.ts", name: "a b.ts" },
				{ type: "resource", resource: { uri: "file:///p/c.ts", text: "const c = 1;" } },
			]),
		).toBe('explain /p/a b.ts\n\n<context file="/p/c.ts">\nconst c = 1;\n</context>');
		expect(() => promptText([{ type: "image", data: "", mimeType: "image/png" }])).toThrow(/not image content/);
		expect(() => promptText([{ type: "text", text: "  " }])).toThrow(/the prompt is empty/);
	});
});
