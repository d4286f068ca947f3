import { customAlphabet } from "nanoid/non-secure";
import type {
	CompactionReason,
	HookDecision,
	HookEventName,
	HookStatus,
	RunStopReason,
	SystemPart,
	ToolOutcome,
	UserSource,
} from "../agent/events.js";
import type { AssistantBlock, ErrorKind, StopReason, ThinkingLevel } from "../llm/types.js";
import * as z from "../text/zod.js";

export type { CompactionReason };

/** The major format version this gar reads and writes. Additive changes (new fields, new entry types) keep it. */
export const FORMAT_VERSION = 1;

/** Why a session could not be read, found or changed. `code` lets the CLI choose an exit code and wording. */
export class SessionError extends Error {
	override readonly name = "SessionError";
	constructor(
		message: string,
		readonly code: "newer_format" | "bad_header" | "not_found" | "ambiguous" | "invalid" | "io",
	) {
		super(message);
	}
}

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";
// Ids come from nanoid's Math.random generator: they name entries and files and guard nothing, and V8 seeds
// Math.random from the system's entropy in each process. node:crypto's generator would add its ~2 ms load to every
// launch that writes a session.
/** A random entry id: 10 characters of [0-9a-z]. Callers check uniqueness within the file. */
export const newEntryId = customAlphabet(ALPHABET, 10);
/** A random session id: 12 characters of [0-9a-z]. */
export const newSessionId = customAlphabet(ALPHABET, 12);

// The schemas below are the one definition of every line: the entry types are derived from them. A schema checks
// the fields gar reads; other fields (a newer gar's) pass, and stay in the entry, since parseEntry keeps the line's
// own object. A field older gar did not write is optional. The schemas are built on first read (`schemas()`): a
// `gar -p` that starts a new session never reads one, and building them costs ~6 ms.

/**
 * A field whose values gar writes from the union `T`: typed as `T`, and any string passes, since a newer gar may
 * write a value this one does not know (readers pass it on as it is).
 */
const known = <T extends string>() => z.custom<T>((value) => typeof value === "string");

/** The block types of a reply this gar knows (see knownBlocks in context.ts). */
export const KNOWN_BLOCK_TYPES: ReadonlySet<string> = new Set<AssistantBlock["type"]>([
	"text",
	"thinking",
	"tool_call",
]);

/** The fields every entry has, the usage figures, and the blocks of a reply. */
function sharedSchemas() {
	const base = {
		id: z.string().check(z.minLength(1)),
		parentId: z.nullable(z.string().check(z.minLength(1))),
		ts: z.string(),
	};
	// Entries written during a run carry its id, so replay and views need not guess run boundaries.
	const inRun = { ...base, runId: z.optional(z.string()) };
	const meta = { ...base, meta: z.literal(true) };
	const usage = z.compiledObject({
		input: z.number(),
		output: z.number(),
		cacheRead: z.number(),
		cacheWrite: z.number(),
		estimated: z.optional(z.boolean()),
	});
	const block = z.union([
		z.discriminatedUnion("type", [
			z.compiledObject({ type: z.literal("text"), text: z.string() }),
			z.compiledObject({
				type: z.literal("thinking"),
				thinking: z.string(),
				signature: z.optional(z.string()),
				redacted: z.optional(z.boolean()),
				field: z.optional(z.string()),
			}),
			z.compiledObject({
				type: z.literal("tool_call"),
				id: z.string(),
				name: z.string(),
				arguments: z.record(z.string(), z.unknown()),
				rawArguments: z.optional(z.string()),
			}),
		]),
		// A block type from a newer gar: kept in the file; context, replay and views skip it (knownBlocks).
		z.compiledObject({ type: z.string().check(z.refine((type) => !KNOWN_BLOCK_TYPES.has(type))) }),
	]);
	return { base, inRun, meta, usage, block };
}

type Shared = ReturnType<typeof sharedSchemas>;

/** The entries that form the conversation path and advance the leaf. */
function conversationSchemas(shared: Shared) {
	const { base, inRun, usage, block } = shared;
	return {
		user: z.compiledObject({
			...inRun,
			type: z.literal("user"),
			content: z.string(),
			// Absent in files written before it existed: read that as "prompt".
			source: z.optional(known<UserSource>()),
			// Where the person pasted blocks into `content` (views fold them). Only how the message is shown: a malformed
			// value is dropped (see parseEntry), never the message.
			pastes: z.catch(
				z.optional(z.array(z.compiledObject({ start: z.int().check(z.gte(0)), end: z.int().check(z.gte(0)) }))),
				undefined,
			),
		}),
		// A reply as the model sent it (the message without its role), with what it cost.
		assistant: z.compiledObject({
			...inRun,
			type: z.literal("assistant"),
			content: z.array(block),
			provider: z.string(),
			model: z.string(),
			usage,
			// A closed set: a reply that ended in a way this gar cannot read is kept as an unknown entry, never sent.
			stopReason: z.enum(["stop", "length", "tool_use", "error", "aborted", "refusal"] satisfies StopReason[]),
			error: z.optional(z.string()),
			errorKind: z.optional(known<ErrorKind>()),
			costUsd: z.optional(z.nullable(z.number())),
		}),
		tool_result: z.compiledObject({
			...inRun,
			type: z.literal("tool_result"),
			callId: z.string(),
			name: z.string(),
			// What the model read.
			content: z.string(),
			// What the UI shows (diff, exit code, truncation facts): never sent to a model. Absent in some older files.
			details: z.optional(z.unknown()),
			isError: z.boolean(),
			// How the call ended (absent in older files: read it from isError).
			outcome: z.optional(known<ToolOutcome>()),
			durationMs: z.optional(z.number()),
		}),
		model_change: z.compiledObject({
			...base,
			type: z.literal("model_change"),
			provider: z.string(),
			model: z.string(),
		}),
		compaction: compactionSchema(shared),
	};
}

/**
 * A compaction, a node (it changes what is sent): from here on the context is `summary` followed by the path from
 * `firstKeptEntryId` (null: nothing before this node is kept), compaction nodes skipped. The entries before stay in
 * the file and the tree. `provider` to `costUsd` are those of the summary request.
 */
function compactionSchema({ inRun, usage }: Shared) {
	return z.compiledObject({
		...inRun,
		type: z.literal("compaction"),
		reason: known<CompactionReason>(),
		summary: z.string(),
		firstKeptEntryId: z.nullable(z.string()),
		tokensBefore: z.number(),
		tokensAfter: z.number(),
		focus: z.optional(z.string()),
		readFiles: z.optional(z.array(z.string())),
		modifiedFiles: z.optional(z.array(z.string())),
		provider: z.optional(z.string()),
		model: z.optional(z.string()),
		usage: z.optional(usage),
		costUsd: z.optional(z.nullable(z.number())),
	});
}

/** A request record: one model call, what was asked (by reference, never the body) and what it cost. */
function requestSchema({ meta, usage }: Shared) {
	return z.compiledObject({
		...meta,
		type: z.literal("request"),
		requestId: z.string(),
		runId: z.string(),
		turn: z.number(),
		provider: z.string(),
		// The model of the reply, which may be a dated name; `requestedModel` is the one asked for when it differs.
		model: z.string(),
		requestedModel: z.optional(z.string()),
		promptHash: z.string(),
		toolsHash: z.string(),
		params: z.compiledObject({
			maxTokens: z.nullable(z.number()),
			thinking: z.nullable(known<ThinkingLevel>()),
			temperature: z.optional(z.number()),
			// The structured-output retry's schema (sent in the body; a rebuild needs it).
			responseSchema: z.optional(z.compiledObject({ name: z.string(), schema: z.record(z.string(), z.unknown()) })),
		}),
		messageCount: z.number(),
		// Estimated tokens of the history sent.
		messageTokens: z.number(),
		// When the call started (epoch ms).
		startedAt: z.number(),
		ttftMs: z.nullable(z.number()),
		durationMs: z.number(),
		retries: z.number(),
		stopReason: known<StopReason>(),
		errorKind: z.optional(known<ErrorKind>()),
		usage,
		costUsd: z.nullable(z.number()),
		// The sha256 (hex) and size of the body's bytes as sent (absent: nothing was sent, or an older gar): a body
		// rebuilt from the session is exact only when its hash is this one.
		bodySha256: z.optional(z.string()),
		bodyBytes: z.optional(z.number()),
	});
}

/**
 * Records: how the conversation happened. Each carries `meta: true`, the extension rule: a reader that does not
 * know an entry's type treats it as metadata when `meta` is true (never a node, never on a path) and as a tree node
 * otherwise. Every new record type sets `meta: true` unless it is part of the conversation itself.
 */
function recordSchemas(shared: Shared) {
	const { meta, usage } = shared;
	return {
		// The system prompt, stored once per distinct content: `hash` is what request records refer to; the tool
		// definitions sent with it, and their hash.
		system_prompt: z.compiledObject({
			...meta,
			type: z.literal("system_prompt"),
			hash: z.string(),
			text: z.string(),
			parts: z.array(
				z.compiledObject({
					source: known<SystemPart["source"]>(),
					path: z.optional(z.string()),
					chars: z.number(),
					tokens: z.number(),
					text: z.optional(z.string()),
				}),
			),
			toolsHash: z.string(),
			tools: z.array(
				z.compiledObject({ name: z.string(), description: z.string(), parameters: z.record(z.string(), z.unknown()) }),
			),
		}),
		request: requestSchema(shared),
		// One run, written when it ends.
		run: z.compiledObject({
			...meta,
			type: z.literal("run"),
			runId: z.string(),
			stopReason: known<RunStopReason>(),
			turns: z.number(),
			maxTurns: z.number(),
			contextWindow: z.nullable(z.number()),
			durationMs: z.number(),
			usage,
			costUsd: z.nullable(z.number()),
			error: z.optional(z.string()),
			errorKind: z.optional(known<ErrorKind>()),
			// What the run's sub-agents reported (their children's figures; apart from `usage` and `costUsd`).
			subagents: z.catch(
				z.optional(z.compiledObject({ runs: z.number(), usage, costUsd: z.nullable(z.number()) })),
				undefined,
			),
		}),
		// A tool call really started (written before it runs): a start without a result means gar died during it.
		tool_start: z.compiledObject({
			...meta,
			type: z.literal("tool_start"),
			callId: z.string(),
			name: z.string(),
			runId: z.optional(z.string()),
			/** The permission rule that let the call run without asking, in words. */
			rule: z.optional(z.string()),
		}),
		hook: hookSchema(shared),
		rewind: rewindSchema(shared),
	};
}

/**
 * A rewind (README "Rewind"): the leaf and the files moved along the tree. Written twice: "started" before any file is
 * touched (with the mode of each file it is about to remove, so a redo can bring it back even after a kill), and
 * "done" with the outcome. `from`/`to`: the leaf before and after (equal when only the files moved); `filesFrom` and
 * `filesTo`: where the files were and went (absent when only the conversation moved); `undoes`: the rewind a /redo
 * took back. `restored[].hash` and `fileMode`: the file's bytes and mode before (what a redo needs to remove it again
 * or bring it back).
 */
function rewindSchema({ meta }: Shared) {
	const file = z.compiledObject({ path: z.string(), reason: z.string() });
	return z.compiledObject({
		...meta,
		type: z.literal("rewind"),
		status: known<"started" | "done">(),
		mode: known<"both" | "files" | "conversation">(),
		from: z.nullable(z.string()),
		to: z.nullable(z.string()),
		filesFrom: z.optional(z.nullable(z.string())),
		filesTo: z.optional(z.nullable(z.string())),
		undoes: z.optional(z.string()),
		removing: z.optional(z.array(z.compiledObject({ path: z.string(), hash: z.string(), fileMode: z.number() }))),
		restored: z.optional(
			z.array(
				z.compiledObject({
					path: z.string(),
					action: known<"restored" | "removed" | "created" | "already">(),
					insertions: z.number(),
					deletions: z.number(),
					hash: z.optional(z.nullable(z.string())),
					fileMode: z.optional(z.number()),
				}),
			),
		),
		skipped: z.optional(z.array(file)),
		notRestorable: z.optional(z.array(file)),
		bashChanged: z.optional(z.array(z.compiledObject({ path: z.string(), entry: z.string() }))),
	});
}

/** One hook run, as its `hook` event carried it (README "Hooks"); texts were cut to a few thousand characters. */
function hookSchema({ meta }: Shared) {
	return z.compiledObject({
		...meta,
		type: z.literal("hook"),
		runId: z.optional(z.string()),
		event: known<HookEventName>(),
		name: z.string(),
		command: z.string(),
		source: z.string(),
		callId: z.optional(z.string()),
		tool: z.optional(z.string()),
		status: known<HookStatus>(),
		exitCode: z.nullable(z.number()),
		durationMs: z.number(),
		decision: z.optional(known<HookDecision>()),
		reason: z.optional(z.string()),
		message: z.optional(z.string()),
		context: z.optional(z.string()),
		updatedInput: z.optional(z.literal(true)),
	});
}

function buildSchemas() {
	const shared = sharedSchemas();
	const { base } = shared;
	const entries = {
		...conversationSchemas(shared),
		...recordSchemas(shared),
		// Metadata: sets (or with `label: null` clears) the label of `target`.
		label: z.compiledObject({ ...base, type: z.literal("label"), target: z.string(), label: z.nullable(z.string()) }),
		// Metadata: names the session; the latest wins.
		name: z.compiledObject({ ...base, type: z.literal("name"), name: z.string() }),
		// Metadata: moves the current leaf to `target` (null = the next message starts a new root).
		leaf: z.compiledObject({ ...base, type: z.literal("leaf"), target: z.nullable(z.string()) }),
	};
	// Line 1 of a session file; `parent` only in a fork: where it came from.
	const header = z.compiledObject({
		type: z.literal("session"),
		version: z.literal(FORMAT_VERSION),
		id: z.string().check(z.minLength(1)),
		cwd: z.string().check(z.minLength(1)),
		createdAt: z.string(),
		parent: z.optional(z.compiledObject({ session: z.string(), entry: z.string(), path: z.optional(z.string()) })),
	});
	return { entries, unknown: z.compiledObject({ ...base, type: z.string().check(z.minLength(1)) }), header };
}

type Schemas = ReturnType<typeof buildSchemas>;
type EntrySchemas = Schemas["entries"];
/** The entry of type `K` as it is in memory: the line's own object, checked by its schema. */
type EntryOf<K extends keyof EntrySchemas> = z.output<EntrySchemas[K]>;

let built: Schemas | undefined;
/** The schemas of a session's lines, built on first use (see parseEntry in lines.ts). */
export const schemas = (): Schemas => {
	built ??= buildSchemas();
	return built;
};
/** Whether the schemas were built: not by writing a new session, only by reading one (a test pins it). */
export const schemasBuilt = () => built !== undefined;

/** Line 1 of a session file. */
export type SessionHeader = z.output<Schemas["header"]>;
/** Where a forked session came from. */
export type ParentRef = NonNullable<SessionHeader["parent"]>;

// One type per entry schema above (their comments say what each field means).
export type UserEntry = EntryOf<"user">;
export type AssistantEntry = EntryOf<"assistant">;
/** A block of a stored reply: a known one, or a newer gar's (`{type}` only), which consumers skip. */
export type StoredBlock = AssistantEntry["content"][number];
export type ToolResultEntry = EntryOf<"tool_result">;
export type ModelChangeEntry = EntryOf<"model_change">;
export type CompactionEntry = EntryOf<"compaction">;
export type SystemPromptEntry = EntryOf<"system_prompt">;
export type RequestEntry = EntryOf<"request">;
export type RunEntry = EntryOf<"run">;
export type ToolStartEntry = EntryOf<"tool_start">;
export type HookRecordEntry = EntryOf<"hook">;
export type RewindEntry = EntryOf<"rewind">;
export type LabelEntry = EntryOf<"label">;
export type NameEntry = EntryOf<"name">;
export type LeafEntry = EntryOf<"leaf">;

type Base = Pick<UserEntry, "id" | "parentId" | "ts">;
/**
 * In memory only: an entry whose type this gar does not know (written by a newer gar), or a known type that failed
 * its schema. `raw` is the line as read, written back unchanged. It is a tree node unless `meta` is true; it is
 * never sent to a model.
 */
export type UnknownEntry = Base & { type: "unknown"; meta: boolean; raw: Record<string, unknown> };

/** Entries that form the conversation path and advance the leaf. */
export type ConversationEntry = UserEntry | AssistantEntry | ToolResultEntry | ModelChangeEntry | CompactionEntry;
export type RecordEntry = SystemPromptEntry | RequestEntry | RunEntry | ToolStartEntry | HookRecordEntry | RewindEntry;
export type MetadataEntry = LabelEntry | NameEntry | LeafEntry | RecordEntry;
export type KnownEntry = ConversationEntry | MetadataEntry;
export type SessionEntry = KnownEntry | UnknownEntry;
/** Tree nodes: entries that can have children (conversation entries and unknown non-meta ones). */
export type NodeEntry = ConversationEntry | (UnknownEntry & { meta: false });

const METADATA_TYPES = new Set([
	"label",
	"name",
	"leaf",
	"system_prompt",
	"request",
	"run",
	"tool_start",
	"hook",
	"rewind",
]);

export function isConversation(entry: SessionEntry): entry is ConversationEntry {
	return entry.type !== "unknown" && !isMetadata(entry);
}
export function isMetadata(entry: SessionEntry): entry is MetadataEntry | (UnknownEntry & { meta: true }) {
	return entry.type === "unknown" ? entry.meta : METADATA_TYPES.has(entry.type);
}
export function isNode(entry: SessionEntry): entry is NodeEntry {
	return !isMetadata(entry);
}

/** The object to write for an entry: unknown entries are written back exactly as they were read. */
export function toRecord(entry: SessionEntry): object {
	return entry.type === "unknown" ? entry.raw : entry;
}
