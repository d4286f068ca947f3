import { beforeAll, describe, expect, it, vi } from "vitest";
import { LineCache } from "../src/ui/chat/line-cache.js";
import { loadMarkdown } from "../src/ui/chat/markdown.js";
import { renderItem } from "../src/ui/chat/render-item.js";
import { visibleLines } from "../src/ui/chat/window.js";
import { darkTheme } from "../src/ui/theme.js";
import type { ChatItem, ToolItem } from "../src/view/state.js";

// Replies are markdown: the app loads marked and lowlight after its first frame; these tests need them loaded.
beforeAll(loadMarkdown);

const text = (lines: { spans: { text: string }[] }[]) => lines.map((l) => l.spans.map((s) => s.text).join(""));
const user = (i: number): ChatItem => ({ kind: "user", key: `i${i}`, source: "prompt", text: `message ${i}` });
const opts = (height: number, scroll = 0) => ({ width: 40, height, scroll, expanded: () => false });

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
		expect(window).toMatchObject({ hiddenBelow: 0, atTop: false });

		render.mockClear();
		visibleLines(items, cache, opts(20));
		expect(render).not.toHaveBeenCalled();

		const scrolled = visibleLines(items, cache, opts(20, 100));
		expect(render.mock.calls.length).toBeLessThanOrEqual(61);
		expect(text(scrolled.lines).at(-1)).toBe("you › message 9949");
		expect(scrolled.hiddenBelow).toBe(100);
	});

	it("ends at the anchor while scrolled up, touching no item after it", () => {
		const items = Array.from({ length: 10_000 }, (_, i) => user(i));
		const render = vi.fn(renderItem);
		const window = visibleLines(items, new LineCache(darkTheme, render), { ...opts(5), end: 100 });
		expect(text(window.lines)).toEqual(["you › message 97", "", "you › message 98", "", "you › message 99"]);
		expect(render.mock.calls.map(([item]) => item.key)).toEqual(["i99", "i98", "i97"]);
	});

	it("clamps a scroll past the top and says the top is shown", () => {
		const items = [user(0), user(1), user(2)];
		const cache = new LineCache(darkTheme);
		expect(visibleLines(items, cache, opts(10))).toMatchObject({ hiddenBelow: 0, atTop: true });
		const past = visibleLines(items, cache, opts(3, 50));
		expect(past).toMatchObject({ hiddenBelow: 2, atTop: true });
		expect(text(past.lines)).toEqual(["you › message 0", "", "you › message 1"]);
		expect(new Set(visibleLines(items, cache, opts(10)).lines.map((l) => l.key)).size).toBe(5);
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
