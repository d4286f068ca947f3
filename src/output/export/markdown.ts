import { hookLine } from "../../view/hook-line.js";
import type { ChatItem, ToolItem } from "../../view/state.js";
import { runLine } from "../transcript.js";
import type { ExportDocument, ExportPart } from "./document.js";
import { escapeHtml, fenced, mdPlain, mdText } from "./escape.js";
import { exportMarkdown } from "./markdown-text.js";
import { compactionLine, metaLines, SOURCE_LABEL, toolBody, toolHead, turnLine } from "./parts.js";

/**
 * A session's path as Markdown (GitHub's flavour): each prompt and reply under its speaker, the model's markdown
 * rebuilt with its text escaped, each tool call a collapsible `<details>` (the command, the diff as a `diff` block,
 * the output fenced), each turn's usage and cost, each run's summary. Nothing from the session becomes markup: text
 * is escaped, and code sits in fences longer than any run of backticks in it.
 */
export function renderMarkdown(doc: ExportDocument): string {
	const out: string[] = [
		`# ${mdText(doc.title)}`,
		metaLines(doc)
			.map(([k, v]) => `- ${k}: ${mdText(v)}`)
			.join("\n"),
	];
	let speaker: "you" | "gar" | null = null;
	for (const part of doc.parts) {
		const who = part.kind === "item" && part.item.kind === "user" ? "you" : "gar";
		if (who === "gar" && speaker !== "gar" && opensReply(part)) {
			out.push("## gar");
			speaker = "gar";
		}
		if (who === "you") speaker = "you";
		const text = render(part);
		if (text !== "") out.push(text);
	}
	return `${out.join("\n\n")}\n`;
}

/** Whether a part is the model's (a reply's text, thinking or call) and so opens the reply's heading. */
function opensReply(part: ExportPart): boolean {
	return part.kind === "item" && ["text", "thinking", "tool"].includes(part.item.kind);
}

/** A one-line caption in small print; `text` is session text (a model id, an error), escaped for markdown. */
const small = (text: string) => `<sub>${mdText(text)}</sub>`;

function render(part: ExportPart): string {
	if (part.kind === "turn") return small(turnLine(part));
	const { item } = part;
	switch (item.kind) {
		case "user":
			return user(item);
		case "text":
			return exportMarkdown(item.text);
		case "thinking":
			return details("thinking", mdPlain(item.text));
		case "tool":
			return tool(item);
		case "compaction":
			return part.summary === undefined
				? `> ${mdText(compactionLine(item))}`
				: details(compactionLine(item), fenced(part.summary, "text"));
		case "run_end":
			return small(runLine(item));
		case "error":
			return `> **error:** ${mdText(item.message)}`;
		case "notice":
			return `> **${item.level}:** ${mdText(item.message)}`;
		case "retry":
			return `> retry ${item.attempt}/${item.maxAttempts}: ${mdText(item.reason)}`;
		case "hook":
			return `> ${mdText(hookLine(item.run))}`;
	}
}

function user(item: Extract<ChatItem, { kind: "user" }>): string {
	const label = SOURCE_LABEL[item.source] ?? "";
	const heading = `## You${label ? ` (${label})` : ""}`;
	// A `!command` and its output are what the terminal showed: fenced.
	const body = item.source === "shell" ? fenced(item.text, "text") : mdPlain(item.text);
	return `${heading}\n\n${body}`;
}

/** A collapsible block: `summary` is plain text (escaped here for HTML), `body` markdown already made safe. */
function details(summary: string, body: string): string {
	// The summary line sits inside an HTML block: one line, entities only (a blank line would end the block).
	const line = escapeHtml(summary.replace(/\s*\n\s*/g, " "));
	return `<details>\n<summary>${line}</summary>\n\n${body}\n\n</details>`;
}

function tool(item: ToolItem): string {
	const head = toolHead(item);
	const summary = `${head.name} ${head.target} — ${head.outcome}`;
	const body = toolBody(item);
	const blocks: string[] = [];
	if (body.command !== undefined) blocks.push(fenced(body.command, "sh"));
	if (body.args !== undefined) blocks.push(fenced(body.args, "json"));
	if (body.diff !== undefined) blocks.push(fenced(body.diff, "diff"));
	if (body.diffCut) blocks.push("*the diff was cut at the size limit*");
	if (body.output !== undefined) blocks.push(fenced(body.output, "text"));
	if (body.hooks) blocks.push(body.hooks.map((line) => `- ${mdText(line)}`).join("\n"));
	return details(summary, blocks.join("\n\n") || "*no output*");
}
