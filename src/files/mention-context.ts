import { closeSync } from "node:fs";
import { resolve } from "node:path";
import { FILE_BLOCK_OPEN, mentionsIn } from "../text/mentions.js";
import { plural } from "../text/plural.js";
import { openRegularFile, readUpTo } from "../text/regular-file.js";

/** A file larger than this is only named: the model reads it with `read` if it needs it. */
const SMALL_BYTES = 256 * 1024;
/** The lines of a small file the message carries, and at most this many characters of them. */
const FIRST_LINES = 200;
const FIRST_CHARS = 16_000;
/** The most files one message carries the lines of. */
const MAX_FILES = 10;

/** A message as sent (agent/events.ts UserInput): its text and the ranges the chat folds. */
type Message = { text: string; pastes?: { start: number; end: number }[] };

/**
 * The message as sent with the files it mentions (`@path`, relative to `cwd`): the text as written, then for each
 * small text file (at most 256 KiB, no NUL byte) its first 200 lines in a `<file path="…">` block. Each block is a
 * range the chat folds, like a paste. A mention of something else (a folder, a missing or large file, a decorator
 * such as `@Override`) stays text. Never throws.
 */
export function withMentionedFiles(input: Message, cwd: string): Message {
	let text = input.text;
	const pastes = [...(input.pastes ?? [])];
	let attached = 0;
	for (const tries of mentionsIn(input.text)) {
		if (attached === MAX_FILES) break;
		for (const path of tries) {
			const block = fileBlock(cwd, path);
			if (block === null) continue;
			const start = text.length + 2;
			text = `${text}\n\n${block}`;
			pastes.push({ start, end: text.length });
			attached++;
			break;
		}
	}
	return pastes.length > 0 ? { text, pastes } : { text };
}

/** The block for the file at `path`, or null when it is not a small text file. */
function fileBlock(cwd: string, path: string): string | null {
	let content: string;
	try {
		const { fd, stats } = openRegularFile(resolve(cwd, path));
		try {
			const bytes = stats.size > SMALL_BYTES ? null : readUpTo(fd, stats.size, SMALL_BYTES);
			if (bytes === null || bytes.includes(0)) return null;
			content = bytes.toString("utf8");
		} finally {
			closeSync(fd);
		}
	} catch {
		return null;
	}
	const lines = content === "" ? [] : content.replace(/\n$/, "").split("\n");
	let n = 0;
	let size = 0;
	while (n < Math.min(lines.length, FIRST_LINES) && size + (lines[n] as string).length + 1 <= FIRST_CHARS)
		size += (lines[n++] as string).length + 1;
	let shown = lines.slice(0, n).join("\n");
	let what = n === lines.length ? plural(n, "line") : `lines 1-${n} of ${lines.length}`;
	if (n === 0 && lines.length > 0) {
		shown = (lines[0] as string).slice(0, FIRST_CHARS);
		what = `the first ${FIRST_CHARS} characters of ${plural(lines.length, "line")}`;
	}
	return `${FILE_BLOCK_OPEN}${path.replaceAll('"', "'")}" lines="${what}">\n${shown}\n</file>`;
}
