import type { EventChannel } from "../agent/channel.js";
import type { UserInput } from "../agent/events.js";
import {
	Agent,
	type ApprovalDecision,
	type ApprovalRequest,
	type CompactStep,
	type ContextHook,
	type RunResult,
} from "../agent/loop.js";
import { type KeptRequest, type ModelChoice, pricedFlag } from "../agent/model-call.js";
import { MessageQueue } from "../agent/queue.js";
import { describeSystem, describeTools } from "../agent/request-info.js";
import type { OutputSchema } from "../agent/structured.js";
import { type ContextSettings, DEFAULT_CONTEXT_SETTINGS } from "../compaction/accounting.js";
import { type CompactOutcome, Compactor } from "../compaction/compact.js";
import { capToolResult, maxResultChars } from "../compaction/result-cap.js";
import type { Hooks, PermissionMode } from "../hooks/hooks.js";
import { type Pricing, priceOf } from "../llm/models.js";
import type { Message, Provider, ThinkingLevel, Usage } from "../llm/types.js";
import type { SystemPrompt } from "../prompt/system-prompt.js";
import { buildContext, SessionRecorder, type SessionWriter } from "../session/index.js";
import { runTool, toToolSpec } from "../tools/index.js";
import type { AnyTool, ToolResult } from "../tools/types.js";
import { ApprovalPolicy, type PolicyOptions, untilAborted } from "./approval-policy.js";

/** Asks the person about one mutating call; should settle when `signal` aborts. */
export type AskFn = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalDecision>;

/** Refused: the conversation is busy with a run (a second run is refused, never interleaved). */
export class ConversationBusyError extends Error {
	override readonly name = "ConversationBusyError";
	constructor(what: string) {
		super(`cannot ${what} while a run is going; wait for it to end or abort it first`);
	}
}

export type ConversationOptions = {
	channel: EventChannel;
	provider: Provider;
	model: string;
	contextWindow: number | null;
	/** The config's prices, for a model gar's table does not price. */
	prices?: Pricing;
	system: SystemPrompt;
	tools: AnyTool[];
	history?: Message[];
	/** Where the conversation is saved; null: not saved. */
	session: SessionWriter | null;
	/** Opens a fresh session for `newSession()` (null: the new conversation is not saved). */
	openSession?: () => SessionWriter | null;
	maxTurns?: number;
	thinking?: ThinkingLevel;
	maxTokens?: number;
	loopGuard?: boolean;
	output?: OutputSchema;
	transformContext?: ContextHook;
	/** `[context]`: automatic compaction, reserve, recent part kept, tool result share (defaults when absent). */
	context?: ContextSettings;
	/**
	 * The approval policy: whether mutating calls must ask, which tools never ask, the permission rules (and how to
	 * save one the person allows), and how to ask.
	 */
	approval: Omit<PolicyOptions, "notice"> & { ask?: AskFn };
	/** The configured hooks (README "Hooks"); absent when there are none (or with --no-hooks). */
	hooks?: Hooks;
	now?: () => number;
};

/** How a compaction went (`gar compact`, `/compact`); `usage`/`costUsd` are the summary request's. */
export type CompactionResult = {
	ok: boolean;
	tokensBefore: number;
	tokensAfter: number;
	error?: string;
	/** Aborted: the context (and the session) stay as they were. */
	aborted?: boolean;
	usage: Usage;
	costUsd: number | null;
};

/** What a shell command run from the input (`!cmd`) is added to the context as. */
export function shellContext(command: string, result: ToolResult): string {
	return `I ran a shell command myself; its output is here for context.\n$ ${command}\n${result.content}`;
}

/**
 * The one long-lived owner of a conversation, driven by every mode (`gar -p`, the line mode, the full-screen UI):
 * it composes the agent loop, the session recorder, the message queue, the approval policy and the current run's
 * AbortController. It starts runs (one at a time), steers, aborts, switches the model between runs, moves the
 * leaf, starts a new session, adds shell output to the context, and remembers tools allowed for the session.
 */
export class Conversation {
	readonly channel: EventChannel;
	readonly queue: MessageQueue;
	private readonly agent: Agent;
	private writer: SessionWriter | null;
	private detach: (() => void) | null = null;
	private controller: AbortController | null = null;
	private readonly policy: ApprovalPolicy;
	private readonly compactor: Compactor;
	private readonly hooks: Hooks | undefined;
	/** SessionStart, once: started by start() or the first run. */
	private starting: Promise<void> | null = null;
	/** Aborts hooks that run outside a run (SessionStart, PreCompact of /compact): Esc kills them too. */
	private outside = new AbortController();
	/** Whether the person's terminal has focus (null: unknown, or no terminal); a run ending unseen notifies. */
	private focused: boolean | null = null;

	constructor(private readonly options: ConversationOptions) {
		this.channel = options.channel;
		this.policy = new ApprovalPolicy({
			...options.approval,
			notice: (level, message) => this.channel.emit({ type: "notice", level, message }),
		});
		this.hooks = options.hooks;
		this.queue = new MessageQueue((steers, followUps) =>
			this.channel.emit({ type: "queue", steers: [...steers], followUps: [...followUps] }),
		);
		const settings = options.context ?? DEFAULT_CONTEXT_SETTINGS;
		const overhead = describeSystem(options.system).tokens + describeTools(options.tools.map(toToolSpec)).tokens;
		this.compactor = new Compactor({
			channel: options.channel,
			settings,
			model: () => this.agent.current,
			overhead: () => overhead,
			session: () => this.writer,
		});
		this.agent = new Agent(
			{
				provider: options.provider,
				model: options.model,
				system: options.system,
				tools: options.tools,
				channel: options.channel,
				queue: this.queue,
				contextWindow: options.contextWindow,
				...(options.prices ? { prices: options.prices } : {}),
				approval: {
					needed: (tool) => this.policy.needed(tool),
					rules: (call) => this.policy.check(call),
					ask: (request, signal) => this.ask(request, signal),
				},
				compact: (history, info) => this.compactStep(history, info),
				...(options.hooks ? { hooks: options.hooks } : {}),
				limitToolResult: (content, tool) =>
					capToolResult(content, tool, maxResultChars(this.agent.current.contextWindow, settings.maxToolResultShare)),
				...pick(options, ["maxTurns", "thinking", "maxTokens", "loopGuard", "output", "transformContext", "now"]),
			},
			options.history ?? [],
		);
		this.writer = options.session;
		this.compactor.reset(this.agent.messages);
		this.record();
		options.hooks?.attach({
			emit: (run) => this.channel.emit({ type: "hook", ...run }),
			session: () => (this.writer ? { id: this.writer.session.header.id, file: this.writer.file } : null),
			permissionMode: () => this.permissionMode(),
		});
	}

	/** True while a run is going. */
	get running(): boolean {
		return this.controller !== null;
	}

	get session(): SessionWriter | null {
		return this.writer;
	}

	/** The model the next run uses (the agent owns it; this is its description). */
	get model(): { provider: string; model: string; contextWindow: number | null } {
		const { provider, model, contextWindow } = this.agent.current;
		return { provider: provider.name, model, contextWindow };
	}

	/** Whether the price of the model in use is known (gar's table, or the config's prices). */
	get priced(): boolean {
		return priceOf(this.agent.current.model, this.agent.current.prices) !== undefined;
	}

	get messages(): readonly Message[] {
		return this.agent.messages;
	}

	/** How full the context is: the size of the next request in tokens, and the model's window (null: unknown). */
	get context(): { tokens: number; window: number | null } {
		return { tokens: this.compactor.tokens(this.agent.messages), window: this.agent.current.contextWindow };
	}

	get tools(): readonly AnyTool[] {
		return this.options.tools;
	}

	/** The system prompt every request of this conversation sends, with its parts. */
	get system(): SystemPrompt {
		return this.options.system;
	}

	/** Tools the person allowed for the rest of this session. */
	get allowedTools(): ReadonlySet<string> {
		return this.policy.allowedTools;
	}

	/**
	 * Runs a task to its end (`prompt` null continues from the context). Rejects with ConversationBusyError when a
	 * run is already going; otherwise never rejects: failures are in the result.
	 */
	async run(prompt: string | UserInput | null): Promise<RunResult> {
		if (this.controller) throw new ConversationBusyError("start a run");
		const controller = new AbortController();
		this.controller = controller;
		try {
			if (this.hooks) await this.start();
			this.storePrompt();
			const result = await this.agent.run(prompt, controller.signal);
			if (this.focused === false) this.notify("idle_prompt", "gar finished the task and waits for you");
			return result;
		} finally {
			this.controller = null;
		}
	}

	/**
	 * Runs the SessionStart hooks (`source` startup, or resume for a continued conversation) once; their context
	 * goes with the first request. The first run calls it too; a mode calls it early to run them at once.
	 */
	start(): Promise<void> {
		const resumed = (this.options.history?.length ?? 0) > 0;
		this.starting ??=
			this.hooks?.sessionStart(resumed ? "resume" : "startup", this.outside.signal) ?? Promise.resolve();
		return this.starting;
	}

	/** Tells the conversation whether the person's terminal has focus: a run that ends unseen sends a Notification. */
	setFocused(focused: boolean | null): void {
		this.focused = focused;
	}

	/** Queues a steering message, delivered after the current tool. False when no run is going. */
	steer(message: string | UserInput): boolean {
		if (!this.controller) return false;
		this.queue.steer(message);
		return true;
	}

	/** Queues a follow-up, delivered when the run would otherwise end. False when no run is going. */
	followUp(message: string | UserInput): boolean {
		if (!this.controller) return false;
		this.queue.followUp(message);
		return true;
	}

	/** Aborts the current run, if any: streaming stops and the running command's (or hook's) process group is killed. */
	abort(): void {
		this.controller?.abort();
		this.outside.abort();
		this.outside = new AbortController();
	}

	/** Switches the model (and provider) for the next run; recorded as model_change. `prices`: the config's. */
	setModel(provider: Provider, model: string, contextWindow: number | null, prices?: Pricing): void {
		if (this.controller) throw new ConversationBusyError("switch the model");
		this.choose({ provider, model, contextWindow, ...(prices ? { prices } : {}) });
	}

	/** A window learnt after the start (its server told it), from the next request on: a model_change, same model. */
	setContextWindow(contextWindow: number): void {
		this.choose({ ...this.agent.current, contextWindow });
	}

	private choose(choice: ModelChoice): void {
		this.agent.setModel(choice);
		const { provider, model, contextWindow } = choice;
		this.channel.emit({ type: "model_change", provider: provider.name, model, contextWindow, ...pricedFlag(choice) });
	}

	/** Moves the leaf to an earlier entry (null: a new root): the next message starts a branch there. */
	branch(entryId: string | null): void {
		if (this.controller) throw new ConversationBusyError("move to another entry");
		if (!this.writer) throw new Error("this conversation is not saved, so it has no entries to move to");
		this.writer.moveTo(entryId);
		this.agent.replaceMessages(buildContext(this.writer.session, entryId).messages);
		this.compactor.reset(this.agent.messages);
	}

	/**
	 * Starts over in a new session (or unsaved, when no session can be opened); forgets session-wide approvals. The
	 * old session's SessionEnd hooks and the new one's SessionStart hooks run with reason and source "clear"; without
	 * hooks it is done when this returns.
	 */
	newSession(): Promise<void> {
		if (this.controller) throw new ConversationBusyError("start a new session");
		return this.changeSession(() => this.attach(this.options.openSession?.() ?? null), "clear", "clear");
	}

	/**
	 * Goes on in another session (a fork or clone, or one the picker opens) from its leaf, as newSession does (hooks:
	 * other, resume).
	 */
	switchSession(writer: SessionWriter): Promise<void> {
		if (this.controller) throw new ConversationBusyError("switch to another session");
		return this.changeSession(() => this.attach(writer), "other", "resume");
	}

	/** Ends this session's hooks, switches (`attach`), and starts the next one's; only `attach` without hooks. */
	private changeSession(attach: () => void, reason: string, source: string): Promise<void> {
		const hooks = this.starting ? this.hooks : undefined;
		if (!hooks) return Promise.resolve(attach());
		return (async () => {
			await hooks.sessionEnd(reason, this.outside.signal);
			attach();
			hooks.takeContext();
			this.starting = hooks.sessionStart(source, this.outside.signal);
			await this.starting;
		})();
	}

	/** Records to `writer` from now on, with its context (none for a new session); the old file is closed. */
	private attach(writer: SessionWriter | null): void {
		this.detach?.();
		this.detach = null;
		this.writer?.close();
		this.writer = writer;
		this.record();
		this.agent.replaceMessages(writer ? buildContext(writer.session).messages : []);
		this.compactor.reset(this.agent.messages);
		this.policy.forgetSession();
	}

	/** Replaces the context sent from now on (compaction); the session keeps the full history. */
	replaceContext(messages: Message[]): void {
		if (this.controller) throw new ConversationBusyError("replace the context");
		this.agent.replaceMessages(messages);
		this.compactor.reset(messages);
	}

	/**
	 * Summarizes the older part of the context now (`/compact [focus]`, `gar compact`): the recent turns stay
	 * verbatim, and a compaction node is saved. abort() (or `signal`) stops it and leaves everything as it was.
	 * Rejects with ConversationBusyError during a run; otherwise never rejects.
	 */
	async compact(focus?: string, signal?: AbortSignal): Promise<CompactionResult> {
		if (this.controller) throw new ConversationBusyError("compact");
		const controller = new AbortController();
		this.controller = controller;
		const onAbort = () => controller.abort();
		if (signal?.aborted) controller.abort();
		signal?.addEventListener("abort", onAbort, { once: true });
		try {
			const topic = focus?.trim();
			await this.hooks?.preCompact("manual", topic ?? "", controller.signal);
			const outcome = await this.compactor.compact(this.agent.messages, {
				reason: "manual",
				signal: controller.signal,
				...(topic ? { focus: topic } : {}),
			});
			if (outcome.ok) {
				this.agent.replaceMessages(outcome.messages);
				await this.hooks?.sessionStart("compact", controller.signal);
			} else if (!outcome.ok && outcome.nothing)
				this.channel.emit({ type: "notice", level: "info", message: outcome.error });
			return resultOf(outcome);
		} finally {
			signal?.removeEventListener("abort", onAbort);
			this.controller = null;
		}
	}

	/** Runs a shell command for the person (`!cmd`) with the bash tool; bounded output, never throws. */
	async runShell(command: string, signal: AbortSignal = new AbortController().signal): Promise<ToolResult> {
		const bash = this.options.tools.find((t) => t.name === "bash");
		if (!bash) return { content: "the bash tool is not enabled (--tools)", details: null, isError: true };
		return runTool(bash, { command }, { signal });
	}

	/** Adds a shell command's output to the context without calling the model; the next request includes it. */
	addShellContext(command: string, result: ToolResult): void {
		if (this.controller) throw new ConversationBusyError("add context");
		this.agent.addUserMessage(shellContext(command, result), "shell");
	}

	/** Whether mutating calls must ask from now on (ACP's session modes); the calls of a running reply follow at once. */
	setApprovalRequired(required: boolean): void {
		this.policy.required = required;
	}

	/** Lets `tool` run without asking for the rest of this session. */
	allowForSession(tool: string): void {
		this.policy.allowForSession(tool);
	}

	/** The exact body of a recent model request (for the request viewer); undefined when no longer kept. */
	requestBody(requestId: string): unknown {
		return this.agent.requestBody(requestId);
	}

	/** A recent model request as made, and what was sent (the last 8; undefined when no longer kept). */
	recentRequest(requestId: string): Readonly<KeptRequest> | undefined {
		return this.agent.recentRequest(requestId);
	}

	/**
	 * Ends the conversation: aborts a run, runs the SessionEnd hooks (`reason`: prompt_input_exit when the person
	 * quit, other otherwise) when the session started, and closes the session file (at once without such hooks).
	 */
	close(reason: "prompt_input_exit" | "other" = "other"): Promise<void> {
		this.abort();
		const hooks = this.starting ? this.hooks : undefined;
		this.starting = null;
		const end = () => {
			this.detach?.();
			this.detach = null;
			this.writer?.close();
		};
		// Without hooks the file is closed when this returns.
		if (!hooks?.has("SessionEnd")) return Promise.resolve(end());
		return hooks.sessionEnd(reason, this.outside.signal).then(end);
	}

	/** The loop's compaction seam: compacts when due ("auto") or after a too-long request ("overflow"). */
	private async compactStep(
		history: readonly Message[],
		info: { reason: "auto" | "overflow"; signal: AbortSignal },
	): Promise<CompactStep | null> {
		if (info.reason === "auto" && !this.compactor.due(history)) return null;
		await this.hooks?.preCompact("auto", "", info.signal);
		const outcome = await this.compactor.compact(history, info);
		const { usage, costUsd } = outcome;
		if (outcome.ok) {
			// Its context reaches the model with the next request (the loop takes it then).
			await this.hooks?.sessionStart("compact", info.signal);
			return { ok: true, messages: outcome.messages, usage, costUsd };
		}
		if (outcome.nothing && info.reason === "auto") return null;
		return { ok: false, error: outcome.error, usage, costUsd };
	}

	/** Claude Code's `permission_mode` for hooks: asks (default), denies what would ask (dontAsk), or never asks. */
	private permissionMode(): PermissionMode {
		if (!this.policy.required) return "bypassPermissions";
		return this.options.approval.ask ? "default" : "dontAsk";
	}

	/** A Notification hook, not waited for: the person's question or the idle screen must not wait on it. */
	private notify(type: "permission_prompt" | "idle_prompt", message: string): void {
		if (this.hooks?.has("Notification")) void this.hooks.notification(type, message, new AbortController().signal);
	}

	private async ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
		const ask = this.options.approval.ask;
		if (!ask) {
			const reason = request.reason
				? `${request.reason}; there is no one to ask in headless mode, so the call is denied`
				: "approval is required and there is no one to ask; list the tool in agent.auto_approve to allow it";
			return { approved: false, reason };
		}
		this.notify("permission_prompt", `gar needs your permission to use ${request.name}`);
		const decision = await untilAborted(ask(request, signal), signal);
		this.policy.answered(request, decision);
		if (decision.stop) this.abort();
		return decision;
	}

	private record(): void {
		if (!this.writer) return;
		const recorder = new SessionRecorder(this.writer, (file, error) =>
			this.channel.emit({ type: "session_error", file, error }),
		);
		this.detach = recorder.attach(this.channel);
	}

	/** Stores the system prompt and tool definitions in the session, once per distinct prompt. */
	private storePrompt(): void {
		if (!this.writer) return;
		const { system, tools } = this.options;
		const specs = tools.map(toToolSpec);
		const info = describeSystem(system);
		try {
			this.writer.ensurePrompt({
				hash: info.hash,
				text: system.text,
				parts: info.parts.map((part, i) => ({ ...part, text: system.parts[i]?.text ?? "" })),
				toolsHash: describeTools(specs).hash,
				tools: specs,
			});
		} catch (error) {
			this.channel.emit({
				type: "session_error",
				file: this.writer.file,
				error: error instanceof Error ? error.message : String(error),
			});
		}
	}
}

function resultOf(outcome: CompactOutcome): CompactionResult {
	const { ok, tokensBefore, usage, costUsd } = outcome;
	if (outcome.ok) return { ok, tokensBefore, tokensAfter: outcome.tokensAfter, usage, costUsd };
	return {
		ok,
		tokensBefore,
		tokensAfter: tokensBefore,
		error: outcome.error,
		aborted: outcome.aborted,
		usage,
		costUsd,
	};
}

/** The defined values of some keys of an object (for exactOptional-friendly spreading). */
function pick<T extends object, K extends keyof T>(object: T, keys: K[]): Partial<Pick<T, K>> {
	const out: Partial<Pick<T, K>> = {};
	for (const key of keys) if (object[key] !== undefined) out[key] = object[key];
	return out;
}
