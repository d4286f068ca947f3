import type { Message } from "../llm/types.js";

/** A tool result or tool argument longer than this is shortened in the text a summary is made from. */
const MAX_PART_CHARS = 2000;

function clip(text: string, max = MAX_PART_CHARS): string {
	return text.length > max ? `${text.slice(0, max)}… [${text.length - max} more characters]` : text;
}

/**
 * The messages as plain text for the summary request: tool calls and results become lines, so nothing needs
 * pairing and no tool definitions are sent. Thinking is left out; long tool text is shortened.
 */
export function serializeMessages(messages: readonly Message[]): string {
	const parts: string[] = [];
	for (const message of messages) {
		if (message.role === "user") parts.push(`[user]: ${message.content}`);
		else if (message.role === "tool_result") {
			parts.push(`[${message.name} result${message.isError ? ", error" : ""}]: ${clip(message.content)}`);
		} else {
			for (const block of message.content) {
				if (block.type === "text" && block.text.trim()) parts.push(`[assistant]: ${block.text}`);
				else if (block.type === "tool_call") {
					const args = block.rawArguments ?? JSON.stringify(block.arguments);
					parts.push(`[assistant calls ${block.name}]: ${clip(args)}`);
				}
			}
		}
	}
	return parts.join("\n\n");
}

/** Text that fits `maxChars`: its start and its end, with what was left out in between said in words. */
export function fitChars(text: string, maxChars: number): string {
	if (text.length <= maxChars) return text;
	const head = Math.floor(maxChars * 0.2);
	const tail = maxChars - head;
	const omitted = text.length - head - tail;
	return `${text.slice(0, head)}\n\n[… ${omitted} characters of the conversation left out here …]\n\n${text.slice(-tail)}`;
}

/** Files the tool calls of some messages read and changed: `read` reads; `write` and `edit` modify. */
export type FileLists = { read: string[]; modified: string[] };

/** The files touched by the tool calls in `messages`, added to `previous` (from an earlier summary). */
export function filesTouched(
	messages: readonly Message[],
	previous: FileLists = { read: [], modified: [] },
): FileLists {
	const read = new Set(previous.read);
	const modified = new Set(previous.modified);
	for (const message of messages) {
		if (message.role !== "assistant") continue;
		for (const block of message.content) {
			if (block.type !== "tool_call") continue;
			const path = block.arguments.path;
			if (typeof path !== "string" || path === "") continue;
			if (block.name === "read") read.add(path);
			else if (block.name === "write" || block.name === "edit") modified.add(path);
		}
	}
	// A file that was changed is listed once, as modified.
	return { read: [...read].filter((p) => !modified.has(p)).sort(), modified: [...modified].sort() };
}

/** The file lists as they end a summary (computed from the tool calls, not written by the model). */
export function formatFiles(files: FileLists): string {
	const block = (tag: string, paths: string[]) => (paths.length ? `<${tag}>\n${paths.join("\n")}\n</${tag}>` : "");
	return [block("read-files", files.read), block("modified-files", files.modified)].filter(Boolean).join("\n");
}

/** The file lists at the end of an earlier summary (see formatFiles); empty lists when there are none. */
export function parseFiles(summary: string): FileLists {
	const list = (tag: string) => {
		const match = new RegExp(`<${tag}>\\n([\\s\\S]*?)\\n</${tag}>`).exec(summary);
		return match?.[1] ? match[1].split("\n").filter(Boolean) : [];
	};
	return { read: list("read-files"), modified: list("modified-files") };
}

/** An earlier summary without its file lists (they are recomputed and appended again). */
export function withoutFiles(summary: string): string {
	return summary.replace(/\n*<(read|modified)-files>\n[\s\S]*?\n<\/\1-files>/g, "").trimEnd();
}
