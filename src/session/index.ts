export { buildContext, chosenModel, knownBlocks, type ModelRef, NOT_RUN, type SessionContext } from "./context.js";
export { type ForkOptions, forkSession } from "./fork.js";
export {
	type AssistantEntry,
	type ConversationEntry,
	FORMAT_VERSION,
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
	type SessionEntry,
	SessionError,
	type SessionHeader,
	type ToolResultEntry,
	type UnknownEntry,
	type UserEntry,
} from "./format.js";
export { loadSession } from "./load.js";
export {
	findLatestSession,
	type ListOptions,
	listSessions,
	type ResolvedSession,
	readSessionInfo,
	resolveSession,
	type SessionInfo,
} from "./ops.js";
export { projectSlug, sessionDirFor } from "./paths.js";
export { redactSecrets } from "./redact.js";
export { type ReplayEvent, replayEvents } from "./replay.js";
export { resolveEntry } from "./resolve-entry.js";
export { Session } from "./session.js";
export {
	type Clock,
	type CreateSessionOptions,
	type EventSource,
	SessionWriter,
	type ToolResultInput,
} from "./writer.js";
