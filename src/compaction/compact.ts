import type { EventChannel } from "../agent/channel.js";
import type { CompactionReason } from "../agent/events.js";
import type { Pricing } from "../llm/models.js";
import { normalizeHistory } from "../llm/transform.js";
import { EMPTY_USAGE, type Message, type Provider, type Usage } from "../llm/types.js";
import { buildContext, type SessionWriter, summaryMessage, summaryOf } from "../session/index.js";
import { formatTokens } from "../view/format.js";
import { type ContextSettings, contextTokens, estimateMessages, limitsFor } from "./accounting.js";
import { findCut } from "./cut-point.js";
import {
	type FileLists,
	filesTouched,
	fitChars,
	formatFiles,
	parseFiles,
	serializeMessages,
	withoutFiles,
} from "./serialize.js";
import { type SummaryResult, summarize } from "./summarize.js";

/** What the compactor needs from its owner, read at each use (the model and the session can change). */
export type CompactorDeps = {
	channel: EventChannel;
	settings: ContextSettings;
	model: () => { provider: Provider; model: string; contextWindow: number | null; prices?: Pricing };
	/** Estimated tokens of the system prompt and the tool definitions. */
	overhead: () => number;
	session: () => SessionWriter | null;
};

/** How a compaction went. `messages` is the new context; `usage`/`costUsd` are the summary request's. */
export type CompactOutcome =
	| { ok: true; messages: Message[]; tokensBefore: number; tokensAfter: number; usage: Usage; costUsd: number | null }
	| {
			ok: false;
			error: string;
			aborted: boolean;
			/** Nothing could be compacted (no events were emitted). */
			nothing?: boolean;
			tokensBefore: number;
			usage: Usage;
			costUsd: number | null;
	  };

const SUMMARY_MAX_TOKENS = 8192;

type ModelInUse = ReturnType<CompactorDeps["model"]>;

/** What a compaction summarizes: the normalized context, the cut before its kept part, the older part's files. */
type Plan = {
	messages: Message[];
	/** The summary at the head of the context, when there is one: updated, not summarized blindly. */
	previous: string | undefined;
	older: Message[];
	cut: number;
	files: FileLists;
	/** The files list as the summary ends with it. */
	listed: string;
	/** Tokens at which the context is due for compaction. */
	threshold: number;
};

/** A kept summary, as its compaction_end says it. */
type Announced = {
	reason: CompactionReason;
	tokensBefore: number;
	tokensAfter: number;
	summary: string;
	focus: string | undefined;
	model: ModelInUse;
	usage: Usage;
	costUsd: number | null;
};

/** The summary request: its answer fits the reserve, and its conversation fits the window less the answer. */
function requestSummary(
	plan: Plan,
	model: ModelInUse,
	focus: string | undefined,
	signal: AbortSignal,
): Promise<SummaryResult> {
	const { contextWindow } = model;
	// The answer fits the reserve (what the window keeps free beyond the threshold).
	const reserve = contextWindow === null ? SUMMARY_MAX_TOKENS : contextWindow - plan.threshold;
	const maxTokens = Math.min(SUMMARY_MAX_TOKENS, Math.max(1024, reserve));
	// Room for the summary request itself: the window less the answer, at a cautious 3 characters per token.
	const room = contextWindow === null ? Number.MAX_SAFE_INTEGER : Math.max(4000, (contextWindow - maxTokens) * 3);
	const { previous } = plan;
	return summarize({
		provider: model.provider,
		model: model.model,
		...(model.prices ? { prices: model.prices } : {}),
		conversation: fitChars(serializeMessages(plan.older), room - (previous?.length ?? 0)),
		...(previous === undefined ? {} : { previous: withoutFiles(previous) }),
		...(focus ? { focus } : {}),
		maxTokens,
		signal,
	});
}

/**
 * Context accounting and compaction for one conversation: knows how full the context is, summarizes its older
 * part with the current model, and says (through compaction_start/compaction_end, which the session recorder
 * turns into a compaction node) what it did. Never throws; never touches the history it is given.
 */
export class Compactor {
	/** Replies before this index were counted against a context a compaction replaced: their usage is stale. */
	private freshFrom = 0;

	constructor(private readonly deps: CompactorDeps) {}

	get settings(): ContextSettings {
		return this.deps.settings;
	}

	/** Call when the history is replaced (a branch, a resumed session): a summary at its head makes usage stale. */
	reset(messages: readonly Message[]): void {
		this.freshFrom = summaryOf(messages[0]) === undefined ? 0 : messages.length;
	}

	/** The size of the next request, in tokens (see contextTokens). */
	tokens(messages: readonly Message[]): number {
		return contextTokens(messages, this.deps.overhead(), this.freshFrom);
	}

	/** Whether the next request would not fit the window minus the reserve (and auto compaction is on). */
	due(messages: readonly Message[]): boolean {
		const window = this.deps.model().contextWindow;
		if (!this.deps.settings.autoCompact || window === null) return false;
		return this.tokens(messages) > limitsFor(window, this.deps.settings).threshold;
	}

	/**
	 * Summarizes the older part of `history` and returns the new context: the summary, then the recent messages
	 * verbatim. Emits compaction_start and compaction_end (unless there is nothing worth compacting: older turns no
	 * larger than a summary). A summary that would not make the context smaller is a failure: nothing changes.
	 */
	async compact(
		history: readonly Message[],
		options: { reason: CompactionReason; signal: AbortSignal; focus?: string },
	): Promise<CompactOutcome> {
		const { channel } = this.deps;
		const { reason, signal, focus } = options;
		const model = this.deps.model();
		const tokensBefore = this.tokens(history);
		const plan = this.plan(history, reason, model.contextWindow);
		if (typeof plan === "string") {
			return { ok: false, error: plan, aborted: false, nothing: true, tokensBefore, usage: EMPTY_USAGE, costUsd: 0 };
		}
		channel.emit({ type: "compaction_start", reason, tokensBefore, ...(focus ? { focus } : {}) });
		const answer = await requestSummary(plan, model, focus, signal);
		const { usage, costUsd } = answer;
		const fail = (error: string, aborted: boolean): CompactOutcome => {
			const failure = { ok: false as const, tokensBefore, usage, costUsd, reason };
			channel.emit({ type: "compaction_end", ...failure, tokensAfter: tokensBefore, error, aborted });
			return { ...failure, error, aborted };
		};
		if (!answer.ok) {
			const error = answer.overflow
				? `the summary request was itself too long for the model (${answer.error}); lower [context] keep_recent_tokens or start a new session`
				: answer.error;
			return fail(error, answer.aborted);
		}
		const summary = plan.listed ? `${answer.summary}\n\n${plan.listed}` : answer.summary;
		const next = [summaryMessage(summary), ...plan.messages.slice(plan.cut)];
		const tokensAfter = this.deps.overhead() + estimateMessages(next);
		// A summary longer than what it replaces would make every later request cost more: it is not kept.
		if (tokensAfter >= tokensBefore) {
			const sizes = `${formatTokens(tokensBefore)} → ${formatTokens(tokensAfter)} tokens`;
			return fail(`the summary would not make the context smaller (${sizes}); the session is unchanged`, false);
		}
		this.announce(plan, { reason, tokensBefore, tokensAfter, summary, focus, model, usage, costUsd });
		this.freshFrom = next.length;
		return { ok: true, messages: next, tokensBefore, tokensAfter, usage, costUsd };
	}

	/**
	 * What to summarize: the older messages up to a cut that keeps the recent part verbatim, with the files they
	 * touched; or why nothing is worth it (no older turn, or older turns no larger than a summary).
	 */
	private plan(history: readonly Message[], reason: CompactionReason, contextWindow: number | null): Plan | string {
		const messages = normalizeHistory(history);
		const previous = summaryOf(messages[0]);
		const start = previous === undefined ? 0 : 1;
		const limits = limitsFor(contextWindow ?? Number.MAX_SAFE_INTEGER, this.deps.settings);
		// Asked for by the person (/compact), it frees room even when the whole context would fit keep_recent_tokens:
		// at most half of the messages' tokens stay verbatim.
		const keepRecent =
			reason === "manual"
				? Math.min(limits.keepRecent, Math.floor(estimateMessages(messages, start) / 2))
				: limits.keepRecent;
		const cut = findCut(messages, start, keepRecent);
		if (cut === undefined) return "nothing to compact yet: the conversation has no older turn to summarize";
		const older = messages.slice(start, cut);
		const files = filesTouched(older, previous === undefined ? undefined : parseFiles(previous));
		const listed = formatFiles(files);
		// A summary is at least its preface and the files list: older turns no larger are not worth a request.
		const replaced = estimateMessages(messages.slice(0, cut));
		if (replaced <= estimateMessages([summaryMessage(listed)])) {
			return `nothing worth compacting: the older turns come to about ${formatTokens(replaced)} tokens, less than a summary takes`;
		}
		return { messages, previous, older, cut, files, listed, threshold: limits.threshold };
	}

	/** Emits the compaction_end of a kept summary (what the session records as a compaction node). */
	private announce(plan: Plan, done: Announced): void {
		const { channel } = this.deps;
		const { reason, tokensBefore, tokensAfter, summary, focus, model, usage, costUsd } = done;
		const firstKeptEntryId = this.keptEntry(plan.messages, plan.cut);
		channel.emit({
			type: "compaction_end",
			ok: true,
			reason,
			tokensBefore,
			tokensAfter,
			summary,
			...(firstKeptEntryId === undefined ? {} : { firstKeptEntryId }),
			...(focus ? { focus } : {}),
			readFiles: plan.files.read,
			modifiedFiles: plan.files.modified,
			provider: model.provider.name,
			model: model.model,
			usage,
			costUsd,
		});
		if (firstKeptEntryId === undefined && this.deps.session()) {
			const message =
				"the compaction could not be saved (the session file misses entries); a resumed session will not have it";
			channel.emit({ type: "notice", level: "warning", message });
		}
	}

	/**
	 * The session entry of the first kept message (null: none kept), found by rebuilding the session's context,
	 * which must be the same as the conversation's; undefined without a session or when they differ.
	 */
	private keptEntry(messages: readonly Message[], cut: number): string | null | undefined {
		const writer = this.deps.session();
		if (!writer) return undefined;
		let context: ReturnType<typeof buildContext>;
		try {
			context = buildContext(writer.session, writer.leafId);
		} catch {
			return undefined; // a leaf the tree does not know: not saved rather than saved wrong
		}
		if (context.messages.length !== messages.length) return undefined;
		if (cut >= messages.length) return null;
		if (context.messages[cut]?.role !== messages[cut]?.role) return undefined;
		return context.entryIds[cut] ?? undefined;
	}
}
