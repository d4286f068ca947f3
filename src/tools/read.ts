import { close, open, read, stat } from "node:fs";
import { promisify } from "node:util";
import * as z from "../text/zod.js";
import type { ReadDetails } from "./details.js";
import type { FileAccess } from "./file-access.js";
import { MAX_UNDO_BYTES } from "./old-file.js";
import { describeFsError, explainMissingFile, listDirectory, resolveToolPath } from "./paths.js";
import { type ByteSource, scanLines } from "./read-scan.js";
import { numbered } from "./truncate.js";
import { MAX_BYTES, MAX_LINES, type Tool } from "./types.js";

export const readSchema = z.object({
	path: z.string().check(z.minLength(1), z.describe("File to read: relative to the working directory, or absolute.")),
	offset: z
		.optional(z.coerce.number().check(z.int(), z.gte(1)))
		.check(z.describe("First line to show, 1-based (default 1).")),
	limit: z
		.optional(z.coerce.number().check(z.int(), z.gte(1)))
		.check(z.describe("How many lines to show (default and maximum 2000).")),
});
export type ReadParams = z.infer<typeof readSchema>;

export type ReadToolOptions = {
	cwd: string;
	maxLines?: number;
	maxBytes?: number;
	/** An editor's text of the files (ACP): text files it holds are read from it, unsaved changes included. */
	files?: FileAccess;
};

// Callback fs, promisified: node:fs/promises would be one more built-in to load (~1 ms of a `gar -p`).
const statFile = promisify(stat);
const openFd = promisify(open);
const readFd = promisify(read);
const closeFd = promisify(close);

const SNIFF_BYTES = 8192;
const MAGIC: [string, number[]][] = [
	["PNG image", [0x89, 0x50, 0x4e, 0x47]],
	["JPEG image", [0xff, 0xd8, 0xff]],
	["GIF image", [0x47, 0x49, 0x46, 0x38]],
	["PDF document", [0x25, 0x50, 0x44, 0x46]],
	["zip archive", [0x50, 0x4b, 0x03, 0x04]],
	["gzip archive", [0x1f, 0x8b]],
	["ELF executable", [0x7f, 0x45, 0x4c, 0x46]],
	["UTF-16 text", [0xff, 0xfe]],
	["UTF-16 text", [0xfe, 0xff]],
];

/** Names a binary file's kind from its first bytes, or null when it looks like text (no NUL byte). */
function binaryKind(head: Buffer): string | null {
	for (const [kind, magic] of MAGIC) if (magic.every((b, i) => head[i] === b)) return kind;
	return head.includes(0) ? "binary data" : null;
}

function directoryError(abs: string, shown: string): Error {
	const { names, total } = listDirectory(abs);
	const more = total > names.length ? `, … (${total} entries)` : "";
	return new Error(
		`${shown} is a directory, not a file. It contains: ${names.join(", ") || "(nothing)"}${more}. Read a file inside it, or list it with bash (\`ls -la ${shown}\`).`,
	);
}

/** Opens a regular file; stat comes first so a FIFO or device never blocks the open. */
async function openFile(abs: string, shown: string, cwd: string): Promise<{ fd: number; size: number }> {
	try {
		const info = await statFile(abs);
		if (info.isDirectory()) throw directoryError(abs, shown);
		if (!info.isFile()) {
			throw new Error(
				`${shown} is not a regular file (a device, socket or pipe); read cannot show it. Use bash instead.`,
			);
		}
		return { fd: await openFd(abs, "r"), size: info.size };
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT") {
			throw Object.assign(new Error(`File not found: ${shown}. ${explainMissingFile(cwd, abs)}`), { missing: true });
		}
		if (!code) throw error;
		throw new Error(describeFsError(error, shown, "read"));
	}
}

/** What read scans: a file on disk, or an editor's text of it; `close` releases it. */
type Source = ByteSource & { size: number; close(): Promise<void> };

const textSource = (text: string): Source => {
	const bytes = Buffer.from(text, "utf8");
	return {
		size: bytes.length,
		read: async (buffer, offset, length, position) => ({
			bytesRead: bytes.copy(buffer, offset, position, Math.min(bytes.length, position + length)),
		}),
		close: async () => {},
	};
};

/**
 * The file to read: from the editor when it offers the files and this one is a text file it can hold (not over
 * MAX_UNDO_BYTES on disk, or not on disk yet), else from the disk. Binary files are refused from the disk's bytes.
 */
async function openSource(abs: string, shown: string, cwd: string, files: FileAccess | undefined): Promise<Source> {
	const fromEditor = async () => {
		try {
			return files?.readText ? textSource(await files.readText(abs)) : undefined;
		} catch {
			return undefined;
		}
	};
	let opened: { fd: number; size: number };
	try {
		opened = await openFile(abs, shown, cwd);
	} catch (error) {
		// A new file the editor has not saved yet exists only there.
		const source = (error as { missing?: boolean }).missing ? await fromEditor() : undefined;
		if (source) return source;
		throw error;
	}
	const { fd, size } = opened;
	const head = Buffer.alloc(Math.min(SNIFF_BYTES, size));
	try {
		await readFd(fd, head, 0, head.length, 0);
	} catch (error) {
		await closeFd(fd);
		throw error;
	}
	const kind = binaryKind(head);
	if (kind) {
		await closeFd(fd);
		throw new Error(
			`${shown} is not a text file (${kind}, ${size} bytes); read shows text only. Inspect it with bash instead (e.g. \`file ${shown}\` or \`xxd ${shown} | head\`).`,
		);
	}
	const source = size <= MAX_UNDO_BYTES ? await fromEditor() : undefined;
	if (source) {
		await closeFd(fd);
		return source;
	}
	return {
		size,
		read: (buffer, offset, length, position) => readFd(fd, buffer, offset, length, position),
		close: () => closeFd(fd),
	};
}

/** The read tool: numbered lines of a text file, streamed, within the line and byte limits. */
export function createReadTool(options: ReadToolOptions): Tool<ReadParams, ReadDetails> {
	const maxLines = options.maxLines ?? MAX_LINES;
	const maxBytes = options.maxBytes ?? MAX_BYTES;
	const kb = `${Math.round(maxBytes / 1024)} KB`;
	return {
		name: "read",
		description: `Read a text file, shown with line numbers (number, tab, text). At most ${maxLines} lines or ${kb} per call; use offset and limit to page through larger files.`,
		parameters: readSchema,
		mutating: false,
		async preview(params) {
			const { offset, limit } = params;
			const { shown } = resolveToolPath(options.cwd, params.path);
			return { kind: "read", path: shown, ...(offset ? { offset } : {}), ...(limit ? { limit } : {}) };
		},
		async execute(params, ctx) {
			if (ctx.signal.aborted) throw new Error("Aborted before reading.");
			const { abs, shown } = resolveToolPath(options.cwd, params.path);
			const source = await openSource(abs, shown, options.cwd, options.files);
			try {
				const start = params.offset ?? 1;
				const want = Math.min(params.limit ?? maxLines, maxLines);
				const width = String(start + want - 1).length;
				const scan = await scanLines(source, source.size, { start, want, maxBytes, signal: ctx.signal }, width + 2);
				const total = scan.totalLines;
				const path = abs;
				if (scan.lines.length === 0) {
					if (total === 0) {
						return {
							content: `${shown} is empty.`,
							details: { kind: "read", path, startLine: 0, endLine: 0, totalLines: 0, truncated: false },
							isError: false,
						};
					}
					throw new Error(
						`offset=${start} is past the end of ${shown}, which has ${total} lines. Use an offset from 1 to ${total}.`,
					);
				}
				const endLine = start + scan.lines.length - 1;
				const numWidth = String(endLine).length;
				const rows = scan.lines.map((text, i) =>
					numbered(start + i, numWidth, i === 0 && start === 1 ? text.replace(/^\uFEFF/, "") : text),
				);
				const more = total === null || endLine < total;
				const capped = params.limit === undefined || params.limit > maxLines;
				const truncated =
					more && (scan.stop === "bytes" || scan.stop === "long_line" || (scan.stop === "lines" && capped));
				const of = total === null ? " (the file is too large to count its lines)" : ` of ${total}`;
				let hint = "";
				if (scan.stop === "long_line") {
					hint = `[Line ${endLine} is ${scan.longLineBytes} bytes, over the ${kb} limit; only its first ${kb} is shown. See the rest with bash, e.g. \`sed -n '${endLine}p' ${shown} | cut -b ${maxBytes + 1}-${maxBytes * 2}\`.${more ? ` Use offset=${endLine + 1} to continue.` : ""}]`;
				} else if (more) {
					const limitNote = scan.stop === "bytes" ? ` (${kb} limit reached)` : "";
					hint = `[Showing lines ${start}-${endLine}${of}${limitNote}. Use offset=${endLine + 1} to continue.]`;
				}
				const content = hint ? `${rows.join("\n")}\n\n${hint}` : rows.join("\n");
				return {
					content,
					details: { kind: "read", path, startLine: start, endLine, totalLines: total, truncated },
					isError: false,
				};
			} finally {
				await source.close();
			}
		},
	};
}
