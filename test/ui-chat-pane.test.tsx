import { render } from "ink-testing-library";
import { beforeAll, describe, expect, it } from "vitest";
import { ChatPane } from "../src/ui/chat/ChatPane.js";
import { LineCache } from "../src/ui/chat/line-cache.js";
import { loadMarkdown } from "../src/ui/chat/markdown.js";
import { visibleLines } from "../src/ui/chat/window.js";
import { darkTheme } from "../src/ui/theme/theme.js";
import type { ChatItem } from "../src/view/state.js";

// Replies are markdown: the app loads marked and lowlight after its first frame; these tests need them loaded.
beforeAll(loadMarkdown);

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("ChatPane", () => {
	it("draws one row per line, padded to exactly `height` rows", () => {
		const items: ChatItem[] = [
			{ kind: "user", key: "i0", source: "prompt", text: "show me 日本語 and 👍 \x1b[2J" },
			{ kind: "text", key: "i1", streaming: false, text: "# Done\n\n- one `x`\n- two" },
		];
		const { lines } = visibleLines(items, new LineCache(darkTheme), {
			width: 30,
			height: 10,
			expanded: () => false,
		});
		const { lastFrame, unmount } = render(<ChatPane lines={lines} width={30} height={10} />);
		expect(lastFrame()?.split("\n")).toEqual([
			"you › show me 日本語 and 👍",
			"      ␛[2J",
			"",
			"● Done",
			"",
			"  • one x",
			"  • two",
			"",
			"",
			"",
		]);
		unmount();
	});

	it("shows the last `height` lines when given more, and redraws when the lines change", async () => {
		const make = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `k${i}`, spans: [{ text: `row ${i}` }] }));
		const { lastFrame, rerender, unmount } = render(<ChatPane lines={make(5)} width={20} height={3} />);
		expect(lastFrame()).toBe("row 2\nrow 3\nrow 4");
		rerender(<ChatPane lines={make(6)} width={20} height={3} />);
		await tick();
		expect(lastFrame()).toBe("row 3\nrow 4\nrow 5");
		unmount();
	});
});
