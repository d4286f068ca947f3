import type { PreToolVerdict, StepHooks } from "../hooks/types.js";
import type { SubagentTotals } from "../llm/spend.js";
import type { ToolCallBlock, ToolResultMessage } from "../llm/types.js";
import { previewTool, runTool } from "../tools/index.js";
import type { AnyTool, ToolPreview, ToolResult } from "../tools/types.js";
import type { EventChannel } from "./channel.js";
import type { ApprovalRequest, ToolOutcome } from "./events.js";
import type { LoopGuard } from "./loop-guard.js";
import type { MessageQueue } from "./queue.js";

export type { ApprovalRequest } from "./events.js";
/**
 * `remember`: allow this tool for the rest of the session; `prefixes`: allow commands starting with these, as rules
 * saved to the config; `stop`: deny and stop the run.
 */
export type ApprovalDecision = {
	approved: boolean;
	reason?: string;
	remember?: boolean;
	prefixes?: string[];
	stop?: boolean;
};
/**
 * What the permission rules say of a call before anyone is asked: denied (`reason`, for the model), allowed (`rule`,
 * in words), or nothing (`mustAsk`: a deny rule might match a command gar cannot split; `prefixes` and `note` for
 * the question).
 */
export type RuleCheck =
	| { kind: "deny"; reason: string }
	| { kind: "allow"; rule: string }
	| { kind: "none"; mustAsk?: boolean; prefixes?: string[]; note?: string };
/**
 * The approval policy: which tools must ask, what lasting rules say of a call (absent: no rules), and how to ask.
 * `ask` should settle when `signal` aborts.
 */
export type Approval = {
	needed(tool: string): boolean;
	rules?(call: { name: string; args: Record<string, unknown> }): RuleCheck;
	ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision>;
};

const NO_RULE: RuleCheck = { kind: "none" };

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
	/** PreToolUse and PostToolUse (README "Hooks"); absent: no hooks are configured. */
	hooks?: StepHooks;
};

/** A call ready to run, as the PreToolUse hooks left it: its arguments and what they asked for. */
type Planned = { args: Record<string, unknown>; pre: PreToolVerdict };

/** An error result made by the loop itself (unknown tool, unparseable arguments, a skipped call). */
const note = (content: string): ToolResult => ({ content, details: null, isError: true });

/**
 * Runs one reply's tool calls in order, each with exactly one terminal `tool_end`: asks for approval (with a
 * preview) where the policy says so, emits `tool_start` only when a tool really starts, skips the rest after a
 * steer, and marks calls never started because of an abort or the loop guard as not run.
 */
export class ToolRunner {
	constructor(private readonly o: RunnerOptions) {}

	/** Runs the calls; returns why the run stops (the loop guard, or a hook's `continue: false`), else undefined. */
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
			const hookStop = await this.runOne(call, signal, verdict.action === "warn" ? verdict.note : undefined);
			if (hookStop !== undefined) {
				stopped = hookStop;
				skip = { outcome: "not_run", content: NOT_RUN_STOPPED };
			} else if (this.o.queue.hasSteer()) skip = { outcome: "skipped", content: SKIPPED };
		}
		return stopped;
	}

	/** One call, from its checks to its tool_end; returns why the run stops when a hook stopped it. */
	private async runOne(
		call: ToolCallBlock,
		signal: AbortSignal,
		guardNote: string | undefined,
	): Promise<string | undefined> {
		const tool = this.o.tools.find((t) => t.name === call.name);
		if (!tool) {
			const names = this.o.tools.map((t) => t.name).join(", ");
			this.end(call, "error", note(`Unknown tool "${call.name}". Available tools: ${names}.`), 0);
			return undefined;
		}
		if (call.rawArguments !== undefined) {
			const shown = call.rawArguments.slice(0, 200);
			const text = `The arguments for ${call.name} were not valid JSON: ${shown}\nSend the call again with a JSON object.`;
			this.end(call, "error", note(text), 0);
			return undefined;
		}
		const planned = await this.preTool(tool, call, signal);
		if (typeof planned === "string") return planned === "" ? undefined : planned;
		const approved = await this.approved(tool, call, planned, signal);
		if (!approved) return undefined;
		// Timed from here: time spent waiting for the person does not count against the tool. runTool parses the
		// arguments and plans the change again (tools/edit.ts, write.ts): the file may have changed since the preview.
		const started = this.o.now();
		const { channel } = this.o;
		const { args } = planned;
		const rule = approved.rule === undefined ? {} : { rule: approved.rule };
		channel.emit({ type: "tool_start", callId: call.id, name: call.name, args, ...rule });
		const result = await runTool(tool, args, {
			signal,
			onUpdate: (progress) => channel.emit({ type: "tool_update", callId: call.id, name: call.name, progress }),
		});
		const limited = this.o.limit ? this.o.limit(result.content, call.name) : result.content;
		const post = await this.o.hooks?.afterTool(
			{ id: call.id, name: call.name, args },
			{
				content: limited,
				isError: result.isError,
				outcome: result.isError ? "error" : "done",
				details: result.details,
			},
			signal,
		);
		const added = [planned.pre.context, post?.feedback, guardNote].filter((text): text is string => !!text);
		const content = added.length > 0 ? `${limited}\n\n${added.join("\n\n")}` : limited;
		this.end(call, result.isError ? "error" : "done", { ...result, content }, this.o.now() - started);
		return post?.stop;
	}

	/**
	 * The PreToolUse hooks of a call: the arguments to run it with, and what the hooks asked for; or, when the call
	 * ends here (denied, arguments the tool refuses, aborted), why the run stops ("" when it goes on).
	 */
	private async preTool(tool: AnyTool, call: ToolCallBlock, signal: AbortSignal): Promise<Planned | string> {
		const hooks = this.o.hooks;
		if (!hooks) return { args: call.arguments, pre: {} };
		const pre = await hooks.beforeTool({ id: call.id, name: call.name, args: call.arguments }, signal);
		if (signal.aborted) {
			this.end(call, "not_run", note(NOT_RUN_ABORT), 0);
			return "";
		}
		if (pre.stop !== undefined) {
			this.end(call, "denied", note(`Not run: ${pre.stop}. The run stops here.`), 0);
			return pre.stop;
		}
		if (pre.decision === "deny") {
			const by = (pre.reason ?? "a PreToolUse hook").replace(/[.!]?\s*$/, ".");
			const text = `This ${call.name} call was blocked by ${by} Do not retry it unchanged.`;
			this.end(call, "denied", note(text), 0);
			return "";
		}
		if (!pre.updatedInput) return { args: call.arguments, pre };
		// Never run with half-valid arguments: what a hook asks for is checked like the model's own.
		const checked = tool.parameters.safeParse(pre.updatedInput);
		if (!checked.success) {
			const why = checked.error.issues.map((issue) => `${issue.path.join(".") || "(arguments)"}: ${issue.message}`);
			const text = `Not run: a PreToolUse hook changed the arguments of this ${call.name} call to ones the tool refuses (${why.join("; ")}).`;
			this.end(call, "denied", note(text), 0);
			return "";
		}
		return { args: pre.updatedInput, pre };
	}

	/**
	 * Asks for approval where the policy or a hook says so (a hook's "allow" skips the policy's question, its "ask"
	 * asks even where the policy would not); a deny rule denies first, and an allow rule answers any question. Ends
	 * the call and returns false when it may not run; else the rule that let it run without asking, if one did.
	 */
	private async approved(
		tool: AnyTool,
		call: ToolCallBlock,
		planned: Planned,
		signal: AbortSignal,
	): Promise<false | { rule?: string }> {
		const { approval } = this.o;
		const { decision, reason } = planned.pre;
		const ruled = approval?.rules?.({ name: call.name, args: planned.args }) ?? NO_RULE;
		if (ruled.kind === "deny") {
			this.end(call, "denied", note(ruled.reason), 0);
			return false;
		}
		const asks =
			decision === "ask" ||
			(ruled.kind === "none" && ruled.mustAsk === true) ||
			(decision !== "allow" && tool.mutating && approval?.needed(tool.name) === true);
		if (!asks) return {};
		if (ruled.kind === "allow") return { rule: ruled.rule };
		const hookReason = decision === "ask" ? reason : undefined;
		const answer: ApprovalDecision = approval
			? await this.ask(approval, tool, call, planned.args, signal, hookReason, ruled)
			: { approved: false, reason: "a hook asked for approval and there is no one to ask" };
		// A "no" that also stopped the run (Esc) is a denial; an abort from elsewhere leaves the call not run.
		if (signal.aborted && !(answer.stop && !answer.approved)) {
			this.end(call, "not_run", note(NOT_RUN_ABORT), 0);
			return false;
		}
		if (answer.approved) return {};
		const why = answer.reason ? `: ${answer.reason.replace(/[.!]?$/, ".")}` : ".";
		this.end(call, "denied", note(`The user denied this ${call.name} call${why} Do not retry it unchanged.`), 0);
		return false;
	}

	private async ask(
		approval: Approval,
		tool: AnyTool,
		call: ToolCallBlock,
		args: Record<string, unknown>,
		signal: AbortSignal,
		reason: string | undefined,
		ruled: RuleCheck,
	): Promise<ApprovalDecision> {
		const preview: ToolPreview = (await previewTool(tool, args, signal)) ?? {
			kind: "invalid",
			message: `${tool.name} has no preview`,
		};
		const request: ApprovalRequest = {
			callId: call.id,
			name: call.name,
			args,
			preview,
			...(reason === undefined ? {} : { reason }),
			...(ruled.kind === "none" && ruled.prefixes ? { prefixes: ruled.prefixes } : {}),
			...(ruled.kind === "none" && ruled.note ? { ruleNote: ruled.note } : {}),
		};
		this.o.channel.emit({ type: "approval_request", ...request });
		let decision: ApprovalDecision;
		try {
			decision = await approval.ask(request, signal);
		} catch (error) {
			decision = { approved: false, reason: error instanceof Error ? error.message : String(error) };
		}
		const { approved, reason: why, remember, stop, prefixes } = decision;
		this.o.channel.emit({
			type: "approval_result",
			callId: call.id,
			approved,
			...(why === undefined ? {} : { reason: why }),
			...(remember ? { remember: true } : {}),
			...(approved && prefixes?.length ? { prefixes } : {}),
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
