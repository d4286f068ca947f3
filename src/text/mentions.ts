/**
 * `@file` mentions: an `@` at the start of a line or after whitespace, then the path, to the next whitespace or quoted
 * (`@"my notes.md"`). An `@` inside a word (`me@example.com`, `x@Override`) is no mention.
 */

/** The mention being typed at column `col` of `line`: where its `@` is and what follows it up to `col`. */
export type MentionAt = { start: number; query: string };

const STARTS = /\s/;

/** The mention the cursor is in (between its `@` and the next whitespace, or inside `@"…`), or null. */
export function mentionAt(line: string, col: number): MentionAt | null {
	const quote = line.lastIndexOf('@"', col - 1);
	if (quote !== -1 && startsWord(line, quote) && !line.slice(quote + 2, col).includes('"'))
		return { start: quote, query: line.slice(quote + 2, col) };
	for (let i = col - 1; i >= 0; i--) {
		const char = line[i] as string;
		if (STARTS.test(char)) return null;
		if (char !== "@") continue;
		const query = line.slice(i + 1, col);
		return startsWord(line, i) && !query.includes("@") && !query.startsWith('"') ? { start: i, query } : null;
	}
	return null;
}

/** Whether the character at `i` starts a word: the line's first, or after whitespace. */
function startsWord(line: string, i: number): boolean {
	return i === 0 || STARTS.test(line[i - 1] as string);
}

/** How a path is written as a mention: `@path`, quoted when it holds whitespace or a quote. */
export function mentionOf(path: string): string {
	return /[\s"]/.test(path) ? `@"${path.replaceAll('"', "")}"` : `@${path}`;
}

const MENTION = /(^|\s)@(?:"([^"\n]+)"|([^\s"@][^\s"]*))/g;
/** Characters that end a sentence after a path ("see @src/a.ts."): not part of the path. */
const TRAILING = /[.,;:!?)\]}'>]+$/;

/**
 * The paths a message mentions, in order, each once. A bare mention also gives the path without the punctuation that
 * may end a sentence after it (`@a.ts,` → `a.ts,` and `a.ts`), for the caller to try in that order.
 */
export function mentionsIn(text: string): string[][] {
	const seen = new Set<string>();
	const out: string[][] = [];
	for (const match of text.matchAll(MENTION)) {
		const quoted = match[2];
		const bare = match[3] ?? "";
		const tries = quoted !== undefined ? [quoted] : [bare, bare.replace(TRAILING, "")].filter((p) => p !== "");
		const unique = [...new Set(tries)];
		const key = unique.at(-1);
		if (key === undefined || seen.has(key)) continue;
		seen.add(key);
		out.push(unique);
	}
	return out;
}

/** How the block of a mentioned file begins in a message (files/mention-context.ts writes it). */
export const FILE_BLOCK_OPEN = '<file path="';

/** The chat's name for a folded block that holds a mentioned file ("[file src/a.ts · 40 lines]"), or null. */
export function fileBlockLabel(block: string): string | null {
	if (!block.startsWith(FILE_BLOCK_OPEN)) return null;
	const head = /^<file path="([^"]*)" lines="([^"]*)">/.exec(block);
	return head ? `[file ${head[1]} · ${head[2]}]` : null;
}
