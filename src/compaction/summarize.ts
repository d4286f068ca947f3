import { costUsd, type Pricing } from "../llm/models.js";
import { type AssistantMessage, EMPTY_USAGE, type Provider, textOf, type Usage } from "../llm/types.js";

const SYSTEM = `You summarize a conversation between a person and a coding agent so that the agent can continue the work \
from your summary alone. Be precise and complete but brief: keep names of files, functions, commands, error messages \
and numbers exactly as they were. Do not continue the conversation; do not call tools. Answer with the summary only, \
in this structure (use "none" for an empty section):

## Goal
## Constraints and preferences
## Done
## In progress
## Decisions
## Next steps`;

export type SummaryRequest = {
	provider: Provider;
	model: string;
	/** The config's prices, for a model gar's table does not price. */
	prices?: Pricing;
	/** The older part of the conversation, as text (see serializeMessages). */
	conversation: string;
	/** The summary made by the previous compaction: updated with the conversation, not summarized again. */
	previous?: string;
	/** What the person wants the summary to focus on (`/compact TEXT`). */
	focus?: string;
	maxTokens?: number;
	signal: AbortSignal;
};

export type SummaryResult =
	| { ok: true; summary: string; usage: Usage; costUsd: number | null }
	| { ok: false; error: string; aborted: boolean; overflow: boolean; usage: Usage; costUsd: number | null };

/** The one user message of a summary request. */
function prompt(request: SummaryRequest): string {
	const parts: string[] = [];
	if (request.previous) {
		parts.push(
			`<previous-summary>\n${request.previous}\n</previous-summary>`,
			`<conversation-since>\n${request.conversation}\n</conversation-since>`,
			"Update the previous summary with what happened since: keep what still holds, add what is new, move finished work to Done.",
		);
	} else {
		parts.push(`<conversation>\n${request.conversation}\n</conversation>`, "Summarize this conversation.");
	}
	if (request.focus) parts.push(`Focus especially on: ${request.focus}`);
	return parts.join("\n\n");
}

/**
 * Asks the model for a structured summary (no tools, its own system prompt, the conversation as text). Never
 * throws: a failed, aborted or empty answer is a result with `ok: false`, and the tokens it used are counted.
 */
export async function summarize(request: SummaryRequest): Promise<SummaryResult> {
	const { provider, model, signal } = request;
	let final: AssistantMessage | undefined;
	try {
		const stream = provider.stream({
			model,
			system: SYSTEM,
			messages: [{ role: "user", content: prompt(request) }],
			tools: [],
			signal,
			...(request.maxTokens ? { maxTokens: request.maxTokens } : {}),
		});
		for await (const event of stream) if (event.type === "done") final = event.message;
	} catch (error) {
		// Providers must not throw; one that does still ends the compaction with its reason.
		const why = error instanceof Error ? error.message : String(error);
		return { ok: false, error: why, aborted: signal.aborted, overflow: false, usage: EMPTY_USAGE, costUsd: 0 };
	}
	const usage = final?.usage ?? EMPTY_USAGE;
	const cost = final ? (final.reportedCostUsd ?? costUsd(final.model, usage, request.prices)) : 0;
	const text = final ? textOf(final).trim() : "";
	if (final && final.stopReason !== "error" && final.stopReason !== "aborted" && text !== "" && !signal.aborted) {
		return { ok: true, summary: text, usage, costUsd: cost };
	}
	const aborted = signal.aborted || final?.stopReason === "aborted";
	const error = aborted
		? "aborted"
		: (final?.error ?? (final ? "the model answered with an empty summary" : "the summary request gave no answer"));
	return { ok: false, error, aborted, overflow: final?.errorKind === "overflow", usage, costUsd: cost };
}
