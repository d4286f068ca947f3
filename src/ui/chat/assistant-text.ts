import type { Theme } from "../theme.js";
import { clean, type Line, makeLine, type Span } from "./lines.js";
import { renderMarkdown } from "./markdown.js";

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const BLANK = /^[ \t]*$/;

/**
 * Where a reply splits into chunks that render independently: offsets after `from` (a chunk start) of lines that
 * begin at column 0 right after a blank line outside a code fence — a new top-level markdown block, which nothing
 * after it can change. O(text after `from`).
 */
export function chunkStarts(text: string, from = 0): number[] {
	const starts: number[] = [];
	let fence: { char: string; length: number } | null = null;
	let previousBlank = false;
	for (let pos = from; pos < text.length; ) {
		const end = text.indexOf("\n", pos);
		const line = text.slice(pos, end === -1 ? text.length : end);
		if (fence) {
			const close = FENCE.exec(line);
			const marker = close?.[1];
			if (marker?.[0] === fence.char && marker.length >= fence.length && BLANK.test(line.slice(close?.[0].length))) {
				fence = null;
			}
			previousBlank = false;
		} else {
			const blank = BLANK.test(line);
			const first = line.charCodeAt(0);
			if (!blank && previousBlank && pos > from && first !== 32 && first !== 9) starts.push(pos);
			const open = FENCE.exec(line)?.[1];
			if (open && !(open[0] === "`" && line.slice(open.length).includes("`"))) {
				fence = { char: open[0] as string, length: open.length };
			}
			previousBlank = blank;
		}
		if (end === -1) break;
		pos = end + 1;
	}
	return starts;
}

/**
 * The lines of one chunk of an assistant reply, keyed `${key}:${n}` from `start` (the reply's lines so far): a blank
 * line before it unless it is the first, the markdown behind a two-column gutter, "● " on the reply's first line.
 */
export function replyChunkLines(key: string, chunk: string, start: number, width: number, theme: Theme): Line[] {
	const rows = renderMarkdown(clean(chunk), width - 2, theme);
	if (rows.length === 0) return [];
	if (start > 0) rows.unshift([]);
	const mark: Span = { text: "● ", color: theme.assistant };
	const gutter: Span = { text: "  " };
	return rows.map((row, j) => {
		const n = start + j;
		return makeLine(`${key}:${n}`, row.length === 0 ? [] : [n === 0 ? mark : gutter, ...row], width);
	});
}

/** Every line of an assistant reply: its chunks rendered one after another (what the streaming cache reuses). */
export function replyLines(key: string, text: string, width: number, theme: Theme): Line[] {
	const lines: Line[] = [];
	const starts = [...chunkStarts(text), text.length];
	let from = 0;
	for (const next of starts) {
		lines.push(...replyChunkLines(key, text.slice(from, next), lines.length, width, theme));
		from = next;
	}
	return lines;
}
