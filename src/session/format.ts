import { customAlphabet } from "nanoid";
import { z } from "zod";
import { nestsDeeperThan } from "../agent/depth.js";
import type {
	CompactionProduct,
	CompactionReason,
	PastedRange,
	RunStopReason,
	SystemPart,
	ToolOutcome,
	UserSource,
} from "../agent/events.js";

export type { CompactionReason };
export { nestsDeeperThan };

import type { AssistantMessage, ErrorKind, StopReason, ThinkingLevel, Usage } from "../llm/types.js";

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
/** A random entry id: 10 characters of [0-9a-z]. Callers check uniqueness within the file. */
export const newEntryId = customAlphabet(ALPHABET, 10);
/** A random session id: 12 characters of [0-9a-z]. */
export const newSessionId = customAlphabet(ALPHABET, 12);

/** Where a forked session came from. */
export type ParentRef = { session: string; entry: string; path?: string };

/** Line 1 of a session file. */
export type SessionHeader = {
	type: "session";
	version: number;
	id: string;
	cwd: string;
	createdAt: string;
	parent?: ParentRef;
};

type Base = { id: string; parentId: string | null; ts: string };
/** Entries written during a run carry its id, so replay and views need not guess run boundaries. */
type InRun = { runId?: string };
/**
 * `source` is absent in sessions written before it existed: read that as "prompt". `pastes`: where the person pasted
 * blocks into `content` (views fold them; the model reads the whole content).
 */
export type UserEntry = Base & InRun & { type: "user"; content: string; source?: UserSource; pastes?: PastedRange[] };
/** A reply as the model sent it (the message without its role), with what it cost. */
export type AssistantEntry = Base &
	InRun &
	Omit<AssistantMessage, "role"> & { type: "assistant"; costUsd?: number | null };
export type ToolResultEntry = Base &
	InRun & {
		type: "tool_result";
		callId: string;
		name: string;
		/** What the model read. */
		content: string;
		/** What the UI shows (diff, exit code, truncation facts). Never sent to a model. */
		details?: unknown;
		isError: boolean;
		/** How the call ended (absent in older sessions: read it from isError). */
		outcome?: ToolOutcome;
		durationMs?: number;
	};
export type ModelChangeEntry = Base & { type: "model_change"; provider: string; model: string };
/**
 * A tree node (not metadata: it changes what is sent): from here on the context is `summary` followed by the path
 * from `firstKeptEntryId` (null: nothing before this node is kept), compaction nodes skipped. The entries before
 * stay in the file and the tree; only what is sent changes. `usage`/`costUsd` are those of the summary request.
 */
export type CompactionEntry = Base &
	InRun &
	CompactionProduct & { type: "compaction"; reason: CompactionReason; tokensBefore: number; tokensAfter: number };
/** Metadata: sets (or with `label: null` clears) the label of `target`. */
export type LabelEntry = Base & { type: "label"; target: string; label: string | null };
/** Metadata: names the session; the latest wins. */
export type NameEntry = Base & { type: "name"; name: string };
/** Metadata: moves the current leaf to `target` (null = the next message starts a new root). */
export type LeafEntry = Base & { type: "leaf"; target: string | null };

/**
 * Record entries carry `meta: true`: the extension rule. A reader that does not know an entry's type treats it as
 * metadata when `meta` is true (never a node, never on a path) and as a tree node otherwise. Every new record type
 * sets `meta: true` unless it is part of the conversation itself.
 */
type Meta = Base & { meta: true };

/** The system prompt, stored once per distinct content: `hash` is what request records refer to. */
export type SystemPromptEntry = Meta & {
	type: "system_prompt";
	hash: string;
	text: string;
	parts: (SystemPart & { text?: string })[];
	/** The tool definitions sent with it, and their hash. */
	toolsHash: string;
	tools: { name: string; description: string; parameters: Record<string, unknown> }[];
};

/** One model call: what was asked (by reference, never the body) and what it cost. */
export type RequestEntry = Meta & {
	type: "request";
	requestId: string;
	runId: string;
	turn: number;
	provider: string;
	model: string;
	promptHash: string;
	toolsHash: string;
	params: { maxTokens: number | null; thinking: ThinkingLevel | null; temperature?: number };
	messageCount: number;
	/** Estimated tokens of the history sent. */
	messageTokens: number;
	/** When the call started (epoch ms). */
	startedAt: number;
	ttftMs: number | null;
	durationMs: number;
	retries: number;
	stopReason: StopReason;
	errorKind?: ErrorKind;
	usage: Usage;
	costUsd: number | null;
};

/** One run, written when it ends. */
export type RunEntry = Meta & {
	type: "run";
	runId: string;
	stopReason: RunStopReason;
	turns: number;
	maxTurns: number;
	contextWindow: number | null;
	durationMs: number;
	usage: Usage;
	costUsd: number | null;
	error?: string;
	errorKind?: ErrorKind;
};

/** A tool call really started (written before it runs): a start without a result means gar died during it. */
export type ToolStartEntry = Meta & { type: "tool_start"; callId: string; name: string; runId?: string };

/**
 * In memory only: an entry whose type this gar does not know (written by a newer gar), or a known type that failed
 * its schema. `raw` is the line as read, written back unchanged. It is a tree node unless `meta` is true; it is
 * never sent to a model.
 */
export type UnknownEntry = Base & { type: "unknown"; meta: boolean; raw: Record<string, unknown> };

/** Entries that form the conversation path and advance the leaf. */
export type ConversationEntry = UserEntry | AssistantEntry | ToolResultEntry | ModelChangeEntry | CompactionEntry;
export type RecordEntry = SystemPromptEntry | RequestEntry | RunEntry | ToolStartEntry;
export type MetadataEntry = LabelEntry | NameEntry | LeafEntry | RecordEntry;
export type KnownEntry = ConversationEntry | MetadataEntry;
export type SessionEntry = KnownEntry | UnknownEntry;
/** Tree nodes: entries that can have children (conversation entries and unknown non-meta ones). */
export type NodeEntry = ConversationEntry | (UnknownEntry & { meta: false });

const METADATA_TYPES = new Set(["label", "name", "leaf", "system_prompt", "request", "run", "tool_start"]);

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

// Schemas are loose: fields added by a newer minor version are kept and ignored. They are built on first use
// (buildSchemas below): a `gar -p` that starts a new session never reads one, and building them costs ~6 ms.
const KNOWN_TYPES: ReadonlySet<string> = new Set(
	Object.keys({
		user: true,
		assistant: true,
		tool_result: true,
		model_change: true,
		compaction: true,
		system_prompt: true,
		request: true,
		run: true,
		tool_start: true,
		label: true,
		name: true,
		leaf: true,
	} satisfies Record<KnownEntry["type"], true>),
);

let built: ReturnType<typeof buildSchemas> | undefined;
const schemas = () => {
	built ??= buildSchemas();
	return built;
};

function buildSchemas() {
	const base = { id: z.string().min(1), parentId: z.string().min(1).nullable(), ts: z.string() };
	const BLOCK_TYPES = new Set(["text", "thinking", "tool_call"]);
	const blockSchema = z.union([
		z.discriminatedUnion("type", [
			z.looseObject({ type: z.literal("text"), text: z.string() }),
			z.looseObject({
				type: z.literal("thinking"),
				thinking: z.string(),
				signature: z.string().optional(),
				redacted: z.boolean().optional(),
			}),
			z.looseObject({
				type: z.literal("tool_call"),
				id: z.string(),
				name: z.string(),
				arguments: z.record(z.string(), z.unknown()),
				rawArguments: z.string().optional(),
			}),
		]),
		// A block type from a newer gar: kept; context and replay skip it.
		z.looseObject({ type: z.string().refine((t) => !BLOCK_TYPES.has(t)) }),
	]);
	const usageSchema = z.looseObject({
		input: z.number(),
		output: z.number(),
		cacheRead: z.number(),
		cacheWrite: z.number(),
		estimated: z.boolean().optional(),
	});

	const entrySchemas: { [K in KnownEntry["type"]]: z.ZodType<Extract<KnownEntry, { type: K }>> } = {
		user: z.looseObject({
			...base,
			type: z.literal("user"),
			content: z.string(),
			// Only how the message is shown: a malformed value is dropped, never the message.
			pastes: z
				.array(z.object({ start: z.number().int().nonnegative(), end: z.number().int().nonnegative() }))
				.optional()
				.catch(undefined),
		}),
		// Tolerates block types from a newer gar, which AssistantBlock does not name: consumers skip unknown blocks.
		assistant: z.looseObject({
			...base,
			type: z.literal("assistant"),
			content: z.array(blockSchema),
			provider: z.string(),
			model: z.string(),
			usage: usageSchema,
			stopReason: z.enum(["stop", "length", "tool_use", "error", "aborted", "refusal"]),
			error: z.string().optional(),
			costUsd: z.number().nullable().optional(),
		}) as z.ZodType as z.ZodType<AssistantEntry>,
		tool_result: z.looseObject({
			...base,
			type: z.literal("tool_result"),
			callId: z.string(),
			name: z.string(),
			content: z.string(),
			details: z.unknown().optional(),
			isError: z.boolean(),
			durationMs: z.number().optional(),
		}),
		model_change: z.looseObject({ ...base, type: z.literal("model_change"), provider: z.string(), model: z.string() }),
		compaction: z.looseObject({
			...base,
			type: z.literal("compaction"),
			reason: z.string(),
			summary: z.string(),
			firstKeptEntryId: z.string().nullable(),
			tokensBefore: z.number(),
			tokensAfter: z.number(),
			usage: usageSchema.optional(),
		}) as z.ZodType as z.ZodType<CompactionEntry>,
		system_prompt: z.looseObject({
			...base,
			type: z.literal("system_prompt"),
			meta: z.literal(true),
			hash: z.string(),
			text: z.string(),
			parts: z.array(z.looseObject({ source: z.string(), chars: z.number(), tokens: z.number() })),
			toolsHash: z.string(),
			tools: z.array(z.looseObject({ name: z.string() })),
		}) as z.ZodType as z.ZodType<SystemPromptEntry>,
		request: z.looseObject({
			...base,
			type: z.literal("request"),
			meta: z.literal(true),
			requestId: z.string(),
			runId: z.string(),
			turn: z.number(),
			provider: z.string(),
			model: z.string(),
			promptHash: z.string(),
			toolsHash: z.string(),
			params: z.looseObject({}),
			messageCount: z.number(),
			messageTokens: z.number(),
			ttftMs: z.number().nullable(),
			durationMs: z.number(),
			retries: z.number(),
			stopReason: z.string(),
			usage: usageSchema,
			costUsd: z.number().nullable(),
		}) as z.ZodType as z.ZodType<RequestEntry>,
		run: z.looseObject({
			...base,
			type: z.literal("run"),
			meta: z.literal(true),
			runId: z.string(),
			stopReason: z.string(),
			turns: z.number(),
			durationMs: z.number(),
			usage: usageSchema,
			costUsd: z.number().nullable(),
		}) as z.ZodType as z.ZodType<RunEntry>,
		tool_start: z.looseObject({
			...base,
			type: z.literal("tool_start"),
			meta: z.literal(true),
			callId: z.string(),
			name: z.string(),
		}) as z.ZodType as z.ZodType<ToolStartEntry>,
		label: z.looseObject({ ...base, type: z.literal("label"), target: z.string(), label: z.string().nullable() }),
		name: z.looseObject({ ...base, type: z.literal("name"), name: z.string() }),
		leaf: z.looseObject({ ...base, type: z.literal("leaf"), target: z.string().nullable() }),
	};
	const unknownSchema = z.looseObject({ ...base, type: z.string().min(1) });

	const headerSchema = z.looseObject({
		type: z.literal("session"),
		version: z.literal(FORMAT_VERSION),
		id: z.string().min(1),
		cwd: z.string().min(1),
		createdAt: z.string(),
		parent: z.looseObject({ session: z.string(), entry: z.string(), path: z.string().optional() }).optional(),
	});
	return { entrySchemas, unknownSchema, headerSchema };
}

/** Whether this gar knows entries of type `type`. */
export function isKnownType(type: unknown): boolean {
	return typeof type === "string" && KNOWN_TYPES.has(type);
}

/** Deeper than any entry gar writes (tool arguments are bounded at 64 levels); deeper lines are not entries. */
export const MAX_ENTRY_DEPTH = 100;

/**
 * Validates one parsed entry line. Returns the same object (no copy) typed as an entry; a wrapper (UnknownEntry)
 * for a type this gar does not know or a known type whose fields do not fit (so its children keep their parent);
 * undefined when the line is not an entry at all (no id, parentId, ts or type) or nests deeper than MAX_ENTRY_DEPTH.
 */
export function parseEntry(value: unknown): SessionEntry | undefined {
	if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
	if (nestsDeeperThan(value, MAX_ENTRY_DEPTH)) return undefined;
	const record = value as Record<string, unknown>;
	const type = record.type;
	if (typeof type !== "string") return undefined;
	const { entrySchemas, unknownSchema } = schemas();
	if (KNOWN_TYPES.has(type)) {
		const schema = entrySchemas[type as KnownEntry["type"]];
		const parsed = schema.safeParse(value);
		if (parsed.success) {
			// `pastes` only says how a message is shown: a malformed one is dropped here, the message kept.
			if (type === "user" && (parsed.data as UserEntry).pastes === undefined) delete record.pastes;
			return value as KnownEntry;
		}
	}
	if (type === "session" || !unknownSchema.safeParse(value).success) return undefined;
	const { id, parentId, ts } = record as Base;
	return { type: "unknown", id, parentId, ts, meta: record.meta === true, raw: record };
}

/**
 * Validates line 1. Throws SessionError: "newer_format" when the major version is higher than ours (checked
 * before the shape, which a newer major may have changed), "bad_header" when it is not a gar session header.
 */
export function parseHeader(value: unknown, file: string): SessionHeader {
	const header = typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
	if (header.type === "session" && typeof header.version === "number" && header.version > FORMAT_VERSION) {
		const name = typeof header.id === "string" ? `${header.id} (${file})` : file;
		throw new SessionError(
			`session ${name} was written by a newer gar (format ${header.version}); this gar reads format ${FORMAT_VERSION} — upgrade gar`,
			"newer_format",
		);
	}
	const parsed = schemas().headerSchema.safeParse(value);
	if (!parsed.success) {
		throw new SessionError(`${file} is not a gar session: line 1 is not a valid session header`, "bad_header");
	}
	return value as SessionHeader;
}
