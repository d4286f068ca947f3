import type { AgentEvent } from "../agent/events.js";
import { addUsage, EMPTY_USAGE, type Usage } from "../llm/types.js";
import {
	addTotals,
	appendReport,
	NO_SUBAGENTS,
	SUBAGENT_ENV,
	type SubagentReport,
	type SubagentTotals,
} from "../tools/subagents.js";

/** What a conversation offers the report: its events, and the session it saves to now. */
export type Reported = {
	channel: { subscribe(listener: (event: AgentEvent) => void): () => void };
	readonly session: { readonly file: string; readonly session: { readonly header: { readonly id: string } } } | null;
};

/**
 * What this gar spent, for the parent gar that runs it (tools/subagents.ts): its own calls (replies and summary
 * requests), turns and time, the last model and session, and what its own sub-agents reported. One per process:
 * every conversation of it (an ACP server holds several) adds to the one line written when the process exits.
 */
class SpendReport {
	private usage: Usage = EMPTY_USAGE;
	private cost: number | null = 0;
	private turns = 0;
	private durationMs = 0;
	private ok = true;
	private provider = "";
	private model = "";
	private subagents: SubagentTotals = NO_SUBAGENTS;
	private last: Reported | null = null;

	constructor(private readonly file: string) {}

	/** Counts `conversation`'s events from now on. */
	follow(conversation: Reported): void {
		this.last ??= conversation;
		conversation.channel.subscribe((event) => this.count(event, conversation));
	}

	private spend(usage: Usage, cost: number | null): void {
		this.usage = addUsage(this.usage, usage);
		this.cost = this.cost === null || cost === null ? null : this.cost + cost;
	}

	private count(event: AgentEvent, conversation: Reported): void {
		switch (event.type) {
			case "agent_start":
				this.last = conversation;
				this.provider = event.provider;
				this.model = event.model;
				break;
			case "message_end":
				this.spend(event.message.usage, event.costUsd);
				break;
			case "compaction_end":
				if (event.usage) this.spend(event.usage, event.costUsd ?? null);
				break;
			case "agent_end":
				this.turns += event.turns;
				this.durationMs += event.durationMs;
				this.ok = event.stopReason === "done";
				if (event.subagents) this.subagents = addTotals(this.subagents, event.subagents);
				break;
		}
	}

	/** The line: what this gar spent itself, and its sub-agents' roll-up apart. */
	report(): SubagentReport {
		const writer = this.last?.session;
		return {
			sessionId: writer?.session.header.id ?? null,
			sessionFile: writer?.file ?? null,
			provider: this.provider,
			model: this.model,
			turns: this.turns,
			usage: this.usage,
			costUsd: this.cost,
			durationMs: this.durationMs,
			ok: this.ok,
			...(this.subagents.runs > 0 ? { subagents: this.subagents } : {}),
		};
	}

	/** Appends the line to the parent's file; a file that is not the parent's private one gets nothing. */
	write(): boolean {
		return appendReport(this.file, this.report());
	}
}

let reporting: SpendReport | undefined;

/**
 * When this gar runs under another (its bash command set SUBAGENT_ENV), counts what `conversation` spends and
 * appends it to the parent's file when the process exits. Without the variable nothing happens.
 */
export function reportToParent(conversation: Reported, env: NodeJS.ProcessEnv): void {
	const file = env[SUBAGENT_ENV];
	if (!file) return;
	if (!reporting) {
		const report = new SpendReport(file);
		reporting = report;
		// 'exit' runs however the process ends by itself (done, failed, a signal handled by gar): synchronous I/O only.
		process.once("exit", () => report.write());
	}
	reporting.follow(conversation);
}

/** For tests: a report that is not tied to the process's exit. */
export function spendReport(file: string): { follow(c: Reported): void; report(): SubagentReport; write(): boolean } {
	return new SpendReport(file);
}
