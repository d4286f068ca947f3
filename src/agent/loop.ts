import { costUsd } from "../llm/models.js";
import {
	type AssistantMessage,
	addUsage,
	EMPTY_USAGE,
	type Message,
	type ModelRequest,
	type Provider,
	type ThinkingLevel,
	type ToolCallBlock,
	type ToolResultMessage,
	type ToolSpec,
	textOf,
	toolCallsOf,
	type Usage,
} from "../llm/types.js";
import { runTool, toToolSpec } from "../tools/index.js";
import type { AnyTool, ToolResult } from "../tools/types.js";
import type { EventChannel } from "./channel.js";
import type { RunStopReason } from "./events.js";
import { MessageQueue } from "./queue.js";
import { checkAnswer, type OutputSchema } from "./structured.js";

export type ApprovalDecision = { approved: boolean; reason?: string };
/** Asks the person whether a mutating tool call may run. */
export type ApproveFn = (
	call: { callId: string; name: string; args: Record<string, unknown> },
	signal: AbortSignal,
) => Promise<ApprovalDecision>;

export type AgentOptions = {
	provider: Provider;
	model: string;
	system: string;
	tools: AnyTool[];
	channel: EventChannel;
	/** Model calls per run before it stops with "max_turns". Default 50. */
	maxTurns?: number;
	thinking?: ThinkingLevel;
	maxTokens?: number;
	/** When set, every mutating call not in `autoApprove` waits for this decision. */
	approve?: ApproveFn;
	autoApprove?: string[];
	/** Structured output: the final answer must be JSON valid against this schema. */
	output?: OutputSchema;
	now?: () => number;
	newRunId?: () => string;
};

export type RunResult = {
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
};

const SKIPPED = "Skipped: the user sent a new message before this call ran. Re-issue it if it is still needed.";
const NOT_RUN_ABORT = "Not run: the run was aborted before this call started.";

/**
 * The agent loop: build the request, stream it, emit events, run the tool calls in order, append the results,
 * repeat until the model stops, the turn limit is reached or the signal aborts. `messages` is the context and
 * grows as the run goes on. Never throws for model, tool or listener failures.
 */
export class Agent {
	readonly queue = new MessageQueue();
	private readonly now: () => number;
	/** JSON Schemas of the tools, computed once: the same for every request. */
	private readonly toolSpecs: ToolSpec[];

	constructor(
		private readonly options: AgentOptions,
		readonly messages: Message[] = [],
	) {
		this.now = options.now ?? Date.now;
		this.toolSpecs = options.tools.map(toToolSpec);
	}

	get model(): string {
		return this.options.model;
	}

	/** Runs until done. `prompt` null continues from the current context (e.g. after a steer). */
	async run(prompt: string | null, signal: AbortSignal = new AbortController().signal): Promise<RunResult> {
		const { channel, provider, model } = this.options;
		const maxTurns = this.options.maxTurns ?? 50;
		const started = this.now();
		const runId = this.options.newRunId?.() ?? `run_${started.toString(36)}`;
		let usage = EMPTY_USAGE;
		let cost: number | null = 0;
		let turns = 0;
		let last: AssistantMessage | undefined;
		let structured: unknown;
		let stop: RunStopReason = "done";
		let error: string | undefined;
		let schemaAttempts = 0;

		channel.emit({ type: "agent_start", runId, provider: provider.name, model });
		if (prompt !== null) this.addUser(prompt);

		while (true) {
			if (signal.aborted) {
				stop = "aborted";
				break;
			}
			if (turns >= maxTurns) {
				stop = "max_turns";
				error = `stopped after ${maxTurns} turns (the turn limit; raise it with --max-turns)`;
				break;
			}
			turns++;
			const forceSchema = schemaAttempts > 0 ? this.options.output : undefined;
			const { message, cost: callCost } = await this.callModel(turns, signal, forceSchema);
			last = message;
			usage = addUsage(usage, message.usage);
			cost = cost === null || callCost === null ? null : cost + callCost;

			if (message.stopReason === "aborted" || message.stopReason === "error") {
				channel.emit({ type: "turn_end", turn: turns, stopReason: message.stopReason });
				stop = message.stopReason;
				error = message.error ?? (stop === "aborted" ? "aborted" : "the model call failed");
				break;
			}
			const calls = toolCallsOf(message);
			if (calls.length > 0 && !forceSchema) {
				await this.runToolCalls(calls, signal);
				channel.emit({ type: "turn_end", turn: turns, stopReason: message.stopReason });
				this.deliverSteers();
				continue;
			}
			channel.emit({ type: "turn_end", turn: turns, stopReason: message.stopReason });
			if (this.deliverSteers()) continue;
			const followUp = this.queue.takeFollowUp();
			if (followUp !== undefined) {
				this.addUser(followUp);
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
				);
				continue;
			}
			break;
		}
		if (stop === "aborted") error ??= "aborted";
		const result: RunResult = {
			stopReason: stop,
			turns,
			usage,
			costUsd: cost,
			durationMs: this.now() - started,
			text: last ? textOf(last) : "",
		};
		if (structured !== undefined) result.structured = structured;
		if (error !== undefined) result.error = error;
		channel.emit({
			type: "agent_end",
			stopReason: stop,
			turns,
			usage,
			costUsd: cost,
			durationMs: result.durationMs,
			...(error === undefined ? {} : { error }),
		});
		return result;
	}

	private addUser(content: string): void {
		const message = { role: "user" as const, content };
		this.messages.push(message);
		this.options.channel.emit({ type: "user_message", message });
	}

	/** Moves queued steers into the context; true when there were any. */
	private deliverSteers(): boolean {
		const steers = this.queue.takeSteers();
		for (const text of steers) this.addUser(text);
		return steers.length > 0;
	}

	/** One model call: streams it as events and appends the final message; returns it with its cost. */
	private async callModel(
		turn: number,
		signal: AbortSignal,
		output?: OutputSchema,
	): Promise<{ message: AssistantMessage; cost: number | null }> {
		const { channel, provider } = this.options;
		channel.emit({ type: "turn_start", turn });
		channel.emit({ type: "message_start", turn });
		const request: ModelRequest = {
			model: this.options.model,
			system: this.options.system,
			messages: this.messages,
			tools: this.toolSpecs,
			signal,
		};
		if (this.options.thinking) request.thinking = this.options.thinking;
		if (this.options.maxTokens) request.maxTokens = this.options.maxTokens;
		if (output) request.responseSchema = { name: output.name, schema: output.schema };
		let final: AssistantMessage | undefined;
		try {
			for await (const event of provider.stream(request)) {
				switch (event.type) {
					case "text_delta":
					case "thinking_delta":
						channel.emit(event);
						break;
					case "toolcall_start":
						channel.emit({ type: "toolcall_start", callId: event.id, name: event.name });
						break;
					case "toolcall_delta":
						channel.emit({ type: "toolcall_delta", callId: event.id, delta: event.delta });
						break;
					case "retry":
						channel.emit(event);
						break;
					case "done":
						final = event.message;
						break;
					case "start":
						break;
				}
			}
		} catch (error) {
			// Providers must not throw; if one does anyway, the run still ends cleanly with an error reply.
			final = failed(this.options, `provider failure: ${error instanceof Error ? error.message : String(error)}`);
		}
		final ??= failed(this.options, "the provider stream ended without a final message");
		this.messages.push(final);
		const cost = costUsd(final.model, final.usage);
		channel.emit({ type: "message_end", message: final, costUsd: cost });
		return { message: final, cost };
	}

	/** Runs the calls in order; after each, a queued steer skips the rest. Every call gets exactly one result. */
	private async runToolCalls(calls: ToolCallBlock[], signal: AbortSignal): Promise<void> {
		let skipWith: string | undefined;
		for (const call of calls) {
			if (!skipWith && signal.aborted) skipWith = NOT_RUN_ABORT;
			if (skipWith) {
				this.pushResult(call, { content: skipWith, details: null, isError: true }, 0);
				continue;
			}
			await this.runOne(call, signal);
			if (this.queue.hasSteer()) skipWith = SKIPPED;
		}
	}

	private async runOne(call: ToolCallBlock, signal: AbortSignal): Promise<void> {
		const { channel } = this.options;
		const started = this.now();
		channel.emit({ type: "tool_start", callId: call.id, name: call.name, args: call.arguments });
		const tool = this.options.tools.find((t) => t.name === call.name);
		let result: ToolResult;
		if (!tool) {
			const names = this.options.tools.map((t) => t.name).join(", ");
			result = { content: `Unknown tool "${call.name}". Available tools: ${names}.`, details: null, isError: true };
		} else if (call.rawArguments !== undefined) {
			result = {
				content: `The arguments for ${call.name} were not valid JSON: ${call.rawArguments.slice(0, 200)}\nSend the call again with a JSON object.`,
				details: null,
				isError: true,
			};
		} else {
			const decision = await this.approval(tool, call, signal);
			result = decision.approved
				? await runTool(tool, call.arguments, {
						signal,
						onUpdate: (details) => channel.emit({ type: "tool_update", callId: call.id, name: call.name, details }),
					})
				: {
						content: `The user denied this ${call.name} call${decision.reason ? `: ${decision.reason}` : "."} Do not retry it unchanged.`,
						details: null,
						isError: true,
					};
		}
		this.pushResult(call, result, this.now() - started);
	}

	private async approval(tool: AnyTool, call: ToolCallBlock, signal: AbortSignal): Promise<ApprovalDecision> {
		const { approve, autoApprove = [], channel } = this.options;
		if (!approve || !tool.mutating || autoApprove.includes(tool.name)) return { approved: true };
		channel.emit({ type: "approval_request", callId: call.id, name: call.name, args: call.arguments });
		let decision: ApprovalDecision;
		try {
			decision = await approve({ callId: call.id, name: call.name, args: call.arguments }, signal);
		} catch (error) {
			decision = { approved: false, reason: error instanceof Error ? error.message : String(error) };
		}
		channel.emit({ type: "approval_result", callId: call.id, ...decision });
		return decision;
	}

	private pushResult(call: ToolCallBlock, result: ToolResult, durationMs: number): void {
		const message: ToolResultMessage = {
			role: "tool_result",
			callId: call.id,
			name: call.name,
			content: result.content,
			isError: result.isError,
		};
		this.messages.push(message);
		this.options.channel.emit({ type: "tool_end", callId: call.id, name: call.name, result, message, durationMs });
	}
}

/** The reply recorded when a provider breaks its contract (throws, or ends without a final message). */
function failed(options: AgentOptions, error: string): AssistantMessage {
	const { provider, model } = options;
	return {
		role: "assistant",
		content: [],
		provider: provider.name,
		model,
		usage: EMPTY_USAGE,
		stopReason: "error",
		error,
	};
}
