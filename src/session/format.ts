import { customAlphabet } from "nanoid";
import { z } from "zod";
import type { AssistantBlock, StopReason, Usage } from "../llm/types.js";

/** The major format version this gar reads and writes. Additive changes (new fields, new entry types) keep it. */
export const FORMAT_VERSION = 1;

/** Why a session could not be read, found or changed. `code` lets the CLI choose an exit code and wording. */
export class SessionError extends Error {
	override readonly name = "SessionError";
	constructor(
		message: string,
		readonly code: "newer_format" | "bad_header" | "not_found" | "ambiguous" | "invalid",
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
export type UserEntry = Base & { type: "user"; content: string };
export type AssistantEntry = Base & {
	type: "assistant";
	content: AssistantBlock[];
	provider: string;
	model: string;
	usage: Usage;
	stopReason: StopReason;
	error?: string;
	costUsd?: number | null;
};
export type ToolResultEntry = Base & {
	type: "tool_result";
	callId: string;
	name: string;
	/** What the model read. */
	content: string;
	/** What the UI shows (diff, exit code, truncation facts). Never sent to a model. */
	details?: unknown;
	isError: boolean;
	durationMs?: number;
};
export type ModelChangeEntry = Base & { type: "model_change"; provider: string; model: string };
/** Metadata: sets (or with `label: null` clears) the label of `target`. */
export type LabelEntry = Base & { type: "label"; target: string; label: string | null };
/** Metadata: names the session; the latest wins. */
export type NameEntry = Base & { type: "name"; name: string };
/** Metadata: moves the current leaf to `target` (null = the next message starts a new root). */
export type LeafEntry = Base & { type: "leaf"; target: string | null };
/**
 * In memory only: an entry whose type this gar does not know (written by a newer gar). `raw` is the line as read;
 * it is kept as a tree node but never sent to a model.
 */
export type UnknownEntry = Base & { type: "unknown"; raw: Record<string, unknown> };

/** Entries that form the conversation path and advance the leaf. */
export type ConversationEntry = UserEntry | AssistantEntry | ToolResultEntry | ModelChangeEntry;
export type MetadataEntry = LabelEntry | NameEntry | LeafEntry;
export type KnownEntry = ConversationEntry | MetadataEntry;
export type SessionEntry = KnownEntry | UnknownEntry;
/** Tree nodes: entries that can have children (conversation entries and unknown ones). */
export type NodeEntry = ConversationEntry | UnknownEntry;

export function isConversation(entry: SessionEntry): entry is ConversationEntry {
	return entry.type !== "unknown" && !isMetadata(entry);
}
export function isMetadata(entry: SessionEntry): entry is MetadataEntry {
	return entry.type === "label" || entry.type === "name" || entry.type === "leaf";
}
export function isNode(entry: SessionEntry): entry is NodeEntry {
	return !isMetadata(entry);
}

/** The object to write for an entry: unknown entries are written back exactly as they were read. */
export function toRecord(entry: SessionEntry): object {
	return entry.type === "unknown" ? entry.raw : entry;
}

// Schemas are loose: fields added by a newer minor version are kept and ignored.
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
});

const entrySchemas: { [K in KnownEntry["type"]]: z.ZodType<Extract<KnownEntry, { type: K }>> } = {
	user: z.looseObject({ ...base, type: z.literal("user"), content: z.string() }),
	// Tolerates block types from a newer gar, which AssistantBlock does not name: consumers skip unknown blocks.
	assistant: z.looseObject({
		...base,
		type: z.literal("assistant"),
		content: z.array(blockSchema),
		provider: z.string(),
		model: z.string(),
		usage: usageSchema,
		stopReason: z.enum(["stop", "length", "tool_use", "error", "aborted"]),
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

/**
 * Validates one parsed entry line. Returns the same object (no copy) typed as an entry, a wrapper for a type this
 * gar does not know, or undefined when the line is invalid.
 */
export function parseEntry(value: unknown): SessionEntry | undefined {
	if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
	const record = value as Record<string, unknown>;
	const type = record.type;
	if (typeof type !== "string") return undefined;
	if (Object.hasOwn(entrySchemas, type)) {
		const schema = entrySchemas[type as KnownEntry["type"]];
		return schema.safeParse(value).success ? (value as KnownEntry) : undefined;
	}
	if (type === "session" || !unknownSchema.safeParse(value).success) return undefined;
	const { id, parentId, ts } = record as Base;
	return { type: "unknown", id, parentId, ts, raw: record };
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
	const parsed = headerSchema.safeParse(value);
	if (!parsed.success) {
		throw new SessionError(`${file} is not a gar session: line 1 is not a valid session header`, "bad_header");
	}
	return value as SessionHeader;
}
