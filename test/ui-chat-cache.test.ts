import { marked } from "marked";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { chunkStarts, replyChunkLines, replyLines } from "../src/ui/chat/assistant-text.js";
import { LineCache } from "../src/ui/chat/line-cache.js";
import { loadMarkdown } from "../src/ui/chat/markdown.js";
import { renderItem } from "../src/ui/chat/render-item.js";
import { darkTheme, type Theme } from "../src/ui/theme/theme.js";
import type { ChatItem } from "../src/view/state.js";

// Replies are markdown: the app loads marked and lowlight after its first frame; these tests need them loaded.
beforeAll(loadMarkdown);

afterEach(() => vi.restoreAllMocks());

/** A long markdown reply: paragraphs, lists, and code fences with blank lines inside them. */
function longReply(sections: number): string {
	const parts: string[] = [];
	for (let i = 0; i < sections; i++) {
		parts.push(`## Step ${i}\n\nWe change **file ${i}** so that \`f${i}()\` returns early when the input is empty.`);
		parts.push(`- first point ${i}\n- second point ${i}\n  continued`);
		parts.push(`\`\`\`ts\nfunction f${i}(x: string) {\n\n\treturn x;\n}\n\n// end ${i}\n\`\`\``);
	}
	return parts.join("\n\n");
}

describe("chunkStarts", () => {
	it("splits at a column-0 line after a blank line, never inside a fence or before an indented line", () => {
		const text = "a\n\nb\n\n```\nx\n\ny\n```\n\n  indented\n\nc";
		const starts = chunkStarts(text);
		expect(starts.map((s) => text.slice(s.at, s.at + 3))).toEqual(["b\n\n", "```", "c"]);
		expect(chunkStarts(text, starts[1]?.at)).toEqual(starts.slice(2));
	});

	it("splits a long code block every 400 lines, each part rendered after the block's opening line", () => {
		const code = Array.from({ length: 850 }, (_, i) => `const v${i} = ${i};`).join("\n");
		const text = `Here:\n\n\`\`\`ts\n${code}\n\`\`\`\n\nDone.`;
		const starts = chunkStarts(text);
		expect(starts.map((s) => s.fence)).toEqual([undefined, "```ts", "```ts", undefined]);
		expect(starts.slice(1, 3).map((s) => text.slice(s.at).split("\n", 1)[0])).toEqual([
			"const v400 = 400;",
			"const v800 = 800;",
		]);
		expect(chunkStarts(text, starts[1]?.at, starts[1]?.fence)).toEqual(starts.slice(2));
		// The split shows nowhere: the same rows as the block rendered whole, and no blank line between the parts.
		const rows = (lines: { spans: { text: string }[] }[]) => lines.map((l) => l.spans.map((s) => s.text).join(""));
		const whole = rows(replyChunkLines("k", text.slice(0, starts.at(-1)?.at), 0, 80, darkTheme));
		const parts = rows(replyLines("k", text, 80, darkTheme));
		expect(parts.slice(0, whole.length)).toEqual(whole);
		expect(parts.filter((r) => r.trim() === "")).toHaveLength(2);
	});
	it("prefers to split a long code block before a top-level line after a blank one, outside a docstring", () => {
		const fn = (i: number) => [`def f${i}():`, '    """Doc.', "", "    More doc.", '    """', "    return 1", ""];
		const code = Array.from({ length: 60 }, (_, i) => fn(i).join("\n")).join("\n");
		const text = `\`\`\`python\n${code}\n\`\`\``;
		const starts = chunkStarts(text);
		expect(starts.length).toBeGreaterThan(0);
		let previous = 1; // the line after the opening fence
		for (const start of starts) {
			expect(start.fence).toBe("```python");
			// Each part begins with a function: never inside a docstring (its blank line is followed by indented text).
			expect(text.slice(start.at).split("\n", 1)[0]).toMatch(/^def f\d+\(\):$/);
			const line = text.slice(0, start.at).split("\n").length - 1;
			expect(line - previous).toBeGreaterThanOrEqual(200);
			expect(line - previous).toBeLessThanOrEqual(400);
			previous = line;
		}
	});
});

describe("LineCache", () => {
	const item: ChatItem = { kind: "user", key: "u0", source: "prompt", text: "hello there" };

	it("returns the same lines for the same item, width, expansion and theme", () => {
		const cache = new LineCache(darkTheme);
		const first = cache.lines(item, 40, false);
		expect(cache.lines(item, 40, false)).toBe(first);
		expect(cache.lines(item, 30, false)).not.toBe(first);
		expect(cache.lines({ ...item }, 30, false)).toEqual(cache.lines(item, 30, false));
		const light: Theme = { ...darkTheme, name: "light", user: "#000000" };
		cache.setTheme(light);
		expect(cache.lines(item, 30, false)[0]?.spans[0]?.color).toBe("#000000");
	});

	it("renders a streaming reply in O(tail): a frame lexes only what follows the last finished block", () => {
		const full = longReply(60);
		const lexer = vi.spyOn(marked, "lexer");
		const cache = new LineCache(darkTheme);
		let text = "";
		let frames = 0;
		let maxLexed = 0;
		let totalLexed = 0;
		for (let at = 0; at < full.length; at += 25) {
			text = full.slice(0, at + 25);
			lexer.mockClear();
			const streaming: ChatItem = { kind: "text", key: "r1", text, streaming: true };
			const lines = cache.lines(streaming, 60, false);
			const lexed = lexer.mock.calls.reduce((sum, call) => sum + String(call[0]).length, 0);
			maxLexed = Math.max(maxLexed, lexed);
			totalLexed += lexed;
			frames++;
			if (frames % 50 === 0) expect(lines).toEqual(renderItem(streaming, 60, darkTheme, { expanded: false }));
		}
		// The largest block (a code fence) is ~70 characters; a frame lexes the tail plus at most one finished block.
		expect(full.length).toBeGreaterThan(11_000);
		expect(maxLexed).toBeLessThan(250);
		expect(totalLexed).toBeLessThan(frames * 250);
		// Re-rendering the whole reply per frame would lex ~frames × length / 2 characters.
		expect(totalLexed * 20).toBeLessThan((frames * full.length) / 2);

		lexer.mockClear();
		const done: ChatItem = { kind: "text", key: "r1", text: full, streaming: false };
		const final = cache.lines(done, 60, false);
		expect(lexer.mock.calls.reduce((sum, call) => sum + String(call[0]).length, 0)).toBeLessThan(250);
		expect(final).toEqual(renderItem(done, 60, darkTheme, { expanded: false }));
	});

	it("starts over when the width changes or the text is not a continuation", () => {
		const cache = new LineCache(darkTheme);
		const a: ChatItem = { kind: "text", key: "r2", text: "one\n\ntwo\n\nthree", streaming: true };
		cache.lines(a, 40, false);
		const narrow = { ...a };
		expect(cache.lines(narrow, 10, false)).toEqual(renderItem(a, 10, darkTheme, { expanded: false }));
		const other: ChatItem = { kind: "text", key: "r2", text: "uno\n\ndos", streaming: true };
		expect(cache.lines(other, 10, false)).toEqual(renderItem(other, 10, darkTheme, { expanded: false }));
	});
});
