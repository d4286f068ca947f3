import type { StepHooks } from "../hooks/types.js";
import { costUsd, type Pricing } from "../llm/models.js";
import {
	type AssistantMessage,
	type Message,
	type Provider,
	type ThinkingLevel,
	textOf,
	toolCallsOf,
	type Usage,
} from "../llm/types.js";
import type { SystemPrompt } from "../prompt/system-prompt.js";
import { toToolSpec } from "../tools/index.js";
import type { AnyTool } from "../tools/types.js";
import type { EventChannel } from "./channel.js";
import type { UserInput, UserSource } from "./events.js";
import { LoopGuard } from "./loop-guard.js";
import {
	buildRequest,
	describeRequest,
	failedReply,
	type KeptRequest,
	type ModelChoice,
	pricedFlag,
	RecentRequests,
	type Reply,
	type RequestSettings,
	streamReply,
	withEstimatedInput,
} from "./model-call.js";
import { MessageQueue } from "./queue.js";
import { describeSystem, describeTools, estimateTokens } from "./request-info.js";
import { agentEnd, CompactionBudget, type RunResult, type RunStop, RunTotals } from "./run-state.js";
import { checkAnswer, type OutputSchema } from "./structured.js";
import { type Approval, ToolRunner } from "./tool-runner.js";

export type { ModelChoice } from "./model-call.js";
export type { RunResult } from "./run-state.js";
export type { Approval, ApprovalDecision, ApprovalRequest, RuleCheck } from "./tool-runner.js";

/**
 * Transforms the context before each request (compaction's seam): gets the history and returns the messages to
 * send. Must not mutate its input. A throw fails the turn with an error.
 */
export type ContextHook = (
	messages: readonly Message[],
	info: { turn: number; signal: AbortSignal },
) => Message[] | Promise<Message[]>;

/** What a compaction step did: the new history, or why there is none; the summary request's tokens and cost. */
export type CompactStep =
	| { ok: true; messages: Message[]; usage: Usage; costUsd: number | null }
	| { ok: false; error: string; usage: Usage; costUsd: number | null };

/**
 * Compaction's seam. Called before each request with `reason: "auto"` (null: no compaction needed) and once after a
 * request failed as too long (`"overflow"`); an ok step's messages replace the history. Must not mutate its input.
 */
export type CompactHook = (
	history: readonly Message[],
	info: { reason: "auto" | "overflow"; signal: AbortSignal },
) => Promise<CompactStep | null>;

/** Ends a run whose request is too long even after compacting: what the person can do about it. */
export const OVERFLOW_ADVICE =
	"the conversation does not fit the model's context window even after compacting; run /compact (or gar compact) with a focus, lower [context] keep_recent_tokens, or set a larger [context] window if the model allows it";

/** What an Agent is built with; never written after (setModel replaces the agent's ModelChoice, not these). */
export type AgentOptions = {
	/** The first model; `setModel` switches it between runs. */
	provider: Provider;
	model: string;
	system: SystemPrompt;
	tools: AnyTool[];
	channel: EventChannel;
	/** Steers and follow-ups; shared with whoever takes them from the person. */
	queue?: MessageQueue;
	/** Model calls per run before it stops with "max_turns". Default 50. */
	maxTurns?: number;
	thinking?: ThinkingLevel;
	maxTokens?: number;
	/** The model's context window, when known (reported in agent_start for context-fill displays). */
	contextWindow?: number | null;
	/** The config's prices, for a model gar's table does not price. */
	prices?: Pricing;
	/** When set, mutating calls for which `approval.needed` says so wait for `approval.ask`. */
	approval?: Approval;
	/** Structured output: the final answer must be JSON valid against this schema. */
	output?: OutputSchema;
	/** Stop a model stuck repeating one tool call (default on). */
	loopGuard?: boolean;
	transformContext?: ContextHook;
	compact?: CompactHook;
	/** Shortens a tool result before it enters the context (and its tool_end): no one result may flood it. */
	limitToolResult?: (content: string, tool: string) => string;
	/** The hook points (README "Hooks"): PreToolUse, PostToolUse, UserPromptSubmit, Stop; absent: no hooks. */
	hooks?: StepHooks;
	now?: () => number;
	newRunId?: () => string;
};

/** One run's state, handed from step to step. */
type Run = {
	readonly signal: AbortSignal;
	readonly maxTurns: number;
	readonly totals: RunTotals;
	readonly tools: ToolRunner;
	readonly budget: CompactionBudget;
	/** Structured output: how many times the answer was asked for again. */
	schemaAttempts: number;
	/** How many times in a row a Stop hook continued the run. */
	stopContinuations: number;
};

/** Stop-hook continuations in a row after which the run stops whatever the hook says. */
export const MAX_STOP_CONTINUATIONS = 3;

/** What a step says when the run goes on; otherwise it says why the run stops. */
const CONTINUE = "continue";
type Next = typeof CONTINUE | RunStop;

/**
 * The agent loop: build the request, stream it, emit events, run the tool calls in order, append the results,
 * repeat until the model stops, the turn limit is reached or the signal aborts. `messages` is the context and
 * grows as the run goes on. Free of UI and storage: everything it does is an event on the channel. Never throws
 * for model, tool or listener failures.
 */
export class Agent {
	readonly queue: MessageQueue;
	private readonly now: () => number;
	private readonly settings: RequestSettings;
	private choice: ModelChoice;
	private readonly requests = new RecentRequests();
	private runCount = 0;

	constructor(
		private readonly options: Readonly<AgentOptions>,
		private history: Message[] = [],
	) {
		this.now = options.now ?? Date.now;
		this.queue = options.queue ?? new MessageQueue();
		const tools = options.tools.map(toToolSpec);
		this.settings = {
			system: options.system.text,
			tools,
			thinking: options.thinking,
			maxTokens: options.maxTokens,
			info: { system: describeSystem(options.system), tools: describeTools(tools) },
		};
		this.choice = {
			provider: options.provider,
			model: options.model,
			contextWindow: options.contextWindow ?? null,
			...(options.prices ? { prices: options.prices } : {}),
		};
	}

	/** The context: every message of the conversation so far, in order. */
	get messages(): readonly Message[] {
		return this.history;
	}

	/** The model the next request goes to, with its provider and context window. */
	get current(): Readonly<ModelChoice> {
		return this.choice;
	}

	get model(): string {
		return this.choice.model;
	}

	get provider(): Provider {
		return this.choice.provider;
	}

	get system(): SystemPrompt {
		return this.options.system;
	}

	get tools(): readonly AnyTool[] {
		return this.options.tools;
	}

	/** Switches the model (and provider) for the next run. */
	setModel(choice: ModelChoice): void {
		this.choice = { ...choice };
	}

	/** Replaces the whole context (a branch switch, a new session, a compaction). Not during a run. */
	replaceMessages(messages: Message[]): void {
		this.history = messages;
	}

	/** Adds a user message to the context without calling the model (e.g. a shell command's output). */
	addUserMessage(content: string, source: UserSource): void {
		this.addUser(content, source);
	}

	/** The exact body of a recent request, computed on demand; undefined when unknown or no longer kept. */
	requestBody(requestId: string): unknown {
		return this.requests.body(requestId);
	}

	/** A recent request as made, and what was sent; undefined when unknown or no longer kept (the last 8). */
	recentRequest(requestId: string): Readonly<KeptRequest> | undefined {
		return this.requests.get(requestId);
	}

	/** Runs until done. `prompt` null continues from the current context (e.g. after a steer). */
	async run(prompt: string | UserInput | null, signal: AbortSignal = new AbortController().signal): Promise<RunResult> {
		const run = this.startRun(signal);
		// A prompt that cannot fit the window is refused before anything is sent or kept: no compaction can make room
		// for it, and saved, it would make every continuation of the session overflow too.
		const refused = prompt === null ? undefined : this.tooLong(typeof prompt === "string" ? prompt : prompt.text);
		if (refused !== undefined) run.totals.end({ stop: "error", error: refused, errorKind: "overflow" });
		else {
			const blocked = prompt === null ? undefined : await this.addPrompt(run, prompt);
			run.totals.end(blocked ?? (await this.turns(run)));
		}
		const result = run.totals.result(this.now());
		this.options.channel.emit(agentEnd(result));
		return result;
	}

	/** Sets up a run and emits its agent_start. */
	private startRun(signal: AbortSignal): Run {
		const { channel } = this.options;
		const started = this.now();
		this.runCount++;
		const runId = this.options.newRunId?.() ?? `run_${started.toString(36)}_${this.runCount}`;
		const maxTurns = this.options.maxTurns ?? 50;
		const totals = new RunTotals(runId, started);
		const tools = new ToolRunner({
			tools: this.options.tools,
			channel,
			now: this.now,
			guard: new LoopGuard(this.options.loopGuard ?? true),
			queue: this.queue,
			push: (message) => this.history.push(message),
			...(this.options.approval ? { approval: this.options.approval } : {}),
			...(this.options.limitToolResult ? { limit: this.options.limitToolResult } : {}),
			...(this.options.hooks ? { hooks: this.options.hooks } : {}),
			subagents: (spent) => totals.spendSubagents(spent),
		});
		const { provider, model, contextWindow } = this.choice;
		const priced = pricedFlag(this.choice);
		channel.emit({ type: "agent_start", runId, provider: provider.name, model, maxTurns, contextWindow, ...priced });
		return { signal, maxTurns, totals, tools, budget: new CompactionBudget(), schemaAttempts: 0, stopContinuations: 0 };
	}

	/**
	 * The prompt enters the context once the UserPromptSubmit hooks let it (with the context they add); a block
	 * ends the run before anything is sent or saved. Context waiting from SessionStart goes first.
	 */
	private async addPrompt(run: Run, prompt: string | UserInput): Promise<RunStop | undefined> {
		const { hooks } = this.options;
		if (!hooks) {
			this.addUser(prompt, "prompt");
			return undefined;
		}
		this.deliverContext(hooks);
		const verdict = await hooks.beforePrompt(typeof prompt === "string" ? prompt : prompt.text, run.signal);
		if (run.signal.aborted) return { stop: "aborted" };
		if (verdict.block !== undefined) return { stop: "error", error: verdict.block };
		this.addUser(prompt, "prompt");
		if (verdict.context) this.addUser(verdict.context, "hook");
		return undefined;
	}

	/** Adds the hooks' waiting context (SessionStart's) to the history, each as a user message of source "hook". */
	private deliverContext(hooks: StepHooks): void {
		for (const text of hooks.takeContext()) this.addUser(text, "hook");
	}

	/** Turn after turn: a request, its reply, what follows from it; until a step says the run stops. */
	private async turns(run: Run): Promise<RunStop> {
		for (;;) {
			const stop = await this.beforeRequest(run);
			if (stop) return stop;
			const forceSchema = run.schemaAttempts > 0 ? this.options.output : undefined;
			const turn = ++run.totals.turns;
			const { message, cost } = await this.callModel(run, turn, forceSchema);
			run.totals.last = message;
			run.totals.spend(message.usage, cost);
			const next = await this.afterReply(run, turn, message, forceSchema !== undefined);
			if (next !== CONTINUE) return next;
		}
	}

	/** Before each request: stop when aborted or at the turn limit; compact first when the context is due. */
	private async beforeRequest(run: Run): Promise<RunStop | undefined> {
		if (run.signal.aborted) return { stop: "aborted" };
		const { maxTurns } = run;
		if (run.totals.turns >= maxTurns) {
			const error = `stopped after ${maxTurns} turn${maxTurns === 1 ? "" : "s"} (the turn limit; raise it with --max-turns)`;
			return { stop: "max_turns", error };
		}
		if (this.options.compact && run.budget.autoAllowed) {
			await this.compact(run, "auto");
			if (run.signal.aborted) return { stop: "aborted" };
		}
		if (this.options.hooks) this.deliverContext(this.options.hooks);
		return undefined;
	}

	/**
	 * After a reply: runs its tool calls (not those of a reply asked for as JSON), ends the turn, then decides: go on
	 * with the tool results, a steer, a follow-up or a structured answer asked for again; else stop, and why.
	 */
	private async afterReply(run: Run, turn: number, message: AssistantMessage, forcedSchema: boolean): Promise<Next> {
		const { stopReason } = message;
		const failed = stopReason === "aborted" || stopReason === "error" || stopReason === "refusal";
		const calls = failed || forcedSchema ? [] : toolCallsOf(message);
		const guardStop = calls.length > 0 ? await run.tools.run(calls, run.signal) : undefined;
		this.endTurn(turn, message);
		if (failed) return this.afterFailure(run, message);
		run.budget.replied();
		if (calls.length > 0) {
			if (guardStop) return { stop: "error", error: guardStop };
			this.deliverSteers();
			return CONTINUE;
		}
		if (this.deliverSteers()) return CONTINUE;
		const followUp = this.queue.takeFollowUp();
		if (followUp !== undefined) {
			this.addUser(followUp, "follow_up");
			return CONTINUE;
		}
		if (stopReason === "length") return { stop: "length", error: "the reply was cut off at the output token limit" };
		const end: Next = this.options.output ? this.finishStructured(run, message, this.options.output) : { stop: "done" };
		const { hooks } = this.options;
		return end !== CONTINUE && end.stop === "done" && hooks ? this.beforeStop(run, message, hooks) : end;
	}

	/**
	 * Where the run would end: the Stop hooks may continue it with their reason as a message, at most
	 * MAX_STOP_CONTINUATIONS times in a row (then it stops with a notice), or stop it with theirs.
	 */
	private async beforeStop(run: Run, message: AssistantMessage, hooks: StepHooks): Promise<Next> {
		const active = run.stopContinuations > 0;
		const verdict = await hooks.beforeStop(textOf(message), active, run.signal);
		if (run.signal.aborted) return { stop: "aborted" };
		if (verdict.stop !== undefined) {
			this.options.channel.emit({ type: "notice", level: "info", message: `the run ends here: ${verdict.stop}` });
			return { stop: "done" };
		}
		if (verdict.continueWith === undefined) return { stop: "done" };
		if (run.stopContinuations >= MAX_STOP_CONTINUATIONS) {
			const message = `a Stop hook asked to go on again; gar stops after ${MAX_STOP_CONTINUATIONS} continuations in a row`;
			this.options.channel.emit({ type: "notice", level: "warning", message });
			return { stop: "done" };
		}
		run.stopContinuations++;
		this.addUser(verdict.continueWith, "hook");
		return CONTINUE;
	}

	/** The one place a turn ends: after its reply, and after its tool calls when it had any. */
	private endTurn(turn: number, message: AssistantMessage): void {
		this.options.channel.emit({ type: "turn_end", turn, stopReason: message.stopReason });
	}

	/** A reply that failed, was aborted or refused: a request too long is compacted and sent again once; else stop. */
	private async afterFailure(run: Run, message: AssistantMessage): Promise<Next> {
		if (message.stopReason === "error" && message.errorKind === "overflow" && this.options.compact) {
			const step = run.budget.overflowAllowed ? await this.compact(run, "overflow") : null;
			if (step?.ok) {
				run.budget.retryOverflow();
				return CONTINUE;
			}
			const aborted = run.signal.aborted;
			return {
				stop: aborted ? "aborted" : "error",
				error: step ? `the request was too long for the model and compacting failed: ${step.error}` : OVERFLOW_ADVICE,
				errorKind: aborted ? "aborted" : "overflow",
			};
		}
		const stop = message.stopReason === "aborted" ? "aborted" : "error";
		const error = message.error ?? refusalText(message) ?? (stop === "aborted" ? "aborted" : "the model call failed");
		const errorKind = message.errorKind ?? (message.stopReason === "refusal" ? "refusal" : undefined);
		return errorKind === undefined ? { stop, error } : { stop, error, errorKind };
	}

	/** A structured answer that parses and validates ends the run; else it is asked for again, twice at most. */
	private finishStructured(run: Run, message: AssistantMessage, output: OutputSchema): Next {
		const check = checkAnswer(textOf(message), output);
		if (check.ok) {
			run.totals.structured = check.value;
			return { stop: "done" };
		}
		if (run.schemaAttempts >= 2)
			return { stop: "error", error: `the answer does not match the schema: ${check.errors}` };
		run.schemaAttempts++;
		this.addUser(
			run.schemaAttempts === 1
				? `Now give your final answer as JSON matching the schema "${output.name}".`
				: `That answer does not match the schema: ${check.errors}\nReply again with corrected JSON only.`,
			"schema_retry",
		);
		return CONTINUE;
	}

	/** Runs the compaction hook: its summary request counts in the run's totals; an ok step replaces the history. */
	private async compact(run: Run, reason: "auto" | "overflow"): Promise<CompactStep | null> {
		const step = (await this.options.compact?.(this.history, { reason, signal: run.signal })) ?? null;
		if (!step) return null;
		run.totals.spend(step.usage, step.costUsd);
		if (step.ok) this.history = step.messages;
		run.budget.compactedNow(step.ok);
		return step;
	}

	/** Why `prompt` alone, with the system prompt and tools, cannot fit the model's window; undefined when it can. */
	private tooLong(prompt: string): string | undefined {
		const window = this.choice.contextWindow;
		if (window === null) return undefined;
		const tokens = estimateTokens(prompt.length);
		const overhead = this.settings.info.system.tokens + this.settings.info.tools.tokens;
		if (tokens + overhead <= window) return undefined;
		const n = (value: number) => value.toLocaleString("en-US");
		return `the prompt is about ${n(tokens)} tokens; with the system prompt and tools (${n(overhead)}) it does not fit the ${n(window)}-token context window of ${this.choice.model}: send a smaller part (a file's relevant lines, a shorter log) or use a model with a larger window`;
	}

	private addUser(input: string | UserInput, source: UserSource): void {
		const { text, pastes } = typeof input === "string" ? { text: input, pastes: undefined } : input;
		const message = { role: "user" as const, content: text };
		this.history.push(message);
		const pasted = pastes && pastes.length > 0 ? { pastes } : {};
		this.options.channel.emit({ type: "user_message", message, source, ...pasted });
	}

	/** Moves queued steers into the context; true when there were any. */
	private deliverSteers(): boolean {
		const steers = this.queue.takeSteers();
		for (const steer of steers) this.addUser(steer, "steer");
		return steers.length > 0;
	}

	/** The messages to send: the history, through the context hook when there is one. */
	private async context(turn: number, signal: AbortSignal): Promise<Message[] | string> {
		const hook = this.options.transformContext;
		if (!hook) return this.history;
		try {
			return await hook(this.history, { turn, signal });
		} catch (error) {
			return `the context hook failed: ${error instanceof Error ? error.message : String(error)}`;
		}
	}

	/** One model call: emits turn_start, sends the request (unless the context hook failed), appends the reply. */
	private async callModel(
		run: Run,
		turn: number,
		output: OutputSchema | undefined,
	): Promise<{ message: AssistantMessage; cost: number | null }> {
		const { channel } = this.options;
		const requestId = `${run.totals.runId}.${turn}`;
		channel.emit({ type: "turn_start", turn, maxTurns: run.maxTurns });
		const messages = await this.context(turn, run.signal);
		const startedAt = this.now();
		const reply: Reply =
			typeof messages === "string"
				? { message: failedReply(this.choice, messages, "other"), firstTokenMs: null, retries: 0 }
				: await this.send({ requestId, turn, startedAt }, messages, run.signal, output);
		const { message } = reply;
		this.history.push(message);
		// A cost the provider reported is the truth; else gar's table, else the config's prices; else unknown.
		const cost = message.reportedCostUsd ?? costUsd(message.model, message.usage, this.choice.prices);
		channel.emit({
			type: "message_end",
			requestId,
			turn,
			message,
			costUsd: cost,
			timing: { startedAt, firstTokenMs: reply.firstTokenMs, durationMs: this.now() - startedAt },
			retries: reply.retries,
			...(message.errorKind === undefined ? {} : { errorKind: message.errorKind }),
			...(reply.sent?.bodySha256 ? { body: { sha256: reply.sent.bodySha256, bytes: reply.sent.bodyBytes } } : {}),
		});
		return { message, cost };
	}

	/** Sends one request: keeps it for the request viewer, emits request and message_start, streams the reply. */
	private async send(
		call: { requestId: string; turn: number; startedAt: number },
		messages: Message[],
		signal: AbortSignal,
		output: OutputSchema | undefined,
	): Promise<Reply> {
		const { channel } = this.options;
		const { requestId, turn, startedAt } = call;
		const { provider } = this.choice;
		const request = buildRequest(this.choice, this.settings, messages, signal, output);
		const kept = this.requests.keep(requestId, provider, { ...request, messages: messages.slice() });
		// The last attempt's: a retry sends the same bytes again.
		request.onSent = (sent) => {
			kept.sent = sent;
		};
		const info = describeRequest(this.choice, this.settings, requestId, turn, messages, output);
		channel.emit({ type: "request", ...info });
		channel.emit({ type: "message_start", turn, requestId });
		const reply = await streamReply(provider, request, { channel, requestId, turn, now: this.now, startedAt });
		return { ...reply, message: withEstimatedInput(reply.message, info), ...(kept.sent ? { sent: kept.sent } : {}) };
	}
}

/** The words of a refusal, when the model's reply was one. */
function refusalText(message: AssistantMessage): string | undefined {
	if (message.stopReason !== "refusal") return undefined;
	const text = textOf(message).trim();
	return text ? `the model declined: ${text}` : "the model declined to answer";
}
