/** Characters per token assumed when turning a token share of the window into a character limit. */
const CHARS_PER_TOKEN = 4;

/** The most characters one tool result may have: `share` of the window (null: no limit when the window is unknown). */
export function maxResultChars(window: number | null, share: number): number | null {
	return window === null ? null : Math.max(1000, Math.floor(window * share * CHARS_PER_TOKEN));
}

/**
 * A tool result cut to `maxChars` (a share of the context window), ending with a note that says it was cut and how
 * to get the rest; unchanged when it fits.
 */
export function capToolResult(content: string, tool: string, maxChars: number | null): string {
	if (maxChars === null || content.length <= maxChars) return content;
	const how =
		tool === "read"
			? "read the file in parts with offset and limit"
			: tool === "bash"
				? "narrow the command's output (grep, head, tail, sed -n) or write it to a file and read that in parts"
				: "ask for less at a time";
	// Never end on half of a surrogate pair.
	const end = /[\uD800-\uDBFF]/.test(content.charAt(maxChars - 1)) ? maxChars - 1 : maxChars;
	const kept = content.slice(0, end);
	return `${kept}\n\n[gar: this result was cut to ${kept.length} of ${content.length} characters so that it fits the context window ([context] max_tool_result_share); to see the rest, ${how}.]`;
}
