// What the stdio servers (`gar acp`, `gar mcp`) share: their input read as bounded JSON lines, their output with the
// keys masked, the checks of a working directory and of a session id a client names.
import { statSync } from "node:fs";
import { isAbsolute } from "node:path";
import { Transform } from "node:stream";
import { maskSecrets, resolveSession, SessionError } from "../session/index.js";
import { formatBytes, LineSplitter } from "../text/json-lines.js";
import type { RunFlags } from "./setup.js";

/** The run flags every session of a server shares (the root command's); each session adds its cwd and session. */
export type BaseFlags = Omit<RunFlags, "cwd" | "session" | "continue" | "at" | "noSession">;

declare const GAR_VERSION: string;
/** gar's version, as the servers introduce themselves. */
export const VERSION = typeof GAR_VERSION === "string" ? GAR_VERSION : "0.0.0-dev";

/** The longest message a server reads (the ACP SDK's own default); a longer one is refused, not held. */
export const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

/** A JSON-RPC error line for a message that was refused before it could be read (so its id is unknown). */
export function refusedLine(code: number, message: string): string {
	return `${JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } })}\n`;
}

/** The refusal of a line over `max` bytes, in words. */
export function tooLongMessage(max: number): string {
	return `a message over ${formatBytes(max)} was skipped unread; send smaller messages`;
}

/**
 * Reads `input` as JSON lines split at "\n" only, each passed on whole with its "\n" (a line of U+2028 stays one), in
 * memory bounded by `max`: a longer line is skipped to its end and `onTooLong` is called instead.
 */
export function boundedLines(
	input: NodeJS.ReadableStream,
	max: number,
	handlers: { line: (line: string) => void; tooLong: () => void; end: () => void; error: (error: Error) => void },
): void {
	const splitter = new LineSplitter(max);
	const take = (items: ReturnType<LineSplitter["push"]>) => {
		for (const item of items) {
			if ("tooLong" in item) handlers.tooLong();
			else if (item.line.trim() !== "") handlers.line(item.line);
		}
	};
	input.on("data", (chunk: Buffer | string) =>
		take(splitter.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk)),
	);
	input.on("end", () => {
		take(splitter.end());
		handlers.end();
	});
	input.on("error", handlers.error);
}

/**
 * A stream that masks `secrets` (the keys in use, as sessions open) in every line written through it, then passes it
 * on to `output`: a server writes one whole message per write, so a key can never be split across two.
 */
export function maskedOutput(output: NodeJS.WritableStream, secrets: ReadonlySet<string>): Transform {
	const masker = new Transform({
		transform(chunk: Buffer | string, _encoding, done) {
			const text = typeof chunk === "string" ? chunk : chunk.toString("utf8");
			done(null, secrets.size > 0 ? maskSecrets(text, [...secrets]) : text);
		},
	});
	masker.pipe(output);
	return masker;
}

/** Why `cwd` cannot be a session's working directory (not absolute, missing, not a folder), or null when it can. */
export function workdirProblem(cwd: string): string | null {
	if (!isAbsolute(cwd)) return `cwd must be an absolute path, not ${JSON.stringify(cwd)}`;
	try {
		return statSync(cwd).isDirectory() ? null : `cwd ${cwd} is not a directory`;
	} catch {
		return `cwd ${cwd} does not exist`;
	}
}

/**
 * The file of the session with exactly this id (never a prefix or a path, which a client could use to reach other
 * files). Throws SessionError ("not_found") when there is none.
 */
export function sessionFileOf(baseDir: string, sessionId: string, cwd?: string): string {
	if (!/^[0-9a-z]{4,64}$/.test(sessionId)) {
		throw new SessionError(`no session ${JSON.stringify(sessionId)}: a session id is letters and digits`, "not_found");
	}
	const found = resolveSession(baseDir, sessionId, cwd);
	if (found.id !== sessionId) throw new SessionError(`no session ${sessionId}`, "not_found");
	return found.file;
}
