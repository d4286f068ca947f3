import type { AssistantEntry, NodeEntry } from "../../session/index.js";
import { formatTokens } from "../../view/format.js";
import type { TreeRow } from "./tree-build.js";

/** A row's text is cut here before it is measured: a prompt's first line may be a whole pasted file. */
const MAX_CHARS = 240;

/** The first line of `text` that says something, whitespace collapsed, at most MAX_CHARS characters. */
export function firstLine(text: string): string {
	let line = "";
	for (let start = 0; start < text.length && line === ""; ) {
		const end = text.indexOf("\n", start);
		line = text.slice(start, end === -1 ? start + MAX_CHARS * 4 : Math.min(end, start + MAX_CHARS * 4)).trim();
		start = end === -1 ? text.length : end + 1;
	}
	const flat = line.replace(/\s+/g, " ");
	return flat.length > MAX_CHARS ? `${flat.slice(0, MAX_CHARS - 1)}…` : flat;
}

/** The text blocks of a reply, joined. Block types of a newer gar are skipped. */
function replyText(entry: AssistantEntry): string {
	let text = "";
	for (const block of entry.content) if (block.type === "text" && "text" in block) text += block.text;
	return text;
}

/** "read 2 · edit 1 · bash 1": the tool calls of a reply's steps, by name in the order first called. */
export function toolCounts(nodes: readonly NodeEntry[]): string {
	const counts = new Map<string, number>();
	for (const node of nodes) {
		if (node.type !== "assistant") continue;
		for (const block of node.content) {
			if (block.type === "tool_call" && "name" in block) counts.set(block.name, (counts.get(block.name) ?? 0) + 1);
		}
	}
	return [...counts].map(([name, n]) => `${name} ${n}`).join(" · ");
}

/** What a reply said, in one line: its last words, else its first; an error or a stop says so. */
function replySummary(nodes: readonly NodeEntry[]): string {
	const replies = nodes.filter((n): n is AssistantEntry => n.type === "assistant");
	const last = replies.at(-1);
	const said = firstLine(last ? replyText(last) : "") || firstLine(replies.map(replyText).join("\n"));
	const ending = last?.error
		? `error: ${firstLine(last.error)}`
		: last?.stopReason === "aborted"
			? "(stopped)"
			: last?.stopReason === "length"
				? "(cut at the output limit)"
				: "";
	const tools = toolCounts(nodes);
	const parts = [said, ending, tools].filter((part) => part !== "");
	if (parts.length > 0) return parts.join(" · ");
	return nodes.every((n) => n.type === "tool_result") ? "tool results" : "(no text)";
}

/** The one line a row shows after its marks: a prompt's first line, a reply's summary, a compaction's figures. */
export function rowSummary(row: TreeRow): string {
	const node = row.nodes[0] as NodeEntry;
	switch (node.type) {
		case "user": {
			// A !cmd's context text explains itself first; the command is the line that starts with "$ ".
			const command = node.source === "shell" ? node.content.split("\n").find((l) => l.startsWith("$ ")) : undefined;
			const said = firstLine(command ?? node.content);
			return node.source === "steer" || node.source === "follow_up"
				? `(${node.source.replace("_", "-")}) ${said}`
				: said;
		}
		case "assistant":
		case "tool_result":
			return replySummary(row.nodes);
		case "compaction":
			return `compacted (${node.reason}): ${formatTokens(node.tokensBefore)} → ${formatTokens(node.tokensAfter)} tokens`;
		case "model_change":
			return `model: ${node.provider}/${node.model}`;
		default:
			return "an entry this gar cannot read (from a newer gar, or damaged)";
	}
}

/** Whether a row holds `query` (lower case): in a prompt's text, a reply's words or its tools' names. */
export function rowMatches(row: TreeRow, query: string): boolean {
	for (const node of row.nodes) {
		let text = "";
		if (node.type === "user") text = node.content;
		else if (node.type === "assistant") text = `${replyText(node)}\n${toolCounts([node])}`;
		else if (node.type === "compaction") text = node.summary;
		if (text.toLowerCase().includes(query)) return true;
	}
	return false;
}
