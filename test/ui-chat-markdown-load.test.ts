import { describe, expect, it } from "vitest";
import { loadMarkdown, renderMarkdown } from "../src/ui/chat/markdown.js";
import { darkTheme } from "../src/ui/theme/theme.js";

const rowText = (rows: { text: string }[][]) => rows.map((row) => row.map((span) => span.text).join(""));

describe("markdown loads after the first frame", () => {
	it("shows a reply as plain wrapped text until marked is loaded, then as markdown", async () => {
		const text = "# Title\n\nSome **bold** words";
		expect(rowText(renderMarkdown(text, 40, darkTheme))).toEqual(["# Title", "", "Some **bold** words"]);
		await loadMarkdown();
		const rows = rowText(renderMarkdown(text, 40, darkTheme));
		expect(rows).toContain("Some bold words");
		expect(rows.join("\n")).not.toContain("**");
	});
});
