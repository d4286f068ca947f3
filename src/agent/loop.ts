import { costUsd } from "../llm/models.js";
import {
	type AssistantMessage,
	addUsage,
	EMPTY_USAGE,
	type ErrorKind,
	type Message,
	type ModelRequest,
	type Provider,
	type ThinkingLevel,
	type ToolSpec,
	textOf,
	toolCallsOf,
	type Usage,
} from "../llm/types.js";
import type { SystemPrompt } from "../prompt/system-prompt.js";
import { toToolSpec } from "../tools/index.js";
import type { AnyTool } from "../tools/types.js";
import type { EventChannel } from "./channel.js";
import { boundToolArguments } from "./depth.js";
import type { RequestInfo, RunStopReason, UserInput, UserSource } from "./events.js";
import { LoopGuard } from "./loop-guard.js";
import { MessageQueue } from "./queue.js";
import { describeMessages, describeSystem, describeTools, estimateTokens } from "./request-info.js";
import { checkAnswer, type OutputSchema } from "./structured.js";
import { type Approval, ToolRunner } from "./tool-runner.js";

export type { Approval, ApprovalDecision, ApprovalRequest } from "./tool-runner.js";

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

export type AgentOptions = {
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
	now?: () => number;
	newRunId?: () => string;
};

export type RunResult = {
	runId: string;
	stopReason: RunStopReason;
	turns: number;
	usage: Usage;
	/** Null when any call's price is unknown. */
	costUsd: number | null;
	durationMs: number;
	/** The final answer: the text of the last assistant message. */
	text: string;
	/** The parsed answer when an output schema was given and it validated. */
	structured?: unknown;
	error?: string;
	errorKind?: ErrorKind;
};

/** How many recent requests keep what is needed to show their exact body. */
const KEPT_REQUESTS = 8;

/**
 * The agent loop: build the request, stream it, emit events, run the tool calls in order, append the results,
 * repeat until the model stops, the turn limit is reached or the signal aborts. `messages` is the context and
 * grows as the run goes on. Free of UI and storage: everything it does is an event on the channel. Never throws
 * for model, tool or listener failures.
 */
export class Agent {
	readonly queue: MessageQueue;
	private readonly now: () => number;
	private readonly toolSpecs: ToolSpec[];
	private readonly toolsInfo: RequestInfo["tools"];
	private systemInfo: RequestInfo["system"];
	private readonly requests = new Map<string, { provider: Provider; request: ModelRequest }>();
	private runCount = 0;

	constructor(
		private readonly options: AgentOptions,
		private history: Message[] = [],
	) {
		this.now = options.now ?? Date.now;
		this.queue = options.queue ?? new MessageQueue();
		this.toolSpecs = options.tools.map(toToolSpec);
		this.toolsInfo = describeTools(this.toolSpecs);
		this.systemInfo = describeSystem(options.system);
	}

	/** The context: every message of the conversation so far, in order. */
	get messages(): readonly Message[] {
		return this.history;
	}

	get model(): string {
		return this.options.model;
	}

	get provider(): Provider {
		return this.options.provider;
	}

	get system(): SystemPrompt {
		return this.options.system;
	}

	get tools(): readonly AnyTool[] {
		return this.options.tools;
	}

	/** Switches the model (and provider) for the next run. */
	setModel(provider: Provider, model: string, contextWindow: number | null): void {
		this.options.provider = provider;
		this.options.model = model;
		this.options.contextWindow = contextWindow;
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
		const kept = this.requests.get(requestId);
		return kept?.provider.body?.(kept.request);
	}

	/** Runs until done. `prompt` null continues from the current context (e.g. after a steer). */
	async run(prompt: string | UserInput | null, signal: AbortSignal = new AbortController().signal): Promise<RunResult> {
		const { channel } = this.options;
		const maxTurns = this.options.maxTurns ?? 50;
		const started = this.now();
		this.runCount++;
		const runId = this.options.newRunId?.() ?? `run_${started.toString(36)}_${this.runCount}`;
		const tools = new ToolRunner({
			tools: this.options.tools,
			channel,
			now: this.now,
			guard: new LoopGuard(this.options.loopGuard ?? true),
			queue: this.queue,
			push: (message) => this.history.push(message),
			...(this.options.approval ? { approval: this.options.approval } : {}),
			...(this.options.limitToolResult ? { limit: this.options.limitToolResult } : {}),
		});
		let usage = EMPTY_USAGE;
		let cost: number | null = 0;
		let turns = 0;
		let last: AssistantMessage | undefined;
		let structured: unknown;
		let stop: RunStopReason = "done";
		let error: string | undefined;
		let errorKind: ErrorKind | undefined;
		let schemaAttempts = 0;
		// Compaction: after a failed one, no more automatic ones this run; one retry per overflow; never twice in a row.
		let autoFailed = false;
		let overflowRetried = false;
		let compacted = false;
		const compact = async (reason: "auto" | "overflow"): Promise<CompactStep | null> => {
			const step = (await this.options.compact?.(this.history, { reason, signal })) ?? null;
			if (!step) return null;
			usage = addUsage(usage, step.usage);
			cost = cost === null || step.costUsd === null ? null : cost + step.costUsd;
			if (step.ok) {
				this.history = step.messages;
				compacted = true;
			} else autoFailed = true;
			return step;
		};

		channel.emit({
			type: "agent_start",
			runId,
			provider: this.options.provider.name,
			model: this.options.model,
			maxTurns,
			contextWindow: this.options.contextWindow ?? null,
		});
		// A prompt that cannot fit the window is refused before anything is sent or kept: no compaction can make room
		// for it, and saved, it would make every continuation of the session overflow too.
		const refused = prompt === null ? undefined : this.tooLong(typeof prompt === "string" ? prompt : prompt.text);
		if (refused !== undefined) {
			stop = "error";
			error = refused;
			errorKind = "overflow";
		} else if (prompt !== null) this.addUser(prompt, "prompt");

		while (refused === undefined) {
			if (signal.aborted) {
				stop = "aborted";
				break;
			}
			if (turns >= maxTurns) {
				stop = "max_turns";
				error = `stopped after ${maxTurns} turn${maxTurns === 1 ? "" : "s"} (the turn limit; raise it with --max-turns)`;
				break;
			}
			if (this.options.compact && !autoFailed && !compacted) {
				await compact("auto");
				if (signal.aborted) {
					stop = "aborted";
					break;
				}
			}
			turns++;
			const forceSchema = schemaAttempts > 0 ? this.options.output : undefined;
			const { message, cost: callCost } = await this.callModel(runId, turns, maxTurns, signal, forceSchema);
			last = message;
			usage = addUsage(usage, message.usage);
			cost = cost === null || callCost === null ? null : cost + callCost;

			if (message.stopReason === "error" && message.errorKind === "overflow" && this.options.compact) {
				channel.emit({ type: "turn_end", turn: turns, stopReason: message.stopReason });
				const step = overflowRetried || compacted ? null : await compact("overflow");
				if (step?.ok) {
					overflowRetried = true;
					continue;
				}
				stop = signal.aborted ? "aborted" : "error";
				error = step ? `the request was too long for the model and compacting failed: ${step.error}` : OVERFLOW_ADVICE;
				errorKind = signal.aborted ? "aborted" : "overflow";
				break;
			}
			if (message.stopReason !== "error" && message.stopReason !== "aborted") {
				compacted = false;
				overflowRetried = false;
			}
			if (message.stopReason === "aborted" || message.stopReason === "error" || message.stopReason === "refusal") {
				channel.emit({ type: "turn_end", turn: turns, stopReason: message.stopReason });
				stop = message.stopReason === "aborted" ? "aborted" : "error";
				error = message.error ?? refusalText(message) ?? (stop === "aborted" ? "aborted" : "the model call failed");
				errorKind = message.errorKind ?? (message.stopReason === "refusal" ? "refusal" : undefined);
				break;
			}
			const calls = toolCallsOf(message);
			if (calls.length > 0 && !forceSchema) {
				const guardStop = await tools.run(calls, signal);
				channel.emit({ type: "turn_end", turn: turns, stopReason: message.stopReason });
				if (guardStop) {
					stop = "error";
					error = guardStop;
					break;
				}
				this.deliverSteers();
				continue;
			}
			channel.emit({ type: "turn_end", turn: turns, stopReason: message.stopReason });
			if (this.deliverSteers()) continue;
			const followUp = this.queue.takeFollowUp();
			if (followUp !== undefined) {
				this.addUser(followUp, "follow_up");
				continue;
			}
			if (message.stopReason === "length") {
				stop = "length";
				error = "the reply was cut off at the output token limit";
				break;
			}
			if (this.options.output) {
				const check = checkAnswer(textOf(message), this.options.output);
				if (check.ok) {
					structured = check.value;
					break;
				}
				if (schemaAttempts >= 2) {
					stop = "error";
					error = `the answer does not match the schema: ${check.errors}`;
					break;
				}
				schemaAttempts++;
				this.addUser(
					schemaAttempts === 1
						? `Now give your final answer as JSON matching the schema "${this.options.output.name}".`
						: `That answer does not match the schema: ${check.errors}\nReply again with corrected JSON only.`,
					"schema_retry",
				);
				continue;
			}
			break;
		}
		if (stop === "aborted") {
			error ??= "aborted";
			errorKind ??= "aborted";
		}
		const result: RunResult = {
			runId,
			stopReason: stop,
			turns,
			usage,
			costUsd: cost,
			durationMs: this.now() - started,
			text: last ? textOf(last) : "",
		};
		if (structured !== undefined) result.structured = structured;
		if (error !== undefined) result.error = error;
		if (errorKind !== undefined) result.errorKind = errorKind;
		channel.emit({
			type: "agent_end",
			runId,
			stopReason: stop,
			turns,
			usage,
			costUsd: cost,
			durationMs: result.durationMs,
			...(error === undefined ? {} : { error }),
			...(errorKind === undefined ? {} : { errorKind }),
		});
		return result;
	}

	/** Why `prompt` alone, with the system prompt and tools, cannot fit the model's window; undefined when it can. */
	private tooLong(prompt: string): string | undefined {
		const window = this.options.contextWindow;
		if (window === undefined || window === null) return undefined;
		const tokens = estimateTokens(prompt.length);
		const overhead = this.systemInfo.tokens + this.toolsInfo.tokens;
		if (tokens + overhead <= window) return undefined;
		const n = (value: number) => value.toLocaleString("en-US");
		return `the prompt is about ${n(tokens)} tokens; with the system prompt and tools (${n(overhead)}) it does not fit the ${n(window)}-token context window of ${this.options.model}: send a smaller part (a file's relevant lines, a shorter log) or use a model with a larger window`;
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

	/** One model call: emits request, streams it as events and appends the final message; returns it with its cost. */
	private async callModel(
		runId: string,
		turn: number,
		maxTurns: number,
		signal: AbortSignal,
		output?: OutputSchema,
	): Promise<{ message: AssistantMessage; cost: number | null }> {
		const { channel, provider, model } = this.options;
		const requestId = `${runId}.${turn}`;
		channel.emit({ type: "turn_start", turn, maxTurns });
		const messages = await this.context(turn, signal);
		const startedAt = this.now();
		let firstToken: number | null = null;
		let retries = 0;
		let final: AssistantMessage | undefined;
		let info: RequestInfo | undefined;
		if (typeof messages === "string") {
			final = failed(this.options, messages, "other");
		} else {
			const request: ModelRequest = {
				model,
				system: this.options.system.text,
				messages,
				tools: this.toolSpecs,
				signal,
			};
			if (this.options.thinking) request.thinking = this.options.thinking;
			if (this.options.maxTokens) request.maxTokens = this.options.maxTokens;
			if (output) request.responseSchema = { name: output.name, schema: output.schema };
			this.keep(requestId, provider, { ...request, messages: messages.slice() });
			info = this.describe(requestId, turn, messages);
			channel.emit({ type: "request", ...info });
			channel.emit({ type: "message_start", turn, requestId });
			const mark = () => {
				firstToken ??= this.now() - startedAt;
			};
			try {
				for await (const event of provider.stream(request)) {
					switch (event.type) {
						case "text_delta":
						case "thinking_delta":
							mark();
							channel.emit(event);
							break;
						case "toolcall_start":
							mark();
							channel.emit({
								type: "toolcall_start",
								callId: event.id,
								name: event.name,
								contentIndex: event.contentIndex,
							});
							break;
						case "toolcall_delta":
							channel.emit({
								type: "toolcall_delta",
								callId: event.id,
								delta: event.delta,
								contentIndex: event.contentIndex,
							});
							break;
						case "retry": {
							retries++;
							const { attempt, maxAttempts, reason, delayMs, errorKind } = event;
							channel.emit({ type: "retry", requestId, turn, attempt, maxAttempts, reason, delayMs, errorKind });
							break;
						}
						case "done":
							final = boundToolArguments(event.message);
							break;
						case "start":
							break;
					}
				}
			} catch (error) {
				// Providers must not throw; if one does anyway, the run still ends cleanly with an error reply.
				const why = error instanceof Error ? error.message : String(error);
				final = failed(this.options, `provider failure: ${why}`, "other");
			}
			final ??= failed(this.options, "the provider stream ended without a final message", "other");
		}
		if (info) final = withEstimatedInput(final, info);
		this.history.push(final);
		const cost = costUsd(final.model, final.usage);
		channel.emit({
			type: "message_end",
			requestId,
			turn,
			message: final,
			costUsd: cost,
			timing: { startedAt, firstTokenMs: firstToken, durationMs: this.now() - startedAt },
			retries,
			...(final.errorKind === undefined ? {} : { errorKind: final.errorKind }),
		});
		return { message: final, cost };
	}

	private describe(requestId: string, turn: number, messages: readonly Message[]): RequestInfo {
		const params: RequestInfo["params"] = {
			maxTokens: this.options.maxTokens ?? null,
			thinking: this.options.thinking ?? null,
		};
		return {
			requestId,
			turn,
			provider: this.options.provider.name,
			model: this.options.model,
			params,
			system: this.systemInfo,
			tools: this.toolsInfo,
			messages: describeMessages(messages),
		};
	}

	private keep(requestId: string, provider: Provider, request: ModelRequest): void {
		this.requests.set(requestId, { provider, request });
		if (this.requests.size > KEPT_REQUESTS) {
			const oldest = this.requests.keys().next().value;
			if (oldest !== undefined) this.requests.delete(oldest);
		}
	}
}

/**
 * A reply cut before any usage report (OpenAI-compatible wires report it only at the end) gets the request's own
 * estimate as its input, so its cost is not that of the output alone.
 */
function withEstimatedInput(message: AssistantMessage, info: RequestInfo): AssistantMessage {
	const { usage } = message;
	if (!usage.estimated || usage.input + usage.cacheRead + usage.cacheWrite > 0) return message;
	const input = info.system.tokens + info.tools.tokens + info.messages.tokens;
	return { ...message, usage: { ...usage, input } };
}

/** The words of a refusal, when the model's reply was one. */
function refusalText(message: AssistantMessage): string | undefined {
	if (message.stopReason !== "refusal") return undefined;
	const text = textOf(message).trim();
	return text ? `the model declined: ${text}` : "the model declined to answer";
}

/** The reply recorded when a turn fails before or outside the provider (a hook, a provider breaking its contract). */
function failed(options: AgentOptions, error: string, errorKind: ErrorKind): AssistantMessage {
	return {
		role: "assistant",
		content: [],
		provider: options.provider.name,
		model: options.model,
		usage: EMPTY_USAGE,
		stopReason: "error",
		error,
		errorKind,
	};
}
