import { appendFileSync, closeSync, constants, fstatSync, openSync, readSync, unlinkSync } from "node:fs";
import { join, resolve } from "node:path";
import type { PastedRange, UserSource } from "../agent/events.js";
import type { AssistantMessage } from "../llm/types.js";
import { maskValues } from "../text/secrets.js";
import { makeDirs } from "../tools/make-dirs.js";
import {
	type AssistantEntry,
	type CompactionEntry,
	FORMAT_VERSION,
	isNode,
	type LabelEntry,
	type LeafEntry,
	type ModelChangeEntry,
	type NameEntry,
	newEntryId,
	newSessionId,
	type ParentRef,
	type RecordEntry,
	type SessionEntry,
	SessionError,
	type SessionHeader,
	type SystemPromptEntry,
	type ToolResultEntry,
	toRecord,
	type UserEntry,
} from "./format.js";
import { loadSession } from "./load.js";
import { sessionDirFor, sessionFileName } from "./paths.js";
import { redactSecrets } from "./redact.js";
import { Session } from "./session.js";

export type Clock = () => Date;
/** `dir` is the sessions base folder; the file goes in its project sub-folder (see sessionDirFor). */
export type CreateSessionOptions = {
	dir: string;
	cwd: string;
	parent?: ParentRef;
	now?: Clock;
	/** Secret values (API keys in use) replaced by a marker in every line written. */
	secrets?: readonly string[];
	/** Create the file only with the first entry, so a session nobody used leaves no file (the folder is made now). */
	lazy?: boolean;
	/** How a line is written (default appendFileSync); tests inject a full disk. */
	appendLine?: AppendLine;
};
/** Writes one whole line to an open file descriptor; throws on failure. */
export type AppendLine = (fd: number, line: string) => void;
/** Options for reopening an existing session. */
export type OpenSessionOptions = {
	now?: Clock;
	secrets?: readonly string[];
	appendLine?: AppendLine;
	/** The file as the caller just loaded it (loadSessionSliced): not read again. */
	session?: Session;
};
export type ToolResultInput = Omit<ToolResultEntry, "type" | "id" | "parentId" | "ts">;
/** Fields common to every new entry; the writer fills them in. */
type Fresh<E> = Omit<E, "id" | "parentId" | "ts">;

const withRun = (runId: string | undefined) => (runId === undefined ? {} : { runId });
/** A user entry's source; "prompt" is the default and is written too, so scripts need not know the default. */
const source = (value: UserSource | undefined) => (value === undefined ? {} : { source: value });

const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_APPEND;

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A system error's cause in words without the path Node repeats: "read-only file system (EROFS)". */
function causeOf(error: unknown): string {
	const code = (error as NodeJS.ErrnoException).code;
	const words = /^[A-Z]+: ([^,]+)/.exec(reasonOf(error))?.[1];
	return code && words ? `${words} (${code})` : reasonOf(error);
}

/** The sessions folder, made one level at a time (bounded even under /proc/sys); a SessionError naming the cause. */
function makeSessionDir(dir: string): void {
	try {
		makeDirs(dir, 0o700);
	} catch (error) {
		throw new SessionError(`cannot save sessions in ${dir}: ${reasonOf(error)}`, "io");
	}
}

/** Creates the file with its header line; on any failure nothing is left behind (never a 0-byte session). */
function createFile(file: string, header: SessionHeader, appendLine: AppendLine): number {
	let fd: number;
	try {
		fd = openSync(file, CREATE_FLAGS, 0o600);
	} catch (error) {
		throw new SessionError(`cannot create the session file ${file}: ${reasonOf(error)}`, "io");
	}
	try {
		appendLine(fd, `${JSON.stringify(header)}\n`);
		return fd;
	} catch (error) {
		closeSync(fd);
		try {
			unlinkSync(file);
		} catch {
			// Already gone or not removable: the error below still says what happened.
		}
		throw new SessionError(`cannot write the session file ${file}: ${reasonOf(error)}`, "io");
	}
}

/** Whether a file's last byte is "\n" (an empty file counts as ending cleanly). */
function endsWithNewline(file: string): boolean {
	const fd = openSync(file, "r");
	try {
		const size = fstatSync(fd).size;
		if (size === 0) return true;
		const byte = Buffer.alloc(1);
		readSync(fd, byte, 0, 1, size - 1);
		return byte[0] === 10;
	} finally {
		closeSync(fd);
	}
}

/** JSON for one line; details that cannot be serialised (a cycle, a BigInt) are replaced, never lost silently. */
function serialise(record: object): string {
	try {
		return JSON.stringify(record);
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		return JSON.stringify({ ...record, details: { unserialisable: reason } });
	}
}

/**
 * Replaces every secret in a serialised line with SECRET_MARKER. Only values of 8 characters or more: a shorter one
 * such as "true" would hit the line's own JSON.
 */
export function maskSecrets(line: string, secrets: readonly string[]): string {
	return maskValues(line, secrets, { minLength: 8, json: true });
}

/**
 * Appends entries to one session file. Append-only: every entry is one `appendFileSync` of one whole line; the file
 * is never rewritten, truncated or repaired. The in-memory `session` is kept in step with the file.
 * One writer per file is the expected use; two writers on one file still leave every line whole (O_APPEND), and
 * their entries form separate branches.
 */
export class SessionWriter {
	/** null before a lazy session's first entry, and after close(). */
	private fd: number | null;
	private closed = false;
	private needsNewline: boolean;

	private readonly promptHashes = new Set<string>();
	/** Records made while a lazy file had no entry yet: written just before its first entry (see appendRecordSoon). */
	private waiting: RecordEntry[] = [];

	private constructor(
		readonly session: Session,
		fd: number | null,
		needsNewline: boolean,
		private readonly now: Clock,
		private secrets: readonly string[],
		private readonly appendLine: AppendLine,
	) {
		this.fd = fd;
		this.needsNewline = needsNewline;
		for (const entry of session.entries) if (entry.type === "system_prompt") this.promptHashes.add(entry.hash);
	}

	/**
	 * Creates `<dir>/<project-slug>/<timestamp>_<id>.jsonl` (mode 0600, folders 0700) and writes its header (with
	 * `lazy`, at the first entry). Throws SessionError ("io") naming the path and the cause.
	 */
	static create(options: CreateSessionOptions): SessionWriter {
		const now = options.now ?? (() => new Date());
		const created = now();
		const id = newSessionId();
		const dir = sessionDirFor(options.dir, options.cwd);
		makeSessionDir(dir);
		const file = join(dir, sessionFileName(created, id));
		const header: SessionHeader = {
			type: "session",
			version: FORMAT_VERSION,
			id,
			cwd: resolve(options.cwd),
			createdAt: created.toISOString(),
			...(options.parent ? { parent: options.parent } : {}),
		};
		const appendLine = options.appendLine ?? appendFileSync;
		const fd = options.lazy ? null : createFile(file, header, appendLine);
		return new SessionWriter(new Session(file, header), fd, false, now, options.secrets ?? [], appendLine);
	}

	/**
	 * Opens an existing session for appending (loads it first; see loadSession). A torn last line is left as it is:
	 * the first new line is preceded by "\n", so the torn line stays separate (and skipped) and the new one is whole.
	 * A file that cannot be written (read-only, immutable, on a read-only file system) is a SessionError ("io")
	 * naming the path and the cause.
	 */
	static open(file: string, options: OpenSessionOptions = {}): SessionWriter {
		const session = options.session ?? loadSession(file);
		const needsNewline = !endsWithNewline(file);
		let fd: number;
		try {
			// No O_CREAT: appending must never create a file without a header.
			fd = openSync(file, constants.O_WRONLY | constants.O_APPEND);
		} catch (error) {
			throw new SessionError(`cannot write to the session file ${file}: ${causeOf(error)}`, "io");
		}
		const now = options.now ?? (() => new Date());
		return new SessionWriter(
			session,
			fd,
			needsNewline,
			now,
			options.secrets ?? [],
			options.appendLine ?? appendFileSync,
		);
	}

	get file(): string {
		return this.session.file;
	}

	/** Adds secret values to mask in every line written from now on (keys known only once the run is resolved). */
	addSecrets(values: readonly string[]): void {
		this.secrets = [...this.secrets, ...values];
	}

	get leafId(): string | null {
		return this.session.leafId;
	}

	/**
	 * Appends a complete entry (used by fork to copy entries with their ids). Refuses a duplicate id and a node whose
	 * parent is not in the session. One write per entry.
	 */
	append<E extends SessionEntry>(entry: E): E {
		if (this.closed) throw new SessionError(`session ${this.file} is closed`, "invalid");
		if (this.session.get(entry.id)) throw new SessionError(`entry id ${entry.id} already exists`, "invalid");
		if (isNode(entry) && entry.parentId !== null && !this.session.node(entry.parentId)) {
			throw new SessionError(`no parent entry ${entry.parentId}`, "invalid");
		}
		if (this.fd === null) {
			this.fd = createFile(this.file, this.session.header, this.appendLine);
			for (const record of this.waiting.splice(0)) this.write(this.fd, record);
		}
		this.write(this.fd, entry);
		return entry;
	}

	/** One line for one entry, and the entry in memory once it is on disk. */
	private write(fd: number, entry: SessionEntry): void {
		const line = `${this.needsNewline ? "\n" : ""}${maskSecrets(serialise(toRecord(entry)), this.secrets)}\n`;
		try {
			this.appendLine(fd, line);
		} catch (error) {
			// A partial write may have left an unfinished line; start the next one on a fresh line.
			this.needsNewline = true;
			throw error;
		}
		this.needsNewline = false;
		this.session.add(entry);
	}

	/** Appends a new entry as a child of the current leaf. */
	private appendNew<E extends SessionEntry>(fields: Fresh<E>): E {
		return this.append(this.fresh(fields));
	}

	/** A new entry (a fresh id, the current leaf as parent, now) from its fields. */
	private fresh<E extends SessionEntry>(fields: Fresh<E>): E {
		let id = newEntryId();
		while (this.session.get(id) || this.waiting.some((entry) => entry.id === id)) id = newEntryId();
		const { type, ...rest } = fields as Fresh<SessionEntry>;
		// `type` first: listing reads an entry's type from the start of its line without parsing it.
		return { type, id, parentId: this.leafId, ts: this.now().toISOString(), ...rest } as E;
	}

	appendUser(content: string, extra: { source?: UserSource; runId?: string; pastes?: PastedRange[] } = {}): UserEntry {
		const pastes = extra.pastes && extra.pastes.length > 0 ? { pastes: extra.pastes } : {};
		return this.appendNew<UserEntry>({
			type: "user",
			content,
			...withRun(extra.runId),
			...source(extra.source),
			...pastes,
		});
	}

	/** Saves a reply as it ended, partial content included; error text is passed through redactSecrets. */
	appendAssistant(message: AssistantMessage, costUsd?: number | null, runId?: string): AssistantEntry {
		const { content, provider, model, usage, stopReason, error, errorKind } = message;
		return this.appendNew<AssistantEntry>({
			type: "assistant",
			...withRun(runId),
			content,
			provider,
			model,
			usage,
			stopReason,
			...(error === undefined ? {} : { error: redactSecrets(error) }),
			...(errorKind === undefined ? {} : { errorKind }),
			...(costUsd === undefined ? {} : { costUsd }),
		});
	}

	appendToolResult(result: ToolResultInput): ToolResultEntry {
		return this.appendNew<ToolResultEntry>({ type: "tool_result", ...result, details: result.details ?? null });
	}

	/** Appends a record (metadata with `meta: true`): it never moves the leaf and is never on a path. */
	appendRecord<E extends RecordEntry>(fields: Omit<Fresh<E>, "meta">): E {
		// The compiler cannot see that `meta` completes the fields of a generic record.
		return this.appendNew<E>({ meta: true, ...fields } as Fresh<E>);
	}

	/**
	 * Appends a record, except to a lazy session whose file has no entry yet: there it waits, and is written just
	 * before the first entry (a record alone never makes the file appear; one still waiting at close is dropped).
	 */
	appendRecordSoon<E extends RecordEntry>(fields: Omit<Fresh<E>, "meta">): void {
		if (this.fd !== null || this.closed || this.session.entries.length > 0) {
			this.appendRecord<E>(fields);
			return;
		}
		this.waiting.push(this.fresh<E>({ meta: true, ...fields } as Fresh<E>));
	}

	/** Stores the system prompt and tool definitions once per distinct prompt; returns the prompt's hash. */
	ensurePrompt(prompt: Omit<Fresh<SystemPromptEntry>, "type" | "meta">): string {
		if (!this.promptHashes.has(prompt.hash)) {
			this.appendRecord<SystemPromptEntry>({ type: "system_prompt", ...prompt });
			this.promptHashes.add(prompt.hash);
		}
		return prompt.hash;
	}

	/** Appends a compaction node as a child of the current leaf (it changes what is sent from here on). */
	appendCompaction(fields: Omit<Fresh<CompactionEntry>, "type">): CompactionEntry {
		return this.appendNew<CompactionEntry>({ type: "compaction", ...fields });
	}

	appendModelChange(provider: string, model: string): ModelChangeEntry {
		return this.appendNew<ModelChangeEntry>({ type: "model_change", provider, model });
	}

	/** Sets the label of a node; null (or blank) clears it. Metadata: the leaf does not move. */
	label(entryId: string, label: string | null): LabelEntry {
		if (!this.session.node(entryId)) throw new SessionError(`no entry ${entryId} to label`, "not_found");
		const text = label?.trim() || null;
		return this.appendNew<LabelEntry>({ type: "label", target: entryId, label: text });
	}

	/** Names the session (the latest name wins). Metadata: the leaf does not move. */
	setName(name: string): NameEntry {
		const text = name.trim();
		if (text === "") throw new SessionError("a session name cannot be empty", "invalid");
		return this.appendNew<NameEntry>({ type: "name", name: text });
	}

	/**
	 * Moves the current leaf to a node (null: the next message starts a new root) by appending a leaf record, so the
	 * move survives a restart. Branching = the next message becomes a child of that node; nothing is deleted.
	 */
	moveTo(entryId: string | null): LeafEntry {
		if (entryId !== null && !this.session.node(entryId)) {
			throw new SessionError(`no entry ${entryId} to move to`, "not_found");
		}
		return this.appendNew<LeafEntry>({ type: "leaf", target: entryId });
	}

	/**
	 * Names the session in `file` without loading it (the picker's rename: a session of any size): one `name` line
	 * appended, its parent `leafId` (the current leaf, as the listing's index knows it), after a "\n" when the last
	 * line is torn. Throws SessionError ("io") naming the path and the cause.
	 */
	static appendName(file: string, name: string, leafId: string | null, now: Clock = () => new Date()): NameEntry {
		const text = name.trim();
		if (text === "") throw new SessionError("a session name cannot be empty", "invalid");
		const entry: NameEntry = { type: "name", id: newEntryId(), parentId: leafId, ts: now().toISOString(), name: text };
		let fd: number;
		try {
			const start = endsWithNewline(file) ? "" : "\n";
			fd = openSync(file, constants.O_WRONLY | constants.O_APPEND);
			try {
				appendFileSync(fd, `${start}${serialise(entry)}\n`);
			} finally {
				closeSync(fd);
			}
		} catch (error) {
			throw new SessionError(`cannot write to the session file ${file}: ${causeOf(error)}`, "io");
		}
		return entry;
	}

	/** Closes the file; later appends throw. Idempotent. */
	close(): void {
		if (this.closed) return;
		this.closed = true;
		this.waiting = [];
		if (this.fd !== null) closeSync(this.fd);
		this.fd = null;
	}
}
