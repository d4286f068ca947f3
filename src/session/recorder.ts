import type { AgentEvent, RequestInfo } from "../agent/events.js";
import { chosenModel } from "./context.js";
import type { HookRecordEntry, RequestEntry, RunEntry, ToolStartEntry } from "./format.js";
import type { SessionWriter } from "./writer.js";

/** Anything with a synchronous `subscribe`, such as the agent's EventChannel. */
export type EventSource = { subscribe(listener: (event: AgentEvent) => void): () => void };

/** Called when an entry could not be written: the run goes on, but the person must be told. */
export type WriteFailure = (file: string, error: string) => void;

/**
 * Turns the agent's events into session entries: user_message → user (written before the model is called:
 * delivery is synchronous), message_end → assistant plus a request record, tool_start → a tool_start record,
 * tool_end → tool_result, compaction_end (ok) → a compaction node, agent_end → a run record, hook → a hook record
 * (held until a lazy session's first entry); agent_start and model_change → model_change when the model
 * differs from the one chosen on the current path. Entries of a run carry its runId. A failed write is reported
 * to `onFailure` once per run (the next entries are still tried), never thrown into the loop.
 */
export class SessionRecorder {
	private runId: string | undefined;
	private runLimits = { maxTurns: 0, contextWindow: null as number | null };
	private request: RequestInfo | undefined;
	private failedRun: string | null | undefined;

	constructor(
		readonly writer: SessionWriter,
		private readonly onFailure: WriteFailure,
	) {}

	/** Subscribes to `source`; returns the unsubscribe function. */
	attach(source: EventSource): () => void {
		return source.subscribe((event) => this.record(event));
	}

	/** Turns one event into at most two entries; never throws. */
	record(event: AgentEvent): void {
		try {
			this.write(event);
		} catch (error) {
			// Reported once per run: a full disk would otherwise produce one notice per delta-free event.
			if (this.failedRun === (this.runId ?? null)) return;
			this.failedRun = this.runId ?? null;
			this.onFailure(this.writer.file, error instanceof Error ? error.message : String(error));
		}
	}

	private write(event: AgentEvent): void {
		const w = this.writer;
		const runId = this.runId;
		switch (event.type) {
			case "agent_start":
				this.runId = event.runId;
				this.runLimits = { maxTurns: event.maxTurns, contextWindow: event.contextWindow };
				this.modelChange(event.provider, event.model);
				break;
			case "model_change":
				this.modelChange(event.provider, event.model);
				break;
			case "user_message":
				w.appendUser(event.message.content, {
					source: event.source,
					...(runId ? { runId } : {}),
					...(event.pastes ? { pastes: event.pastes } : {}),
				});
				break;
			case "request":
				this.request = event;
				break;
			case "message_end":
				this.reply(event, runId);
				break;
			case "tool_start":
				w.appendRecord<ToolStartEntry>({
					type: "tool_start",
					callId: event.callId,
					name: event.name,
					...(runId ? { runId } : {}),
					...(event.rule === undefined ? {} : { rule: event.rule }),
				});
				break;
			case "tool_end":
				w.appendToolResult({
					callId: event.callId,
					name: event.name,
					content: event.content,
					details: event.details,
					isError: event.isError,
					outcome: event.outcome,
					durationMs: event.durationMs,
					...(runId ? { runId } : {}),
				});
				break;
			case "compaction_end":
				// Only a compaction that knows its first kept entry is saved (see Compactor): failed ones change nothing.
				if (event.ok && event.firstKeptEntryId !== undefined) this.compaction(event, runId);
				break;
			case "agent_end":
				this.runId = undefined;
				this.runRecord(event);
				break;
			case "hook": {
				// A hook before anything was said (SessionStart) must not make a lazy session's file appear alone.
				const { type: _type, ...run } = event;
				w.appendRecordSoon<HookRecordEntry>({ type: "hook", ...(runId ? { runId } : {}), ...run });
				break;
			}
			default:
				break;
		}
	}

	/** A reply: its assistant entry, then the record of its request (the `request` event's summary and timings). */
	private reply(event: Extract<AgentEvent, { type: "message_end" }>, runId: string | undefined): void {
		this.writer.appendAssistant(event.message, event.costUsd, runId);
		const info = this.request?.requestId === event.requestId ? this.request : undefined;
		this.request = undefined;
		this.writer.appendRecord<RequestEntry>({
			type: "request",
			requestId: event.requestId,
			runId: runId ?? "",
			turn: event.turn,
			provider: event.message.provider,
			model: event.message.model,
			...(info && info.model !== event.message.model ? { requestedModel: info.model } : {}),
			promptHash: info?.system.hash ?? "",
			toolsHash: info?.tools.hash ?? "",
			params: info?.params ?? { maxTokens: null, thinking: null },
			messageCount: info?.messages.count ?? 0,
			messageTokens: info?.messages.tokens ?? 0,
			startedAt: event.timing.startedAt,
			ttftMs: event.timing.firstTokenMs,
			durationMs: event.timing.durationMs,
			retries: event.retries,
			stopReason: event.message.stopReason,
			...(event.errorKind === undefined ? {} : { errorKind: event.errorKind }),
			usage: event.message.usage,
			costUsd: event.costUsd,
			...(event.body ? { bodySha256: event.body.sha256, bodyBytes: event.body.bytes } : {}),
		});
	}

	/** The run record: how the run ended, with the limits its agent_start gave. */
	private runRecord(event: Extract<AgentEvent, { type: "agent_end" }>): void {
		this.writer.appendRecord<RunEntry>({
			type: "run",
			runId: event.runId,
			stopReason: event.stopReason,
			turns: event.turns,
			...this.runLimits,
			durationMs: event.durationMs,
			usage: event.usage,
			costUsd: event.costUsd,
			...(event.error === undefined ? {} : { error: event.error }),
			...(event.errorKind === undefined ? {} : { errorKind: event.errorKind }),
			...(event.subagents ? { subagents: event.subagents } : {}),
		});
	}

	private compaction(event: Extract<AgentEvent, { type: "compaction_end" }>, runId: string | undefined): void {
		const { reason, summary, firstKeptEntryId, tokensBefore, tokensAfter, focus, readFiles, modifiedFiles } = event;
		const { provider, model, usage, costUsd } = event;
		this.writer.appendCompaction({
			...(runId ? { runId } : {}),
			reason: reason ?? "manual",
			summary: summary ?? "",
			firstKeptEntryId: firstKeptEntryId ?? null,
			tokensBefore,
			tokensAfter,
			...(focus === undefined ? {} : { focus }),
			...(readFiles === undefined ? {} : { readFiles }),
			...(modifiedFiles === undefined ? {} : { modifiedFiles }),
			...(provider === undefined ? {} : { provider }),
			...(model === undefined ? {} : { model }),
			...(usage === undefined ? {} : { usage }),
			...(costUsd === undefined ? {} : { costUsd }),
		});
	}

	private modelChange(provider: string, model: string): void {
		const current = chosenModel(this.writer.session.pathTo(this.writer.leafId));
		if (current?.provider !== provider || current.model !== model) this.writer.appendModelChange(provider, model);
	}
}
