import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { parseJson } from "./lines.js";

/** A session's last exchange: the latest prompt, what the replies after it called, and the last reply's text. */
export type LastExchange = { prompt?: string; reply?: string; tools: [name: string, count: number][] };

/** Read after the prompt's line; of a longer stretch, also the file's end (where the last reply is). */
const AFTER_PROMPT = 1 << 20;
const END = 512 << 10;
/** Text kept of the prompt and of the reply: a preview shows a few lines of each. */
const KEEP = 4000;

function readRange(fd: number, from: number, to: number): Buffer {
	const buf = Buffer.alloc(Math.max(0, to - from));
	let got = 0;
	while (got < buf.length) {
		const n = readSync(fd, buf, got, buf.length - got, from + got);
		if (n === 0) break;
		got += n;
	}
	return buf.subarray(0, got);
}

/** The whole lines of `buf` (a part that starts mid-line drops its first piece) as parsed objects. */
function records(buf: Buffer, fromLineStart: boolean): Record<string, unknown>[] {
	const lines = buf.toString("utf8").split("\n");
	if (!fromLineStart) lines.shift();
	lines.pop(); // no "\n" after it: unfinished, or cut by the range
	return lines.flatMap((line) => {
		const value = parseJson(line);
		return typeof value === "object" && value !== null ? [value as Record<string, unknown>] : [];
	});
}

const clip = (text: string) => (text.length > KEEP ? `${text.slice(0, KEEP - 1)}…` : text);

/** Folds the entries from the prompt on into the exchange. */
function exchangeOf(entries: Record<string, unknown>[]): LastExchange {
	const tools = new Map<string, number>();
	const exchange: LastExchange = { tools: [] };
	for (const entry of entries) {
		if (entry.type === "user" && typeof entry.content === "string") {
			exchange.prompt = clip(entry.content);
			delete exchange.reply;
			tools.clear();
		} else if (entry.type === "assistant" && Array.isArray(entry.content)) {
			const blocks = entry.content as Record<string, unknown>[];
			for (const block of blocks) {
				if (block?.type === "tool_call" && typeof block.name === "string")
					tools.set(block.name, (tools.get(block.name) ?? 0) + 1);
			}
			const text = blocks.flatMap((b) => (b?.type === "text" && typeof b.text === "string" ? [b.text] : [])).join("");
			if (text.trim() !== "") exchange.reply = clip(text);
		}
	}
	exchange.tools = [...tools];
	return exchange;
}

/**
 * The last exchange of a session file, read from `promptOffset` (where its latest prompt's line starts, from the
 * index) to the end: at most a megabyte after the prompt, and the file's last half megabyte. Read-only; a file that
 * cannot be read gives an empty exchange (the caller shows why it could not be listed instead).
 */
export function readLastExchange(file: string, promptOffset: number | undefined): LastExchange {
	let fd: number;
	try {
		fd = openSync(file, "r");
	} catch {
		return { tools: [] };
	}
	try {
		const size = fstatSync(fd).size;
		const from = Math.min(promptOffset ?? Math.max(0, size - END), size);
		const first = records(readRange(fd, from, Math.min(size, from + AFTER_PROMPT)), promptOffset !== undefined);
		const far = size - from > AFTER_PROMPT;
		const last = far ? records(readRange(fd, size - END, size), false) : [];
		return exchangeOf([...first, ...last]);
	} finally {
		closeSync(fd);
	}
}
