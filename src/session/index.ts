export { SECRET_MARKER } from "../text/secrets.js";
export { type FolderListing, INDEX_FILE, type ListedSession, type UnreadableSession } from "./catalog.js";
export {
	assistantMessageOf,
	buildContext,
	chosenModel,
	INTERRUPTED,
	knownBlocks,
	type ModelRef,
	NOT_RUN,
	type SessionContext,
	SUMMARY_PREFACE,
	summaryMessage,
	summaryOf,
	toolCallsOf,
} from "./context.js";
export { type ForkOptions, forkSession } from "./fork.js";
export {
	type AssistantEntry,
	type CompactionEntry,
	type CompactionReason,
	type ConversationEntry,
	FORMAT_VERSION,
	type HookRecordEntry,
	isConversation,
	isMetadata,
	isNode,
	type LabelEntry,
	type LeafEntry,
	type MetadataEntry,
	type ModelChangeEntry,
	type NameEntry,
	type NodeEntry,
	type ParentRef,
	type RecordEntry,
	type RequestEntry,
	type RewindEntry,
	type RunEntry,
	type SessionEntry,
	SessionError,
	type SessionHeader,
	type SystemPromptEntry,
	type ToolResultEntry,
	type ToolStartEntry,
	type UnknownEntry,
	type UserEntry,
} from "./format.js";
export { loadSession, loadSessionSliced } from "./load.js";
export {
	type Catalog,
	findLatestSession,
	infoOf,
	type ListOptions,
	listSessions,
	type ResolvedSession,
	readCatalog,
	readHeader,
	readPrompts,
	readSessionInfo,
	resolveSession,
	type SessionInfo,
} from "./ops.js";
export { idFromFileName, projectSlug, sessionDirFor } from "./paths.js";
export { type LastExchange, readLastExchange } from "./preview.js";
export { type EventSource, SessionRecorder, type WriteFailure } from "./recorder.js";
export { redactSecrets } from "./redact.js";
export { type ReplayEvent, replayEvents } from "./replay.js";
export { resolveEntry } from "./resolve-entry.js";
export { Session } from "./session.js";
export { type SessionSummary, summarize } from "./summary.js";
export { readSessionTail, TAIL_BYTES } from "./tail.js";
export { listTrash, moveToTrash, restoreFromTrash, type TrashedSession, trashDirOf } from "./trash.js";
export {
	type Clock,
	type CreateSessionOptions,
	maskSecrets,
	type OpenSessionOptions,
	SessionWriter,
	type ToolResultInput,
} from "./writer.js";
