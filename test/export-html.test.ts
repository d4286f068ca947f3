// gar export as HTML (src/output/export/html.ts), read with parse5 (the HTML standard's parser): the page's structure,
// and a hostile session whose page holds no element or attribute from the session. Where the machine has Chromium, a
// test opens the hostile page (also with its Content-Security-Policy taken out) and checks that nothing ran or loaded.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { exportSession } from "../src/output/export/export-session.js";
import { tempDirsPerTest } from "./fixtures/session/run.js";
import { writeHostileSession, writePlainSession } from "./support/export-sessions.js";
import { attr, findAll, foreignMarkup, parse, textOf } from "./support/html-check.js";

const tmp = tempDirsPerTest();

describe("gar export --format html", () => {
	it("is one self-contained page: a style, no script, a policy that forbids loading and running anything", () => {
		const page = exportSession(writePlainSession(tmp()).session, "html");
		expect(page.startsWith("<!doctype html>\n")).toBe(true);
		const doc = parse(page);
		expect(findAll(doc, "script")).toEqual([]);
		const styles = findAll(doc, "style");
		expect(styles).toHaveLength(1);
		const css = textOf(styles[0] as never);
		expect(css).toContain("@media (prefers-color-scheme: dark)");
		expect(css).not.toMatch(/url\(|@import/);
		const csp = findAll(doc, "meta").find((m) => attr(m, "http-equiv") === "Content-Security-Policy");
		expect(attr(csp as never, "content")).toMatch(/^default-src 'none'; style-src 'unsafe-inline'/);
		// Nothing on the page names another resource.
		for (const tag of ["link", "img", "iframe", "object", "embed", "base", "form"])
			expect(findAll(doc, tag)).toEqual([]);
		expect(foreignMarkup(doc)).toEqual([]);
	});

	it("shows prompts, replies, collapsible tool calls with coloured diffs, and usage and cost per turn", () => {
		const doc = parse(exportSession(writePlainSession(tmp()).session, "html"));
		expect(textOf(findAll(doc, "h1")[0] as never)).toBe("fix the parser");
		expect(findAll(doc, "section", "user").map(textOf)).toEqual(["youThe tests fail.\nFind the bug and fix it."]);
		const tools = findAll(doc, "details", "tool");
		expect(tools.map((t) => textOf(findAll(t, "summary")[0] as never))).toEqual([
			"bash npm test exit 1 · 850 ms",
			"edit src/parse.js +1 −1 · from line 2",
		]);
		expect(tools.map((t) => attr(t, "class"))).toEqual(["tool status-error", "tool status-done"]);
		const [bash, edit] = tools;
		expect(findAll(bash as never, "pre", "command").map(textOf)).toEqual(["npm test"]);
		expect(findAll(bash as never, "pre", "output").map(textOf)).toEqual([
			"FAIL parse.test.js\n  expected 3, got 2\n\n[Exit code 1]",
		]);
		expect(findAll(edit as never, "span", "removed").map(textOf)).toEqual(['-  return s.split(" ").slice(0, -1);']);
		expect(findAll(edit as never, "span", "added").map(textOf)).toEqual(['+  return s.split(" ");']);
		expect(findAll(doc, "details", "thinking").map(textOf)).toEqual(["thinkingRun the tests first."]);
		const turns = findAll(doc, "p", "turn").map(textOf);
		expect(turns).toEqual([
			"turn 1 · anthropic/claude-sonnet-4-5 · ↑22k ↓300 · cache r 20k w 800 · $0.012 · 1.0 s",
			"turn 2 · anthropic/claude-sonnet-4-5 · ↑22k ↓300 · cache r 20k w 800 · $0.020 · 1.0 s",
			"turn 3 · anthropic/claude-sonnet-4-5 · ↑22k ↓300 · cache r 20k w 800 · $0.010 · 1.0 s",
		]);
		expect(findAll(doc, "p", "run-end").map(textOf)).toEqual([
			"done · 3 turns · ↑66k ↓900 · cache r 60k w 2.4k · $0.042 · 5.0 s",
		]);
		// The model's markdown keeps its structure: a list, code spans, a code block.
		const reply = findAll(doc, "div", "reply").at(-1);
		expect(findAll(reply as never, "li").map(textOf)).toEqual(["src/parse.js: no more slice(0, -1)", "tests: pass"]);
		expect(findAll(reply as never, "pre", "code").map(textOf)).toEqual(['parse("a b c"); // ["a", "b", "c"]']);
	});

	it("holds no element or attribute from a hostile session, and shows every payload as text", () => {
		const writer = writeHostileSession(tmp());
		const doc = parse(exportSession(writer.session, "html"));
		expect(foreignMarkup(doc)).toEqual([]);
		expect(findAll(doc, "script")).toEqual([]);
		expect(findAll(doc, "style")).toHaveLength(1);
		const text = textOf(findAll(doc, "body")[0] as never);
		// Terminal controls from the session show as the app shows them: the file is safe to cat, too.
		expect(text).toContain("␛]0;pwned^G␛[2J ⟨U+202E⟩evil");
		for (let n = 1; n <= 24; n++) expect(text, `alert(${n}) shown as text`).toContain(`alert(${n})`);
		expect(textOf(findAll(doc, "title")[0] as never)).toContain("<script>");
		// Links: the model's links to web pages (GFM links bare web addresses too); javascript: ones are text.
		const hrefs = findAll(doc, "a").map((a) => attr(a, "href"));
		expect(hrefs).toContain("https://example.com/a");
		expect(hrefs.filter((h) => !/^https?:\/\//.test(h ?? ""))).toEqual([]);
		expect(findAll(doc, "a").every((a) => attr(a, "rel") === "noopener noreferrer")).toBe(true);
		// Each tool call is still one <details>: a `</details>` in a command, an output or a diff closed none.
		expect(findAll(doc, "details", "tool")).toHaveLength(3);
		expect(findAll(doc, "main")[0]?.childNodes.filter((n) => "tagName" in n).length).toBeGreaterThan(5);
	});
});

/** Debian's chromium, or another Chromium on PATH; null where there is none (CI may lack one). */
function findChromium(): string | null {
	for (const name of ["chromium", "chromium-browser", "google-chrome"]) {
		const found = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" });
		const path = found.stdout.trim();
		if (found.status === 0 && path && existsSync(path)) return path;
	}
	return null;
}

const chromium = findChromium();

describe.skipIf(chromium === null)("an exported page in a headless browser", () => {
	it("runs nothing and loads nothing, even with its Content-Security-Policy taken out", async () => {
		const requests: string[] = [];
		const server = createServer((req, res) => {
			requests.push(req.url ?? "");
			res.end("");
		});
		await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
		const beacon = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
		try {
			const dir = tmp();
			const page = exportSession(writeHostileSession(tmp(), beacon).session, "html");
			const bare = page.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, "");
			expect(bare).not.toBe(page);
			for (const [name, html] of [
				["page.html", page],
				["bare.html", bare],
			] as const) {
				const file = join(dir, name);
				writeFileSync(file, html);
				const dom = execFileSync(
					chromium as string,
					[
						"--headless",
						"--no-sandbox",
						"--disable-gpu",
						"--no-first-run",
						`--user-data-dir=${join(dir, `profile-${name}`)}`,
						"--virtual-time-budget=3000",
						"--dump-dom",
						`file://${file}`,
					],
					{ encoding: "utf8", timeout: 60_000, stdio: ["ignore", "pipe", "ignore"] },
				);
				// The browser's DOM after load: the page as written, no attribute set by a script.
				expect(dom, name).toContain("alert(5)");
				expect(/<html[^>]*>/.exec(dom)?.[0], name).toBe('<html lang="en">');
			}
			expect(requests).toEqual([]);
		} finally {
			server.close();
		}
	}, 120_000);
});
