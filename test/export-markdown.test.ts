// gar export as Markdown (src/output/export/markdown.ts): the snapshot of a plain session, and a hostile session
// rendered by a renderer that passes raw HTML through (marked's default), whose HTML holds nothing from the session.
import { marked } from "marked";
import { describe, expect, it } from "vitest";
import { fenced, mdCode, mdPlain, mdText } from "../src/output/export/escape.js";
import { exportSession } from "../src/output/export/export-session.js";
import { exportMarkdown } from "../src/output/export/markdown-text.js";
import { sanitizeForTerminal } from "../src/term/sanitize.js";
import { tempDirsPerTest } from "./fixtures/session/run.js";
import { hostilePayloads, writeHostileSession, writePlainSession } from "./support/export-sessions.js";
import { attr, findAll, foreignMarkup, parseFragment, textOf } from "./support/html-check.js";

const tmp = tempDirsPerTest();

/** The Markdown as a naive renderer turns it into HTML (raw HTML kept), parsed as a browser would. */
function rendered(markdown: string) {
	return parseFragment(marked.parse(markdown, { async: false, gfm: true }));
}

describe("gar export --format md", () => {
	it("writes a session as Markdown (snapshot)", () => {
		const writer = writePlainSession(tmp());
		const { id } = writer.session.header;
		const md = exportSession(writer.session, "md")
			.replaceAll(id, "SESSION")
			.replaceAll(writer.session.leafId ?? "", "LEAF");
		expect(md).toMatchSnapshot();
	});

	it("shows tool calls as <details>, the diff as a diff block and each turn's usage and cost", () => {
		const writer = writePlainSession(tmp());
		const html = rendered(exportSession(writer.session, "md"));
		const summaries = findAll(html, "summary").map(textOf);
		expect(summaries).toEqual([
			"thinking",
			"bash npm test — exit 1 · 850 ms",
			"edit src/parse.js — +1 −1 · from line 2",
		]);
		const code = findAll(html, "code").map((c) => [c.attrs.find((a) => a.name === "class")?.value, textOf(c)]);
		expect(code).toContainEqual(["language-diff", expect.stringContaining('+  return s.split(" ");')]);
		expect(code).toContainEqual(["language-sh", "npm test\n"]);
		const turns = findAll(html, "sub").map(textOf);
		expect(turns.filter((t) => t.startsWith("turn "))).toHaveLength(3);
		expect(turns[0]).toBe("turn 1 · anthropic/claude-sonnet-4-5 · ↑22k ↓300 · cache r 20k w 800 · $0.012 · 1.0 s");
		expect(turns.at(-1)).toMatch(/^done · 3 turns · ↑66k ↓900/);
	});

	it("turns nothing from a hostile session into HTML, and shows all of it as text", () => {
		const writer = writeHostileSession(tmp());
		const md = exportSession(writer.session, "md");
		// biome-ignore lint/suspicious/noControlCharactersInRegex: no control character of the session's is left.
		expect(md).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
		const html = rendered(md);
		expect(foreignMarkup(html)).toEqual([]);
		const text = textOf(html);
		// Terminal controls from the session show as the app shows them: the file is safe to cat, too.
		expect(text).toContain("␛]0;pwned^G␛[2J ⟨U+202E⟩evil");
		for (let n = 1; n <= 24; n++) expect(text, `alert(${n}) shown as text`).toContain(`alert(${n})`);
		// The model's link to a web page stays a link (and GFM links bare web addresses in text: harmless).
		const hrefs = findAll(html, "a").map((a) => attr(a, "href"));
		expect(hrefs).toContain("https://example.com/a");
		expect(hrefs.filter((h) => !/^https?:/.test(h ?? ""))).toEqual([]);
	});

	it("fences output holding backticks with a longer fence, so it cannot close the block", () => {
		const writer = writeHostileSession(tmp());
		const html = rendered(exportSession(writer.session, "md"));
		const output = hostilePayloads("http://127.0.0.1:9").output;
		const blocks = findAll(html, "code").map(textOf);
		expect(blocks).toContain(`${sanitizeForTerminal(output)}\n`);
	});
});

describe("markdown escaping", () => {
	it("keeps text as text: no HTML, links, emphasis or block syntax", () => {
		const text = "# not a heading\n- not a list\n1. nor this\n> nor a quote\n<b>x</b> *y* _z_ [a](b) `c` a|b ~d~ &amp;";
		const html = rendered(mdPlain(text));
		expect(findAll(html, "p")).toHaveLength(1);
		expect(textOf(html).trim()).toBe(text);
		expect(textOf(rendered(mdText("AT&T <3 [x]"))).trim()).toBe("AT&T <3 [x]");
	});

	it("makes code spans and fences longer than the backticks inside", () => {
		expect(mdCode("a `b` c")).toBe("``a `b` c``");
		expect(mdCode("`x`")).toBe("`` `x` ``");
		expect(fenced("a\n````\nb", "sh")).toBe("`````sh\na\n````\nb\n`````");
		expect(fenced("x", "evil\nlang")).toBe("```\nx\n```");
	});

	it("rebuilds the model's markdown with its structure and without its markup", () => {
		const source = "## Plan\n\n1. read\n2. **fix** `a<b>`\n\n| k | v |\n|---|--:|\n| `a\\|b` | 2 |\n\n<div>raw</div>";
		const html = rendered(exportMarkdown(source));
		expect(findAll(html, "h2")).toHaveLength(1);
		expect(findAll(html, "li").map(textOf)).toEqual(["read", "fix a<b>"]);
		expect(findAll(html, "td").map(textOf)).toEqual(["a|b", "2"]);
		expect(findAll(html, "div")).toHaveLength(0);
		expect(textOf(html)).toContain("<div>raw</div>");
	});
});
