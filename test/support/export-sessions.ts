// Sessions for the export tests, written by the real writer: a plain one (the Markdown snapshot) and a hostile one,
// whose prompt, model text, thinking, command, output, file contents, paths, diff and name all try to become markup.
import type { AssistantMessage } from "../../src/llm/types.js";
import type { HookRecordEntry } from "../../src/session/format.js";
import { SessionWriter } from "../../src/session/writer.js";
import type { ToolDetails } from "../../src/tools/types.js";
import { fakeClock } from "../fixtures/session/run.js";

const usage = { input: 1200, output: 300, cacheRead: 20_000, cacheWrite: 800 };

function reply(content: AssistantMessage["content"], stop: AssistantMessage["stopReason"] = "tool_use") {
	return {
		role: "assistant",
		content,
		provider: "anthropic",
		model: "claude-sonnet-4-5",
		usage,
		stopReason: stop,
	} as const;
}

function bash(command: string, exitCode: number): ToolDetails {
	return {
		kind: "bash",
		command,
		cwd: "/home/me/app",
		exitCode,
		signal: null,
		durationMs: 850,
		timedOut: false,
		aborted: false,
		truncated: false,
		totalLines: 3,
		totalBytes: 40,
	};
}

function edit(path: string, diff: string): ToolDetails {
	return {
		kind: "edit",
		path,
		diff,
		oldHash: "0".repeat(64),
		newHash: "1".repeat(64),
		undo: "patch",
		firstChangedLine: 2,
		matchLevels: ["exact"],
		added: 1,
		removed: 1,
	};
}

/** A small session with a prompt, thinking, a command, a read, an edit with its diff and a markdown answer. */
export function writePlainSession(dir: string, cwd = "/home/me/app"): SessionWriter {
	const w = SessionWriter.create({ dir, cwd, now: fakeClock() });
	w.setName("fix the parser");
	w.appendUser("The tests fail.\nFind the bug and fix it.");
	w.appendAssistant(
		reply([
			{ type: "thinking", thinking: "Run the tests first." },
			{ type: "text", text: "Let me run the tests." },
			{ type: "tool_call", id: "c1", name: "bash", arguments: { command: "npm test" } },
		]),
		0.0123,
	);
	w.appendToolResult({
		callId: "c1",
		name: "bash",
		content: "FAIL parse.test.js\n  expected 3, got 2\n\n[Exit code 1]",
		details: bash("npm test", 1),
		isError: true,
		durationMs: 850,
	});
	w.appendAssistant(
		reply([
			{ type: "text", text: "The parser drops the last token. Fixing `parse`:" },
			{ type: "tool_call", id: "c2", name: "edit", arguments: { path: "src/parse.js", edits: [] } },
		]),
		0.02,
	);
	const diff =
		'--- src/parse.js\n+++ src/parse.js\n@@ -1,3 +1,3 @@\n function parse(s) {\n-  return s.split(" ").slice(0, -1);\n+  return s.split(" ");\n }\n';
	w.appendToolResult({
		callId: "c2",
		name: "edit",
		content: "Edited src/parse.js",
		details: edit("/home/me/app/src/parse.js", diff),
		isError: false,
		durationMs: 3,
	});
	const answer = [
		"Fixed. **The bug:** `parse` cut the last token.",
		"",
		"- `src/parse.js`: no more `slice(0, -1)`",
		"- tests: pass",
		"",
		"```js",
		'parse("a b c"); // ["a", "b", "c"]',
		"```",
	].join("\n");
	w.appendAssistant(reply([{ type: "text", text: answer }], "stop"), 0.01);
	w.close();
	return w;
}

/**
 * The payloads: each one, should it ever become markup, would run script (`alert(N)`), load something from
 * `beacon` (a server the browser test watches) or set `data-pwned` on the page. An export must show each as text.
 */
export function hostilePayloads(beacon: string) {
	const pwn = "document.documentElement.setAttribute('data-pwned','1')";
	return {
		name: `<script>${pwn};alert(1)</script>`,
		prompt: `Fix <img src="${beacon}/prompt" onerror="${pwn};alert(2)"> now </details> [x](javascript:alert(3))`,
		thinking: `<script>${pwn};alert(4)</script></details>`,
		answer: [
			`Here is <script>${pwn};alert(5)</script> and <img src="${beacon}/answer" onerror="${pwn};alert(6)">.`,
			`[click](javascript:alert(7)) [ok](https://example.com/a) <javascript:alert(8)> [enc](javascript&#58;alert(9))`,
			`![pic](${beacon}/image.png) <a href="javascript:alert(10)">a</a> <iframe src="${beacon}/frame"></iframe>`,
			"",
			`<details open><summary>injected</summary><script>${pwn};alert(11)</script></details>`,
			"",
			"| a | b |",
			"|---|---|",
			`| \`x|<img src="${beacon}/cell" onerror="${pwn};alert(12)">\` | y |`,
			"",
			"[ref]: javascript:alert(13)",
			"",
			`[use][ref] and <style>body{background:url(${beacon}/style)}</style>`,
			"",
			"~~~html",
			`</details><script>${pwn};alert(14)</script>`,
			"```",
			"~~~",
		].join("\n"),
		command: `echo '</details><script>${pwn};alert(15)</script>'`,
		output: [
			"```",
			"</details>",
			`<script>${pwn};alert(16)</script>`,
			`<img src="${beacon}/output" onerror="${pwn};alert(17)">`,
			"````",
			"</pre></code>",
			"\x1b]0;pwned\x07\x1b[2J \u202eevil",
		].join("\n"),
		path: `<img src="${beacon}/path" onerror="${pwn};alert(18)">.txt`,
		file: `<html><body onload="${pwn};alert(19)"><script>${pwn};alert(20)</script></body></html>\n\`\`\`\`\`\n`,
		diff: `--- a.html\n+++ a.html\n@@ -1 +1 @@\n-<p>old</p>\n+</details><script>${pwn};alert(21)</script>\n`,
		error: `<script>${pwn};alert(22)</script>`,
		hookReason: `<script>${pwn};alert(23)</script></details>`,
		hookName: `<img src="${beacon}/hook" onerror="${pwn};alert(24)">`,
	};
}

/** A session whose every piece of text from the model, the tools and the person is hostile (see hostilePayloads). */
export function writeHostileSession(dir: string, beacon = "http://127.0.0.1:9"): SessionWriter {
	const p = hostilePayloads(beacon);
	const w = SessionWriter.create({ dir, cwd: "/home/me/<b>app</b>", now: fakeClock() });
	w.setName(p.name);
	w.appendUser(p.prompt);
	w.appendAssistant(
		reply([
			{ type: "thinking", thinking: p.thinking },
			{ type: "text", text: p.answer },
			{ type: "tool_call", id: "h1", name: "bash", arguments: { command: p.command } },
		]),
		0.01,
	);
	w.appendRecord<HookRecordEntry>({
		type: "hook",
		event: "PreToolUse",
		name: p.hookName,
		command: "./guard.sh",
		source: "project",
		callId: "h1",
		tool: "bash",
		status: "ok",
		exitCode: 0,
		durationMs: 12,
		decision: "allow",
		reason: p.hookReason,
	});
	w.appendToolResult({
		callId: "h1",
		name: "bash",
		content: p.output,
		details: bash(p.command, 0),
		isError: false,
		durationMs: 850,
	});
	w.appendAssistant(reply([{ type: "tool_call", id: "h2", name: "read", arguments: { path: p.path } }]), 0.01);
	w.appendToolResult({ callId: "h2", name: "read", content: p.file, details: null, isError: false, durationMs: 2 });
	w.appendAssistant(reply([{ type: "tool_call", id: "h3", name: "edit", arguments: { path: "a.html" } }]), 0.01);
	w.appendToolResult({
		callId: "h3",
		name: "edit",
		content: "Edited a.html",
		details: edit("/home/me/a.html", p.diff),
		isError: false,
		durationMs: 2,
	});
	w.appendAssistant({ ...reply([], "error"), error: p.error }, 0.01);
	w.close();
	return w;
}
