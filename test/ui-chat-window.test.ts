import { beforeAll, describe, expect, it, vi } from "vitest";
import { LineCache } from "../src/ui/chat/line-cache.js";
import { loadMarkdown } from "../src/ui/chat/markdown.js";
import { renderItem } from "../src/ui/chat/render-item.js";
import { visibleLines } from "../src/ui/chat/window.js";
import { darkTheme } from "../src/ui/theme/theme.js";
import type { ChatItem, ToolItem } from "../src/view/state.js";

// Replies are markdown: the app loads marked and lowlight after its first frame; these tests need them loaded.
beforeAll(loadMarkdown);

const text = (lines: { spans: { text: string }[] }[]) => lines.map((l) => l.spans.map((s) => s.text).join(""));
const user = (i: number): ChatItem => ({ kind: "user", key: `i${i}`, source: "prompt", text: `message ${i}` });
const opts = (height: number, move = 0) => ({ width: 40, height, move, expanded: () => false });

describe("visibleLines", () => {
	it("renders only the items on screen, however many the chat holds", () => {
		const items = Array.from({ length: 10_000 }, (_, i) => user(i));
		const render = vi.fn(renderItem);
		const cache = new LineCache(darkTheme, render);
		const window = visibleLines(items, cache, opts(20));
		// Each item is one line plus a blank line between items: 10 items fill 20 rows.
		expect(render.mock.calls.length).toBeLessThanOrEqual(11);
		expect(window.lines).toHaveLength(20);
		expect(text(window.lines).slice(-3)).toEqual(["you › message 9998", "", "you › message 9999"]);
		expect(window.top).toBeNull();

		render.mockClear();
		visibleLines(items, cache, opts(20));
		expect(render).not.toHaveBeenCalled();

		const scrolled = visibleLines(items, cache, opts(20, 100));
		expect(render.mock.calls.length).toBeLessThanOrEqual(61);
		expect(text(scrolled.lines).at(-1)).toBe("you › message 9949");
		// Held at its top line: item 9940's block (the blank line above it, then its line).
		expect(scrolled.top).toEqual({ index: 9940, line: 0 });
	});

	it("ends at the anchor while scrolled up, touching no item after it", () => {
		const items = Array.from({ length: 10_000 }, (_, i) => user(i));
		const render = vi.fn(renderItem);
		const window = visibleLines(items, new LineCache(darkTheme, render), { ...opts(5), end: 100 });
		expect(text(window.lines)).toEqual(["you › message 97", "", "you › message 98", "", "you › message 99"]);
		// Those three, and the one above them (it decides the blank line above the top one).
		expect(render.mock.calls.map(([item]) => item.key)).toEqual(["i99", "i98", "i97", "i96"]);
	});

	it("stops a scroll at the top, and follows the chat again once a view reaches its last line", () => {
		const items = [user(0), user(1), user(2)];
		const cache = new LineCache(darkTheme);
		// The whole chat fits: nothing to scroll.
		expect(visibleLines(items, cache, opts(10, 50)).top).toBeNull();
		const past = visibleLines(items, cache, opts(3, 50));
		expect(past.top).toEqual({ index: 0, line: 0 });
		expect(text(past.lines)).toEqual(["you › message 0", "", "you › message 1"]);
		const down = visibleLines(items, cache, { ...opts(3, -1), top: past.top });
		expect(down.top).toEqual({ index: 1, line: 0 });
		expect(text(down.lines)).toEqual(["", "you › message 1", ""]);
		const bottom = visibleLines(items, cache, { ...opts(3, -1), top: down.top });
		expect(bottom.top).toBeNull();
		expect(text(bottom.lines)).toEqual(["you › message 1", "", "you › message 2"]);
		expect(new Set(visibleLines(items, cache, opts(10)).lines.map((l) => l.key)).size).toBe(5);
	});

	it("shows the chat from `top` down, touching only the items on screen, wherever they are", () => {
		const items = Array.from({ length: 10_000 }, (_, i) => user(i));
		const render = vi.fn(renderItem);
		const cache = new LineCache(darkTheme, render);
		const first = visibleLines(items, cache, { ...opts(5), top: { index: 0, line: 0 } });
		expect(text(first.lines)).toEqual(["you › message 0", "", "you › message 1", "", "you › message 2"]);
		expect(render.mock.calls.map(([item]) => item.key)).toEqual(["i0", "i1", "i2", "i3"]);
		render.mockClear();
		const middle = visibleLines(items, cache, { ...opts(5, 2), top: { index: 5000, line: 0 } });
		expect(text(middle.lines)).toEqual(["", "you › message 4999", "", "you › message 5000", ""]);
		expect(middle.top).toEqual({ index: 4999, line: 0 });
		expect(render.mock.calls.length).toBeLessThanOrEqual(5);
	});

	it("keeps runs of one-line tool calls together", () => {
		const read = (i: number): ToolItem => ({
			kind: "tool",
			key: `t${i}`,
			callId: `c${i}`,
			name: "read",
			argsText: "",
			args: { path: `f${i}.ts` },
			status: "done",
			content: "x",
			details: { kind: "read", path: `/r/f${i}.ts`, startLine: 1, endLine: 2, totalLines: 2, truncated: false },
		});
		const window = visibleLines([user(0), read(1), read(2)], new LineCache(darkTheme), opts(10));
		expect(text(window.lines)).toEqual([
			"you › message 0",
			"",
			"▸ read f1.ts  lines 1–2 of 2",
			"▸ read f2.ts  lines 1–2 of 2",
		]);
	});
});
