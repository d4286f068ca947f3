import type { SubagentTotals } from "../llm/spend.js";
import type { ToolCallBlock, ToolResultMessage } from "../llm/types.js";
import { previewTool, runTool } from "../tools/index.js";
import type { AnyTool, ToolPreview, ToolResult } from "../tools/types.js";
import type { EventChannel } from "./channel.js";
import type { ToolOutcome } from "./events.js";
import type { LoopGuard } from "./loop-guard.js";
import type { MessageQueue } from "./queue.js";

/** A mutating call waiting for the person's decision, with what it would do. */
export type ApprovalRequest = { callId: string; name: string; args: Record<string, unknown>; preview: ToolPreview };
/** `remember`: allow this tool for the rest of the session; `stop`: deny and stop the run. */
export type ApprovalDecision = { approved: boolean; reason?: string; remember?: boolean; stop?: boolean };
/** The approval policy: which tools must ask, and how to ask. `ask` should settle when `signal` aborts. */
export type Approval = {
	needed(tool: string): boolean;
	ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision>;
};

export const SKIPPED = "Skipped: the user sent a new message before this call ran. Re-issue it if it is still needed.";
export const NOT_RUN_ABORT = "Not run: the run was aborted before this call started.";
const NOT_RUN_STOPPED = "Not run: the run was stopped before this call started.";

type RunnerOptions = {
	tools: readonly AnyTool[];
	channel: EventChannel;
	now: () => number;
	guard: LoopGuard;
	queue: MessageQueue;
	approval?: Approval;
	/** Appends a tool result to the context. */
	push: (message: ToolResultMessage) => void;
	/** Shortens a tool's result before it enters the context (a share of the window; see compaction/result-cap). */
	limit?: (content: string, tool: string) => string;
	/** Told what the sub-agents of a command reported (its result's details say it). */
	subagents?: (totals: SubagentTotals) => void;
};

/** An error result made by the loop itself (unknown tool, unparseable arguments, a skipped call). */
const note = (content: string): ToolResult => ({ content, details: null, isError: true });

/**
 * Runs one reply's tool calls in order, each with exactly one terminal `tool_end`: asks for approval (with a
 * preview) where the policy says so, emits `tool_start` only when a tool really starts, skips the rest after a
 * steer, and marks calls never started because of an abort or the loop guard as not run.
 */
export class ToolRunner {
	constructor(private readonly o: RunnerOptions) {}

	/** Runs the calls; returns the loop guard's reason when it stopped the run, else undefined. */
	async run(calls: ToolCallBlock[], signal: AbortSignal): Promise<string | undefined> {
		let skip: { outcome: ToolOutcome; content: string } | undefined;
		let stopped: string | undefined;
		for (const call of calls) {
			if (!skip && signal.aborted) skip = { outcome: "not_run", content: NOT_RUN_ABORT };
			if (skip) {
				this.end(call, skip.outcome, note(skip.content), 0);
				continue;
			}
			const verdict = this.o.guard.check(call.name, call.arguments);
			if (verdict.action === "stop") {
				stopped = verdict.reason;
				this.end(call, "not_run", note(`Not run: ${verdict.reason}.`), 0);
				skip = { outcome: "not_run", content: NOT_RUN_STOPPED };
				continue;
			}
			await this.runOne(call, signal, verdict.action === "warn" ? verdict.note : undefined);
			if (this.o.queue.hasSteer()) skip = { outcome: "skipped", content: SKIPPED };
		}
		return stopped;
	}

	private async runOne(call: ToolCallBlock, signal: AbortSignal, guardNote: string | undefined): Promise<void> {
		const { channel } = this.o;
		const tool = this.o.tools.find((t) => t.name === call.name);
		if (!tool) {
			const names = this.o.tools.map((t) => t.name).join(", ");
			this.end(call, "error", note(`Unknown tool "${call.name}". Available tools: ${names}.`), 0);
			return;
		}
		if (call.rawArguments !== undefined) {
			const shown = call.rawArguments.slice(0, 200);
			const text = `The arguments for ${call.name} were not valid JSON: ${shown}\nSend the call again with a JSON object.`;
			this.end(call, "error", note(text), 0);
			return;
		}
		const approval = this.o.approval;
		if (approval && tool.mutating && approval.needed(tool.name)) {
			const decision = await this.ask(approval, tool, call, signal);
			// A "no" that also stopped the run (Esc) is a denial; an abort from elsewhere leaves the call not run.
			if (signal.aborted && !(decision.stop && !decision.approved)) {
				this.end(call, "not_run", note(NOT_RUN_ABORT), 0);
				return;
			}
			if (!decision.approved) {
				const why = decision.reason ? `: ${decision.reason.replace(/[.!]?$/, ".")}` : ".";
				const text = `The user denied this ${call.name} call${why} Do not retry it unchanged.`;
				this.end(call, "denied", note(text), 0);
				return;
			}
		}
		// Timed from here: time spent waiting for the person does not count against the tool. runTool parses the
		// arguments and plans the change again (tools/edit.ts, write.ts): the file may have changed since the preview.
		const started = this.o.now();
		channel.emit({ type: "tool_start", callId: call.id, name: call.name, args: call.arguments });
		const result = await runTool(tool, call.arguments, {
			signal,
			onUpdate: (progress) => channel.emit({ type: "tool_update", callId: call.id, name: call.name, progress }),
		});
		const limited = this.o.limit ? this.o.limit(result.content, call.name) : result.content;
		const content = guardNote ? `${limited}\n\n${guardNote}` : limited;
		this.end(call, result.isError ? "error" : "done", { ...result, content }, this.o.now() - started);
	}

	private async ask(approval: Approval, tool: AnyTool, call: ToolCallBlock, signal: AbortSignal) {
		const preview: ToolPreview = (await previewTool(tool, call.arguments, signal)) ?? {
			kind: "invalid",
			message: `${tool.name} has no preview`,
		};
		const { channel } = this.o;
		channel.emit({ type: "approval_request", callId: call.id, name: call.name, args: call.arguments, preview });
		let decision: ApprovalDecision;
		try {
			decision = await approval.ask({ callId: call.id, name: call.name, args: call.arguments, preview }, signal);
		} catch (error) {
			decision = { approved: false, reason: error instanceof Error ? error.message : String(error) };
		}
		const { approved, reason, remember, stop } = decision;
		channel.emit({
			type: "approval_result",
			callId: call.id,
			approved,
			...(reason === undefined ? {} : { reason }),
			...(remember ? { remember: true } : {}),
			...(stop ? { stop: true } : {}),
		});
		return decision;
	}

	private end(call: ToolCallBlock, outcome: ToolOutcome, result: ToolResult, durationMs: number): void {
		const { content, details, isError } = result;
		this.o.push({ role: "tool_result", callId: call.id, name: call.name, content, isError });
		if (details?.kind === "bash" && details.subagents) this.o.subagents?.(details.subagents.totals);
		this.o.channel.emit({
			type: "tool_end",
			callId: call.id,
			name: call.name,
			outcome,
			content,
			details,
			isError,
			durationMs,
		});
	}
}
