import type { Theme } from "../theme/theme.js";
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

/**
 * Inside a long fenced block, highlighting restarts at each chunk. So a chunk ends, once it has 200 lines, before
 * a line at column 0 that follows a blank line (a new top-level declaration: rarely inside a multi-line string or
 * comment), and at 400 lines whatever comes (~16 KB of code: a frame's work stays bounded).
 */
const FENCE_CHUNK_LINES = 200;
const FENCE_CHUNK_MAX = 400;

/** The fence a line opens (``` or ~~~, at least 3, not an inline code span), or null. */
function opensFence(line: string): { char: string; length: number } | null {
	const open = FENCE.exec(line)?.[1];
	if (!open || (open[0] === "`" && line.slice(open.length).includes("`"))) return null;
	return { char: open[0] as string, length: open.length };
}

/**
 * Where a reply splits into chunks, after `from` (a chunk start; `fence` its opening line when it starts inside a
 * code block): lines that begin at column 0 right after a blank line outside a code fence — a new top-level
 * markdown block, which nothing after it can change — and inside a long fenced block as FENCE_CHUNK_LINES says.
 * O(text after `from`).
 */
export function chunkStarts(text: string, from = 0, fence?: string): ChunkStart[] {
	const starts: ChunkStart[] = [];
	const reopened = fence === undefined ? null : opensFence(fence);
	let open = reopened && fence !== undefined ? { ...reopened, line: fence, lines: 0, blank: false } : null;
	let previousBlank = false;
	for (let pos = from; pos < text.length; ) {
		const end = text.indexOf("\n", pos);
		const line = text.slice(pos, end === -1 ? text.length : end);
		if (open) {
			const close = FENCE.exec(line);
			const marker = close?.[1];
			if (marker?.[0] === open.char && marker.length >= open.length && BLANK.test(line.slice(close?.[0].length))) {
				open = null;
			} else {
				open.lines++;
				const topLevel = open.blank && line.length > 0 && line.charCodeAt(0) !== 32 && line.charCodeAt(0) !== 9;
				const due = open.lines > FENCE_CHUNK_MAX || (open.lines > FENCE_CHUNK_LINES && topLevel);
				if (due && end !== -1) {
					starts.push({ at: pos, fence: open.line });
					open.lines = 1;
				}
				open.blank = BLANK.test(line);
			}
			previousBlank = false;
		} else {
			const blank = BLANK.test(line);
			const first = line.charCodeAt(0);
			if (!blank && previousBlank && pos > from && first !== 32 && first !== 9) starts.push({ at: pos });
			const opened = opensFence(line);
			if (opened) open = { ...opened, line, lines: 0, blank: false };
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
