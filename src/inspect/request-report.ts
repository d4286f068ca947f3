import type { RequestInfo, SystemPart } from "../agent/events.js";
import type { KeptRequest } from "../agent/model-call.js";
import { estimateTokens, messageChars } from "../agent/request-info.js";
import type { Message, ModelRequest, ToolSpec } from "../llm/types.js";
import { bodySha256, bodyText, wireBody } from "../llm/wire-body.js";
import {
	buildContext,
	type CompactionEntry,
	isConversation,
	type NodeEntry,
	type RequestEntry,
	SECRET_MARKER,
	type Session,
	type SessionContext,
	SessionError,
	type SystemPromptEntry,
	summaryOf,
} from "../session/index.js";
import { firstLine } from "../view/format.js";
import type { BodyOrigin, MessageRow, RequestReport, ResponseFacts } from "../view/request-view.js";

/**
 * What a report is built from: the session and its request record (a past call, rebuilt), the request kept in
 * memory (one of the last 8 of a running gar: exact), the `request` event's summary and the response of a call not
 * recorded (an unsaved conversation, a call still streaming). Any of them may be missing.
 */
export type ReportSource = {
	session?: Session;
	record?: RequestEntry;
	live?: Readonly<KeptRequest>;
	info?: RequestInfo;
	response?: ResponseFacts;
};

/** The request records of a session, in the order the calls were made. */
export function requestRecords(session: Session): RequestEntry[] {
	return session.entries.filter((entry): entry is RequestEntry => entry.type === "request");
}

/** Which call: its request id, the nth of the session (1-based; negative counts from the end), or the last. */
export type RequestSelector = { id?: string; nth?: number };

/** The request record a selector names; a SessionError ("not_found") naming what exists otherwise. */
export function findRequest(session: Session, selector: RequestSelector): RequestEntry {
	const records = requestRecords(session);
	const name = session.header.id;
	if (records.length === 0) {
		throw new SessionError(
			`session ${name} has no model calls recorded yet (gar show ${name} prints its entries)`,
			"not_found",
		);
	}
	if (selector.id !== undefined) {
		const found = records.find((r) => r.requestId === selector.id);
		if (found) return found;
		throw new SessionError(
			`no request ${selector.id} in session ${name}; \`gar request ${name}\` lists its ${records.length} requests (and \`gar show ${name}\` its entries)`,
			"not_found",
		);
	}
	const nth = selector.nth ?? -1;
	const index = nth < 0 ? records.length + nth : nth - 1;
	const found = records[index];
	if (found && nth !== 0) return found;
	throw new SessionError(
		`session ${name} has ${records.length} requests: --turn takes 1 to ${records.length} (or -1 for the last)`,
		"not_found",
	);
}

/** The system prompt record a request used, and one with its tool definitions (the same one, normally). */
function promptRecords(session: Session | undefined, promptHash: string, toolsHash: string) {
	let prompt: SystemPromptEntry | undefined;
	let tools: SystemPromptEntry | undefined;
	for (const entry of session?.entries ?? []) {
		if (entry.type !== "system_prompt") continue;
		if (entry.hash === promptHash) prompt = entry;
		if (entry.toolsHash === toolsHash) tools ??= entry;
	}
	return { prompt, tools: prompt?.toolsHash === toolsHash ? prompt : tools };
}

/** The entry the call's context ended at: the parent of the reply its record follows (null: an empty path). */
function contextLeaf(session: Session, record: RequestEntry): string | null | undefined {
	const reply = record.parentId === null ? undefined : session.get(record.parentId);
	return reply?.type === "assistant" ? reply.parentId : undefined;
}

/**
 * The context the session's tree gives for a call: the path its reply hangs on; for a call kept in memory and not
 * recorded yet (still streaming), the current path. Undefined when the tree cannot say (an older gar's session
 * without request records, a damaged file).
 */
function treeContext(
	session: Session | undefined,
	record: RequestEntry | undefined,
	live: boolean,
): SessionContext | undefined {
	if (!session) return undefined;
	try {
		if (!record) return live ? buildContext(session) : undefined;
		const leaf = contextLeaf(session, record);
		return leaf === undefined ? undefined : buildContext(session, leaf);
	} catch {
		return undefined;
	}
}

/** The entries on the path a compaction summary stands for: the messages before its first kept entry. */
function replacedBy(session: Session, compaction: CompactionEntry): MessageRow["replaces"] {
	const path = session.pathTo(compaction.parentId);
	const keptAt =
		compaction.firstKeptEntryId === null ? -1 : path.findIndex((e) => e.id === compaction.firstKeptEntryId);
	const before = keptAt < 0 ? path : path.slice(0, keptAt);
	const messages = before.filter(
		(entry: NodeEntry) => isConversation(entry) && entry.type !== "model_change" && entry.type !== "compaction",
	);
	return { count: messages.length, first: messages[0]?.id ?? null, last: messages.at(-1)?.id ?? null };
}

/** The first line of a text, shortened: enough for a person to recognise it. */
function firstWords(text: string): string {
	return firstLine(text.trimStart(), 60);
}

/** What a message is, in a few words. */
function kindOf(message: Message, session: Session | undefined, entryId: string | null): string {
	if (message.role === "user") {
		if (summaryOf(message) !== undefined) return "summary";
		const entry = entryId ? session?.get(entryId) : undefined;
		return entry?.type === "user" ? (entry.source ?? "prompt") : "prompt";
	}
	if (message.role === "tool_result") return `result ${message.name}${message.isError ? " (error)" : ""}`;
	const calls = message.content.filter((b) => b.type === "tool_call").length;
	const parts = [
		message.content.some((b) => b.type === "thinking") ? "thinking" : "",
		message.content.some((b) => b.type === "text") ? "text" : "",
		calls > 0 ? `${calls} tool call${calls === 1 ? "" : "s"}` : "",
	].filter(Boolean);
	return parts.join(" + ") || (message.error ? "error" : "empty");
}

/** The first words of a message, for a person to recognise it. */
function previewOf(message: Message): string {
	if (message.role === "assistant") {
		const text = message.content.find((b) => b.type === "text");
		if (text?.type === "text") return firstWords(text.text);
		const call = message.content.find((b) => b.type === "tool_call");
		return call?.type === "tool_call" ? firstWords(`${call.name} ${JSON.stringify(call.arguments)}`) : "";
	}
	return firstWords(summaryOf(message) ?? message.content);
}

/** The messages of a request as the viewer lists them; O(messages) once per report. */
function messageRows(
	messages: readonly Message[],
	entryIds: readonly (string | null)[],
	source: ReportSource,
	context: SessionContext | undefined,
) {
	const items = messages.map((message, i): MessageRow => {
		const entryId = entryIds[i] ?? null;
		const row: MessageRow = {
			index: i + 1,
			role: message.role,
			kind: kindOf(message, source.session, entryId),
			entryId,
			tokens: estimateTokens(messageChars(message)),
			preview: previewOf(message),
		};
		if (i === 0 && context?.compaction && source.session && summaryOf(message) !== undefined) {
			row.replaces = replacedBy(source.session, context.compaction);
		}
		return row;
	});
	return { tokens: items.reduce((sum, row) => sum + row.tokens, 0), items };
}

function partsWithTokens(parts: readonly SystemPart[]): SystemPart[] {
	return parts.map(({ source, path, chars, tokens }) => ({
		source,
		...(path === undefined ? {} : { path }),
		chars,
		tokens,
	}));
}

function toolItems(tools: readonly ToolSpec[]) {
	const items = tools.map((tool) => ({ name: tool.name, tokens: estimateTokens(JSON.stringify(tool).length) }));
	return { tokens: items.reduce((sum, item) => sum + item.tokens, 0), items };
}

/** Why a rebuilt body may not be the one sent, as far as the session shows it. */
function differences(text: string, record: RequestEntry, context: SessionContext | undefined): string[] {
	const reasons: string[] = [];
	if (context && context.messages.length !== record.messageCount) {
		reasons.push(
			`the call sent ${record.messageCount} messages and the session's tree gives ${context.messages.length} (a compaction that could not be saved, or entries that failed to save)`,
		);
	}
	if (text.includes(SECRET_MARKER)) {
		reasons.push("the session hides secrets in what it saves (shown as [redacted]) and the request had them");
	}
	if (reasons.length === 0) {
		reasons.push("this gar builds the body differently from the gar that sent it (another version or model table)");
	}
	return reasons;
}

/** The response facts of a recorded call. */
function recordedResponse(record: RequestEntry, session: Session | undefined): ResponseFacts {
	const reply = record.parentId === null ? undefined : session?.get(record.parentId);
	const error = reply?.type === "assistant" ? reply.error : undefined;
	return {
		stopReason: record.stopReason,
		...(record.errorKind === undefined ? {} : { errorKind: record.errorKind }),
		...(error === undefined ? {} : { error }),
		usage: record.usage,
		costUsd: record.costUsd,
		startedAt: record.startedAt,
		ttftMs: record.ttftMs,
		durationMs: record.durationMs,
		retries: record.retries,
	};
}

/** The body and how it is known: kept in memory, or rebuilt from the session and checked against the hash sent. */
function bodyOf(
	source: ReportSource,
	request: ModelRequest | undefined,
	context: SessionContext | undefined,
	missing: string[],
): { body: unknown; origin: BodyOrigin } {
	const { live, record } = source;
	if (live) {
		const body = live.provider.body?.(live.request);
		if (body === undefined)
			return { body, origin: { kind: "unknown", reasons: [`the ${live.provider.name} provider has no wire body`] } };
		const sent = live.sent?.bodySha256;
		if (sent && bodySha256(bodyText(body)) !== sent) {
			return { body, origin: { kind: "differs", reasons: ["the body built now is not the bytes the SDK sent"] } };
		}
		return { body, origin: { kind: "memory" } };
	}
	if (!request || !record) return { body: undefined, origin: { kind: "unknown", reasons: missing } };
	const body = wireBody(record.provider, request);
	if (body === undefined) {
		return { body, origin: { kind: "unknown", reasons: [`this gar does not speak the ${record.provider} wire`] } };
	}
	if (!record.bodySha256) {
		const why = "the session holds no hash of the body sent (an older gar wrote it, or the call was never sent)";
		return { body, origin: { kind: "unverified", reasons: [why] } };
	}
	const text = bodyText(body);
	if (bodySha256(text) === record.bodySha256) return { body, origin: { kind: "rebuilt" } };
	return { body, origin: { kind: "differs", reasons: differences(text, record, context) } };
}

/**
 * The report of one model call: from memory when the request is still kept (exact), else rebuilt from the session's
 * records and tree (the system prompt by its hash, the context from the path the reply hangs on, the parameters of
 * the record) and checked against the sha256 recorded when it was sent. What cannot be rebuilt is said, never
 * guessed. O(context) once.
 */
export function requestReport(source: ReportSource): RequestReport {
	const { session, record, live, info } = source;
	const requestId = record?.requestId ?? info?.requestId ?? "unknown";
	const promptHash = record?.promptHash ?? info?.system.hash ?? "";
	const toolsHash = record?.toolsHash ?? info?.tools.hash ?? "";
	const stored = promptRecords(session, promptHash, toolsHash);
	const context = treeContext(session, record, live !== undefined);
	const messages = live?.request.messages ?? context?.messages;
	const missing: string[] = [];
	if (!session) missing.push("the conversation is not saved, and only its last 8 calls are kept in memory");
	else {
		if (!stored.prompt) missing.push("the system prompt was not recorded in the session");
		if (!stored.tools) missing.push("the tool definitions were not recorded in the session");
		if (!context) missing.push("the session's tree does not say which entries the call sent");
	}
	const params = record?.params ?? info?.params ?? { maxTokens: null, thinking: null };
	const model = record?.requestedModel ?? info?.model ?? record?.model ?? "unknown";
	const request: ModelRequest | undefined =
		stored.prompt && stored.tools && context
			? {
					model,
					system: stored.prompt.text,
					messages: context.messages,
					tools: stored.tools.tools,
					...(params.maxTokens === null ? {} : { maxTokens: params.maxTokens }),
					...(params.thinking === null ? {} : { thinking: params.thinking }),
					...(params.responseSchema ? { responseSchema: params.responseSchema } : {}),
				}
			: undefined;
	const { body, origin } = bodyOf(source, request, context, missing);
	const sameContext = context && messages && context.messages.length === messages.length;
	const systemParts = info?.system.parts ?? stored.prompt?.parts;
	const tools = live?.request.tools ?? stored.tools?.tools;
	return {
		requestId,
		turn: record?.turn ?? info?.turn ?? 0,
		provider: record?.provider ?? info?.provider ?? live?.provider.name ?? "unknown",
		model,
		params,
		origin,
		body,
		sent: {
			...(live?.sent ? { url: live.sent.url, headers: live.sent.headers } : {}),
			...((live?.sent?.bodySha256 ?? record?.bodySha256)
				? { bodySha256: live?.sent?.bodySha256 ?? record?.bodySha256 }
				: {}),
			...((live?.sent?.bodyBytes ?? record?.bodyBytes) !== undefined
				? { bodyBytes: live?.sent?.bodyBytes ?? record?.bodyBytes }
				: {}),
		},
		system: systemParts
			? { tokens: systemParts.reduce((s, p) => s + p.tokens, 0), parts: partsWithTokens(systemParts) }
			: null,
		tools: tools ? toolItems(tools) : null,
		messages: messages
			? messageRows(messages, sameContext ? context.entryIds : messages.map(() => null), source, context)
			: null,
		response: record ? recordedResponse(record, session) : (source.response ?? null),
	};
}
