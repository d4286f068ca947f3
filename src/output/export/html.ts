import { hookLine } from "../../view/hook-line.js";
import type { ChatItem, ToolItem } from "../../view/state.js";
import { runLine } from "../transcript.js";
import type { ExportDocument, ExportPart } from "./document.js";
import { escapeHtml } from "./escape.js";
import { exportHtml } from "./html-text.js";
import { compactionLine, metaLines, SOURCE_LABEL, toolBody, toolHead, turnLine } from "./parts.js";
import { PAGE_STYLE } from "./style.js";

/**
 * A session's path as one self-contained HTML page: no script, no request (its Content-Security-Policy forbids both,
 * and it links nothing), light or dark by `prefers-color-scheme`, tool calls collapsible (`<details>`), diffs
 * coloured, each turn's usage and cost. Every text from the session is escaped; the only elements and attributes are
 * gar's own.
 */
export function renderHtml(doc: ExportDocument): string {
	const meta = metaLines(doc)
		.map(([k, v]) => `<div><dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd></div>`)
		.join("");
	const body = doc.parts.map(render).join("\n");
	return [
		"<!doctype html>",
		'<html lang="en">',
		"<head>",
		'<meta charset="utf-8">',
		`<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
		'<meta name="viewport" content="width=device-width, initial-scale=1">',
		'<meta name="color-scheme" content="light dark">',
		`<meta name="generator" content="gar">`,
		`<title>${escapeHtml(doc.title)}</title>`,
		`<style>${PAGE_STYLE}</style>`,
		"</head>",
		"<body>",
		`<header><h1>${escapeHtml(doc.title)}</h1><dl class="meta">${meta}</dl></header>`,
		`<main>\n${body}\n</main>`,
		"</body>",
		"</html>",
		"",
	].join("\n");
}

/** Nothing may load or run: styles only from the page itself. */
const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; form-action 'none'; base-uri 'none'";

function render(part: ExportPart): string {
	if (part.kind === "turn") return `<p class="turn">${escapeHtml(turnLine(part))}</p>`;
	const { item } = part;
	switch (item.kind) {
		case "user":
			return user(item);
		case "text":
			return `<div class="reply">${exportHtml(item.text)}</div>`;
		case "thinking":
			return `<details class="thinking"><summary>thinking</summary><div class="plain">${escapeHtml(item.text)}</div></details>`;
		case "tool":
			return tool(item);
		case "compaction": {
			const line = escapeHtml(compactionLine(item));
			if (part.summary === undefined) return `<p class="compaction">${line}</p>`;
			return `<details class="compaction"><summary>${line}</summary><pre class="output">${escapeHtml(part.summary)}</pre></details>`;
		}
		case "run_end":
			return `<p class="run-end run-${escapeHtml(item.stopReason)}">${escapeHtml(runLine(item))}</p>`;
		case "error":
			return `<p class="error">error: ${escapeHtml(item.message)}</p>`;
		case "notice":
			return `<p class="notice notice-${escapeHtml(item.level)}">${escapeHtml(item.message)}</p>`;
		case "retry":
			return `<p class="notice">retry ${item.attempt}/${item.maxAttempts}: ${escapeHtml(item.reason)}</p>`;
		case "hook":
			return `<p class="hook">${escapeHtml(hookLine(item.run))}</p>`;
	}
}

function user(item: Extract<ChatItem, { kind: "user" }>): string {
	const label = SOURCE_LABEL[item.source] ?? "";
	const who = `you${label ? ` <span class="source">(${escapeHtml(label)})</span>` : ""}`;
	const text = item.source === "shell" ? `<pre class="output">${escapeHtml(item.text)}</pre>` : escapeHtml(item.text);
	return `<section class="user"><h2>${who}</h2><div class="plain">${text}</div></section>`;
}

function tool(item: ToolItem): string {
	const head = toolHead(item);
	const body = toolBody(item);
	const parts: string[] = [];
	if (body.command !== undefined) parts.push(`<pre class="command">${escapeHtml(body.command)}</pre>`);
	if (body.args !== undefined) parts.push(`<pre class="args">${escapeHtml(body.args)}</pre>`);
	if (body.diff !== undefined) parts.push(diff(body.diff));
	if (body.diffCut) parts.push('<p class="note">the diff was cut at the size limit</p>');
	if (body.output !== undefined) parts.push(`<pre class="output">${escapeHtml(body.output)}</pre>`);
	if (body.hooks)
		parts.push(`<ul class="hooks">${body.hooks.map((line) => `<li>${escapeHtml(line)}</li>`).join("")}</ul>`);
	const status = escapeHtml(item.status);
	const summary = [
		`<span class="tool-name">${escapeHtml(head.name)}</span>`,
		`<code class="target">${escapeHtml(head.target)}</code>`,
		`<span class="outcome">${escapeHtml(head.outcome)}</span>`,
	].join(" ");
	const inside = parts.join("") || '<p class="note">no output</p>';
	return `<details class="tool status-${status}"><summary>${summary}</summary>${inside}</details>`;
}

/** A unified diff, each line coloured by its first character. O(diff). */
function diff(text: string): string {
	const lines = text.replace(/\n$/, "").split("\n");
	const rows = lines.map((line) => {
		const kind = line.startsWith("+++") || line.startsWith("---") ? "file" : (CLASS[line.charAt(0)] ?? "context");
		// Each line is a block (its colour spans the row); an empty one keeps its height with a space.
		return `<span class="${kind}">${line === "" ? " " : escapeHtml(line)}</span>`;
	});
	return `<pre class="diff">${rows.join("")}</pre>`;
}

const CLASS: Readonly<Record<string, string>> = { "+": "added", "-": "removed", "@": "hunk", "\\": "note" };
