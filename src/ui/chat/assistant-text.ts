import type { Theme } from "../theme.js";
import { clean, type Line, makeLine, type Span } from "./lines.js";
import { renderMarkdown } from "./markdown.js";

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const BLANK = /^[ \t]*$/;

/**
 * A place where a reply splits into chunks that render independently. `fence` is set when the chunk starts inside
 * a long code block: the block's opening line, which the chunk is rendered after (so a 5,000-line code block in a
 * streaming reply is not re-highlighted whole on every frame).
 */
export type ChunkStart = { at: number; fence?: string };

/** Lines of code per chunk inside a long fenced block (highlighting restarts at each; ~8 KB of code). */
const FENCE_CHUNK_LINES = 200;

/** The fence a line opens (``` or ~~~, at least 3, not an inline code span), or null. */
function opensFence(line: string): { char: string; length: number } | null {
	const open = FENCE.exec(line)?.[1];
	if (!open || (open[0] === "`" && line.slice(open.length).includes("`"))) return null;
	return { char: open[0] as string, length: open.length };
}

/**
 * Where a reply splits into chunks, after `from` (a chunk start; `fence` its opening line when it starts inside a
 * code block): lines that begin at column 0 right after a blank line outside a code fence — a new top-level
 * markdown block, which nothing after it can change — and every 200th line inside a fenced block. O(text after
 * `from`).
 */
export function chunkStarts(text: string, from = 0, fence?: string): ChunkStart[] {
	const starts: ChunkStart[] = [];
	const reopened = fence === undefined ? null : opensFence(fence);
	let open = reopened && fence !== undefined ? { ...reopened, line: fence, lines: 0 } : null;
	let previousBlank = false;
	for (let pos = from; pos < text.length; ) {
		const end = text.indexOf("\n", pos);
		const line = text.slice(pos, end === -1 ? text.length : end);
		if (open) {
			const close = FENCE.exec(line);
			const marker = close?.[1];
			if (marker?.[0] === open.char && marker.length >= open.length && BLANK.test(line.slice(close?.[0].length))) {
				open = null;
			} else if (++open.lines > FENCE_CHUNK_LINES && end !== -1) {
				starts.push({ at: pos, fence: open.line });
				open.lines = 1;
			}
			previousBlank = false;
		} else {
			const blank = BLANK.test(line);
			const first = line.charCodeAt(0);
			if (!blank && previousBlank && pos > from && first !== 32 && first !== 9) starts.push({ at: pos });
			const opened = opensFence(line);
			if (opened) open = { ...opened, line, lines: 0 };
			previousBlank = blank;
		}
		if (end === -1) break;
		pos = end + 1;
	}
	return starts;
}

/**
 * The lines of one chunk of an assistant reply, keyed `${key}:${n}` from `start` (the reply's lines so far): a blank
 * line before it unless it is the first or continues a code block (`fence`), the markdown behind a two-column
 * gutter, "● " on the reply's first line.
 */
export function replyChunkLines(
	key: string,
	chunk: string,
	start: number,
	width: number,
	theme: Theme,
	fence?: string,
): Line[] {
	const rows = renderMarkdown(clean(fence === undefined ? chunk : `${fence}\n${chunk}`), width - 2, theme);
	if (rows.length === 0) return [];
	if (start > 0 && fence === undefined) rows.unshift([]);
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
	let from: ChunkStart = { at: 0 };
	for (const next of [...chunkStarts(text), { at: text.length }]) {
		lines.push(...replyChunkLines(key, text.slice(from.at, next.at), lines.length, width, theme, from.fence));
		from = next;
	}
	return lines;
}
