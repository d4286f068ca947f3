import { readFileSync } from "node:fs";
import stringWidth from "string-width";
import { beforeAll, describe, expect, it } from "vitest";
import type { Line } from "../src/ui/chat/lines.js";
import { loadMarkdown } from "../src/ui/chat/markdown.js";
import { renderItem } from "../src/ui/chat/render-item.js";
import { darkTheme as theme } from "../src/ui/theme/theme.js";
import type { ChatItem, ToolItem } from "../src/view/state.js";

// Replies are markdown: the app loads marked and lowlight after its first frame; these tests need them loaded.
beforeAll(loadMarkdown);

const text = (lines: Line[]) => lines.map((l) => l.spans.map((s) => s.text).join(""));
const render = (item: ChatItem, width = 40, expanded = false) => renderItem(item, width, theme, { expanded });
const span = (lines: Line[], t: string) => lines.flatMap((l) => l.spans).find((s) => s.text.includes(t));
const reply = (t: string): ChatItem => ({ kind: "text", key: "r", text: t, streaming: false });

const BASH = { kind: "bash", cwd: "/repo", signal: null, timedOut: false, aborted: false, truncated: false } as const;

function tool(fields: Partial<ToolItem>): ToolItem {
	return { kind: "tool", key: "t", callId: "c1", name: "bash", argsText: "", args: null, status: "done", ...fields };
}

describe("renderItem: assistant markdown", () => {
	const answer = [
		"## Fix",
		"",
		"Run `npm test` first, then:",
		"",
		"1. open **src/app.ts** and read it all the way through",
		"2. change it",
		"",
		"```ts",
		"const answer: number = 42;",
		'export function greet(name: string) { return "hi " + name; }',
		"```",
	].join("\n");

	it("renders headings, lists, inline code and a highlighted code block, wrapped to the width", () => {
		const lines = render(reply(answer));
		expect(text(lines)).toEqual([
			"● Fix",
			"",
			"  Run npm test first, then:",
			"",
			"  1. open src/app.ts and read it all the",
			"     way through",
			"  2. change it",
			"",
			"    const answer: number = 42;",
			"    export function greet(name: string)",
			'  ↪ { return "hi " + name; }',
		]);
		expect(span(lines, "Fix")).toMatchObject({ bold: true, color: theme.accent });
		expect(span(lines, "npm test")).toMatchObject({ color: theme.code.default });
		expect(span(lines, "src/app.ts")).toMatchObject({ bold: true });
		expect(span(lines, "const")).toMatchObject({ color: theme.code.keyword });
		expect(span(lines, "42")).toMatchObject({ color: theme.code.number });
		expect(lines.map((l) => l.key)).toEqual(lines.map((_, i) => `r:${i}`));
	});

	it("aligns a table that fits and falls back to one wrapped line per row when it does not", () => {
		const table = "| file | lines | note |\n|:--|--:|:-:|\n| a.ts | 12 | ok |\n| src/long-name.ts | 3 | new |\n";
		expect(text(render(reply(table)))).toEqual([
			"● file             │ lines │ note",
			"  ─────────────────┼───────┼─────",
			"  a.ts             │    12 │  ok ",
			"  src/long-name.ts │     3 │ new ",
		]);
		expect(text(render(reply(table), 24))).toEqual([
			"● file: a.ts · lines: 12",
			"    · note: ok",
			"  file: src/long-name.ts",
			"    · lines: 3 · note:",
			"    new",
		]);
	});

	it("shows links with their address, quotes and rules, and never HTML", () => {
		const lines = render(reply("See [docs](https://x.dev/a) <b>now</b>.\n\n> quoted\n\n---"), 30);
		expect(text(lines)).toEqual([
			"● See docs (https://x.dev/a)",
			"  <b>now</b>.",
			"",
			"  │ quoted",
			"",
			`  ${"─".repeat(28)}`,
		]);
	});

	it("shows unknown languages plain", () => {
		const lines = render(reply("```nosuchlang\nlet x = 1\n```"));
		expect(text(lines)).toEqual(["●   let x = 1"]);
		expect(lines[0]?.spans[1]).toEqual({ text: "  " });
		expect(span(lines, "let x")).toMatchObject({ color: theme.code.default });
	});
});

describe("renderItem: tool calls", () => {
	const diff = ["--- a/src/x.ts", "+++ b/src/x.ts", "@@ -1,20 +1,20 @@"];
	for (let i = 1; i <= 20; i++) diff.push(i % 5 === 0 ? `-old ${i}` : i % 5 === 1 ? `+new ${i}` : ` ctx ${i}`);
	const edit = tool({
		name: "edit",
		args: { path: "src/x.ts" },
		content: "Edited src/x.ts",
		details: {
			kind: "edit",
			path: "/repo/src/x.ts",
			diff: `${diff.join("\n")}\n`,
			oldHash: "a",
			newHash: "b",
			undo: "patch",
			firstChangedLine: 1,
			matchLevels: [],
			added: 4,
			removed: 4,
		},
	});

	it("shows an edit's diff cut at 12 lines, and all of it expanded", () => {
		const collapsed = render(edit, 50);
		expect(text(collapsed)).toEqual([
			"▸ edit src/x.ts  +4 −4 · from line 1",
			"  @@ -1,20 +1,20 @@",
			"  +new 1",
			"   ctx 2",
			"   ctx 3",
			"   ctx 4",
			"  -old 5",
			"  +new 6",
			"   ctx 7",
			"   ctx 8",
			"   ctx 9",
			"  -old 10",
			"  +new 11",
			"  … 9 more lines (Ctrl+O)",
		]);
		expect(span(collapsed, "+new 1")?.color).toBe(theme.diff.added);
		expect(span(collapsed, "-old 5")?.color).toBe(theme.diff.removed);
		expect(span(collapsed, "@@")?.color).toBe(theme.diff.hunk);
		expect(span(collapsed, "ctx 2")?.color).toBe(theme.diff.context);
		expect(span(collapsed, "▸")?.color).toBe(theme.success);
		const expanded = text(render(edit, 50, true));
		expect(expanded).toHaveLength(22);
		expect(expanded.slice(-2)).toEqual(["   ctx 19", "  -old 20"]);
	});

	it("shows a running command whole, with a live tail of its output", () => {
		const output = Array.from({ length: 9 }, (_, i) => `line ${i + 1}`).join("\n");
		const running = tool({
			args: { command: "npm test -- --reporter=verbose" },
			status: "running",
			progress: { kind: "bash", command: "npm test", output, totalLines: 9, totalBytes: 60, elapsedMs: 2300 },
		});
		const lines = render(running, 44);
		expect(text(lines)).toEqual([
			"▸ bash npm test -- --reporter=verbose",
			"  running · 9 lines of output · 2.3 s",
			"  line 5",
			"  line 6",
			"  line 7",
			"  line 8",
			"  line 9",
		]);
		expect(span(lines, "▸")?.color).toBe(theme.accent);
		expect(text(render(running, 44, true))).toHaveLength(11);
	});

	it("shows a failed command as an error with its exit code and the output lines that explain it", () => {
		const failed = tool({
			args: { command: "make build\nmake test" },
			status: "error",
			isError: true,
			content: "a\nb\nc\nd\ne\nerror: boom\n\n[Exit code 2]",
			details: {
				...BASH,
				command: "make build\nmake test",
				exitCode: 2,
				durationMs: 1200,
				totalLines: 6,
				totalBytes: 30,
			},
		});
		const lines = render(failed, 40);
		expect(text(lines)).toEqual([
			"▸ bash  exit 2 · 1.2 s",
			"  $ make build",
			"  > make test",
			"  6 error: boom",
			"  … Ctrl+O shows all 6 lines",
		]);
		expect(span(lines, "exit 2")?.color).toBe(theme.error);
		const ok = tool({
			args: { command: "true" },
			content: "(no output)",
			details: { ...BASH, command: "true", exitCode: 0, durationMs: 40, totalLines: 0, totalBytes: 0 },
		});
		expect(text(render(ok))).toEqual(["▸ bash true  exit 0 · 40 ms"]);
	});

	it("folds a failed test run to its failing test and assertion with their line numbers, not the summary's end", () => {
		const output = readFileSync(new URL("./fixtures/output/npm-node-test-tap.txt", import.meta.url), "utf8");
		const failed = tool({
			args: { command: "npm test" },
			status: "error",
			isError: true,
			content: `${output.replace(/\n$/, "")}\n\n[Exit code 1]`,
			details: { ...BASH, command: "npm test", exitCode: 1, durationMs: 2300, totalLines: 52, totalBytes: 1500 },
		});
		expect(text(render(failed, 80))).toEqual([
			"▸ bash npm test  exit 1 · 2.3 s",
			"  12 not ok 2 - subtracts",
			"  17   error: |-",
			"  18     Expected values to be strictly equal:",
			"  20     4 !== 3",
			"  23   name: 'AssertionError'",
			"  … 1 more such line · Ctrl+O shows all 52 lines",
		]);
		// Ctrl+O: the whole output, as before.
		expect(text(render(failed, 80, true))).toContain("  # duration_ms 397.359585");
	});

	it("shows reads as one line and denials with their reason", () => {
		const read = tool({
			name: "read",
			args: { path: "src/a.ts" },
			content: "…",
			details: { kind: "read", path: "/repo/src/a.ts", startLine: 1, endLine: 120, totalLines: 340, truncated: false },
		});
		expect(text(render(read))).toEqual(["▸ read src/a.ts  lines 1–120 of 340"]);
		const denied = tool({ args: { command: "rm -rf /" }, status: "denied", content: "The user denied this call." });
		expect(text(render(denied))).toEqual(["▸ bash rm -rf /  denied", "  The user denied this call."]);
	});
});

describe("renderItem: other items", () => {
	it("labels user messages by source", () => {
		expect(
			text(render({ kind: "user", key: "u", source: "prompt", text: "fix the failing test in the parser" }, 24)),
		).toEqual(["you › fix the failing", "      test in the parser"]);
		expect(text(render({ kind: "user", key: "u", source: "steer", text: "stop" }))).toEqual(["you (steer) › stop"]);
		expect(text(render({ kind: "user", key: "u", source: "follow_up", text: "then" }))).toEqual([
			"you (follow-up) › then",
		]);
		expect(text(render({ kind: "user", key: "u", source: "schema_retry", text: "Reply\nwith JSON." }))).toEqual([
			"gar asked for JSON: Reply with JSON.",
		]);
	});

	it("shows what was pasted as its placeholder, all of it expanded; ranges that do not fit the text are ignored", () => {
		const pasted = Array.from({ length: 5000 }, (_, i) => `row ${i}`).join("\n");
		const message = `look at ${pasted} please`;
		const start = "look at ".length;
		const item: ChatItem = {
			kind: "user",
			key: "u",
			source: "prompt",
			text: message,
			pastes: [{ start, end: start + pasted.length }],
		};
		const folded = render(item, 60);
		expect(text(folded)).toEqual(["you › look at [pasted 5000 lines] please"]);
		expect(span(folded, "[pasted 5000 lines]")?.color).toBe(theme.accent);
		expect(render(item, 60, true)).toHaveLength(5000);
		const damaged = {
			...item,
			pastes: [
				{ start: 0, end: message.length + 1 },
				{ start: 9, end: 3 },
			],
		};
		expect(render(damaged, 60)).toHaveLength(5000);
	});

	it("wraps a notice laid out in columns (the /help tables) under its second column", () => {
		const message =
			"Keys\n  Ctrl+R      search the history, Enter takes it and Esc cancels\nplain words that just wrap around here and there";
		expect(text(render({ kind: "notice", key: "n", level: "info", message }, 40))).toEqual([
			"• Keys",
			"    Ctrl+R      search the history,",
			"                Enter takes it and Esc",
			"                cancels",
			"  plain words that just wrap around here",
			"  and there",
		]);
	});

	it("renders retry, compaction, run end, errors and thinking as compact lines", () => {
		const retry: ChatItem = {
			kind: "retry",
			key: "x",
			attempt: 1,
			maxAttempts: 3,
			reason: "HTTP 529 overloaded",
			delayMs: 2000,
			errorKind: "overloaded",
		};
		expect(text(render(retry, 60))).toEqual(["HTTP 529 overloaded: retry 1/3 after 2.0 s"]);
		const compaction: ChatItem = { kind: "compaction", key: "c", ok: true, tokensBefore: 150_000, tokensAfter: 20_000 };
		expect(text(render(compaction))).toEqual(["── compacted: 150k → 20k tokens ──"]);
		const usage = { input: 12_000, output: 1100, cacheRead: 400, cacheWrite: 0 };
		const end: ChatItem = {
			kind: "run_end",
			key: "e",
			stopReason: "done",
			turns: 3,
			durationMs: 4100,
			usage,
			costUsd: 0.042,
		};
		expect(text(render(end, 60))).toEqual(["done · 3 turns · ↑12.4k ↓1.1k · $0.042 · 4.1 s"]);
		expect(text(render({ ...end, costUsd: null }, 60))).toEqual(["done · 3 turns · ↑12.4k ↓1.1k · unknown · 4.1 s"]);
		expect(text(render({ kind: "error", key: "e", message: "HTTP 401: set ANTHROPIC_API_KEY" }, 24))).toEqual([
			"✗ HTTP 401: set",
			"  ANTHROPIC_API_KEY",
		]);
		const thinking: ChatItem = { kind: "thinking", key: "h", streaming: false, text: "First I look.\nThen I edit." };
		expect(text(render(thinking))).toEqual(["∴ thinking (2 lines) First I look. Then…"]);
		expect(text(render(thinking, 40, true))).toEqual(["∴ thinking (2 lines)", "  First I look.", "  Then I edit."]);
	});
});

describe("renderItem: hostile and wide text", () => {
	it("shows escape sequences instead of running them, in every kind of item", () => {
		const hostile = "a\x1b[2Jb \x1b]52;c;cm0gLXJm\x07";
		const items: ChatItem[] = [
			{ kind: "user", key: "u", source: "prompt", text: hostile },
			reply(`${hostile}\n\n\`\`\`sh\n${hostile}\n\`\`\``),
			{ kind: "thinking", key: "h", streaming: true, text: hostile },
			tool({ args: { command: hostile }, status: "error", content: hostile, details: null }),
			{ kind: "error", key: "e", message: hostile },
			{ kind: "notice", key: "n", level: "warning", message: hostile },
		];
		for (const item of items) {
			for (const expanded of [false, true]) {
				const all = text(render(item, 60, expanded)).join("\n");
				expect([...all].filter((c) => c !== "\n" && (c < " " || c === "\x7f"))).toEqual([]);
				expect(all).toContain("␛[2J");
			}
		}
		expect(text(render(items[0] as ChatItem, 60))).toEqual(["you › a␛[2Jb ␛]52;c;cm0gLXJm^G"]);
	});

	it("wraps CJK and emoji so no line is wider than the width", () => {
		const t = "修复解析器中的错误，然后运行测试 🎉🎉 完成了 👩‍💻 e\u0301 **粗体文字很长很长**";
		for (const width of [8, 11, 20]) {
			for (const item of [reply(t), { kind: "user", key: "u", source: "prompt", text: t } as ChatItem]) {
				for (const line of text(render(item, width))) expect(stringWidth(line)).toBeLessThanOrEqual(width);
			}
		}
		expect(text(render(reply("日本語のテキストを折り返す 🎉🎉"), 12))).toEqual([
			"● 日本語のテ",
			"  キストを折",
			"  り返す",
			"  🎉🎉",
		]);
	});
});
