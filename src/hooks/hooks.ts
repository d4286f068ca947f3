import type { HookEntry } from "../config/types.js";
import { fromToolInput, toolInput } from "./payload.js";
import { runHookProcess } from "./process.js";
import type {
	HookEventName,
	HookRun,
	HookToolCall,
	HookToolResult,
	PostToolVerdict,
	PreToolVerdict,
	PromptVerdict,
	StepHooks,
	StopVerdict,
} from "./types.js";
import { hookName, hookRun, interpret, type Verdict } from "./verdict.js";

/** Claude Code's `permission_mode` for gar's approval policy (README "Hooks"). */
export type PermissionMode = "default" | "dontAsk" | "bypassPermissions";

/** What the hooks need from the conversation that owns them, read at each run (the session can change). */
export type HookOwner = {
	/** Reports one hook run (the Conversation emits it as a `hook` event), with what it printed (`gar hooks test`). */
	emit(run: HookRun, output: { stdout: string; stderr: string }): void;
	/** The session being written, if any: its id and file. */
	session(): { id: string; file: string } | null;
	permissionMode(): PermissionMode;
};

export type HooksOptions = {
	/** The hooks that may run (config: runnableHooks), in config order. */
	hooks: readonly HookEntry[];
	/** Where the commands run; GAR_PROJECT_DIR and CLAUDE_PROJECT_DIR. */
	projectDir: string;
	/** The agent's working directory: the payload's `cwd`, and where tool paths resolve. */
	cwd: string;
	/** The bash tool's scrubbed environment (no API keys). */
	env: NodeJS.ProcessEnv;
	shell?: string;
	/** Between SIGTERM and SIGKILL to a hook's process group (1 s). */
	graceMs?: number;
	now?: () => number;
};

/** One matching hook's run: the hook, what it decided, and what it printed. */
export type HookOutcome = {
	hook: HookEntry;
	name: string;
	verdict: Verdict;
	run: HookRun;
	output: { stdout: string; stderr: string };
};

/** The extra fields of one event's payload, and what its matchers match (a tool name, a source, a trigger). */
export type HookCall = {
	fields: Record<string, unknown>;
	target?: string;
	call?: { id: string; name: string };
};

/** Events whose matcher means nothing (Claude Code ignores it too): every hook of theirs runs. */
const UNMATCHED = new Set<HookEventName>(["UserPromptSubmit", "Stop"]);

const who = (event: HookEventName, outcome: HookOutcome) => `the ${event} hook ${outcome.name}`;
const joined = (texts: string[]) => (texts.length > 0 ? texts.join("\n\n") : undefined);

/**
 * The configured hooks of one conversation: runs the hooks matching an event in parallel (each in its own process
 * group, given the event's JSON on stdin), reports every run, and combines their verdicts for the step that asked.
 * Never throws. Created only when hooks are configured: a conversation without any never loads this module.
 */
export class Hooks implements StepHooks {
	private owner: HookOwner | undefined;
	private pending: string[] = [];
	private readonly matchers = new Map<string, RegExp | null>();

	constructor(private readonly o: HooksOptions) {}

	/** Connects the hooks to their conversation (its session, its event channel, its approval policy). */
	attach(owner: HookOwner): void {
		this.owner = owner;
	}

	/** Whether any hook is configured for `event`. */
	has(event: HookEventName): boolean {
		return this.o.hooks.some((hook) => hook.event === event);
	}

	/** Runs the hooks of `event` that match `call.target`, in parallel; one `hook` event each, in config order. */
	async run(event: HookEventName, call: HookCall, signal: AbortSignal): Promise<HookOutcome[]> {
		const hooks = this.o.hooks.filter((hook) => hook.event === event && this.matches(hook, call.target));
		if (hooks.length === 0) return [];
		const session = this.owner?.session() ?? null;
		const input = JSON.stringify({
			session_id: session?.id ?? null,
			transcript_path: session?.file ?? null,
			cwd: this.o.cwd,
			hook_event_name: event,
			permission_mode: this.owner?.permissionMode() ?? "default",
			...call.fields,
		});
		const env = {
			...this.o.env,
			GAR_PROJECT_DIR: this.o.projectDir,
			CLAUDE_PROJECT_DIR: this.o.projectDir,
			GAR_SESSION_ID: session?.id ?? "",
		};
		const outcomes = await Promise.all(
			hooks.map(async (hook): Promise<HookOutcome> => {
				const timeoutMs = hook.timeout * 1000;
				const proc = await runHookProcess(hook.command, input, {
					cwd: this.o.projectDir,
					env,
					timeoutMs,
					signal,
					...(this.o.shell ? { shell: this.o.shell } : {}),
					...(this.o.graceMs === undefined ? {} : { graceMs: this.o.graceMs }),
					...(this.o.now ? { now: this.o.now } : {}),
				});
				const verdict = interpret(event, proc, timeoutMs);
				const run = hookRun(hook, verdict, proc, call.call);
				return {
					hook,
					name: hookName(hook.command),
					verdict,
					run,
					output: { stdout: proc.stdout, stderr: proc.stderr },
				};
			}),
		);
		for (const outcome of outcomes) this.owner?.emit(outcome.run, outcome.output);
		return outcomes;
	}

	async beforeTool(call: HookToolCall, signal: AbortSignal): Promise<PreToolVerdict> {
		const outcomes = await this.run("PreToolUse", toolCall(call, this.o.cwd), signal);
		const verdict: PreToolVerdict = {};
		const rank = { allow: 1, ask: 2, deny: 3 } as const;
		for (const { verdict: v } of outcomes) {
			if (v.decision === "allow" || v.decision === "ask" || v.decision === "deny") {
				if (!verdict.decision || rank[v.decision] > rank[verdict.decision]) verdict.decision = v.decision;
			}
		}
		const deciding = outcomes.filter((o) => o.verdict.decision === verdict.decision && verdict.decision);
		const reasons = deciding.map((o) => `${who("PreToolUse", o)}${o.verdict.reason ? `: ${o.verdict.reason}` : ""}`);
		if (reasons.length > 0) verdict.reason = reasons.join("; ");
		const updated = outcomes.find((o) => o.verdict.updatedInput)?.verdict.updatedInput;
		if (updated) verdict.updatedInput = fromToolInput(call.args, updated, this.o.cwd);
		return withStopAndContext(verdict, "PreToolUse", outcomes);
	}

	async afterTool(call: HookToolCall, result: HookToolResult, signal: AbortSignal): Promise<PostToolVerdict> {
		const base = toolCall(call, this.o.cwd);
		const response = { ...result, success: !result.isError, ...fileOf(base.fields.tool_input) };
		const outcomes = await this.run(
			"PostToolUse",
			{ ...base, fields: { ...base.fields, tool_response: response } },
			signal,
		);
		const said = outcomes.flatMap((o) => {
			const texts = [o.verdict.decision === "block" ? o.verdict.reason : undefined, o.verdict.context];
			return texts.filter((t): t is string => !!t).map((text) => `The PostToolUse hook ${o.name} says: ${text}`);
		});
		const verdict: PostToolVerdict = {};
		const feedback = joined(said);
		if (feedback) verdict.feedback = feedback;
		const stop = stopOf("PostToolUse", outcomes);
		if (stop) verdict.stop = stop;
		return verdict;
	}

	async beforePrompt(prompt: string, signal: AbortSignal): Promise<PromptVerdict> {
		const outcomes = await this.run("UserPromptSubmit", { fields: { prompt } }, signal);
		const blocks = outcomes.filter((o) => o.verdict.decision === "block" || o.verdict.decision === "stop");
		if (blocks.length > 0) {
			const why = blocks.map((o) => `${who("UserPromptSubmit", o)}: ${o.verdict.reason}`).join("; ");
			return { block: `the prompt was not sent: ${why}` };
		}
		const context = contextOf("UserPromptSubmit", outcomes);
		return context ? { context } : {};
	}

	async beforeStop(lastMessage: string, active: boolean, signal: AbortSignal): Promise<StopVerdict> {
		const fields = { stop_hook_active: active, last_assistant_message: lastMessage };
		const outcomes = await this.run("Stop", { fields }, signal);
		const stop = stopOf("Stop", outcomes);
		if (stop) return { stop };
		const reasons = outcomes.flatMap((o) =>
			o.verdict.decision === "block" && o.verdict.reason ? [o.verdict.reason] : [],
		);
		return reasons.length > 0 ? { continueWith: reasons.join("\n\n") } : {};
	}

	/** SessionStart (`source`: startup, resume, clear, compact): its context waits for the next request. */
	async sessionStart(source: string, signal: AbortSignal): Promise<void> {
		const context = contextOf(
			"SessionStart",
			await this.run("SessionStart", { fields: { source }, target: source }, signal),
		);
		if (context) this.pending.push(context);
	}

	/** SessionEnd (`reason`: clear, prompt_input_exit, other). */
	async sessionEnd(reason: string, signal: AbortSignal): Promise<void> {
		await this.run("SessionEnd", { fields: { reason }, target: reason }, signal);
	}

	/** PreCompact (`trigger`: manual or auto), with the person's focus as `custom_instructions`. */
	async preCompact(trigger: "manual" | "auto", focus: string, signal: AbortSignal): Promise<void> {
		await this.run("PreCompact", { fields: { trigger, custom_instructions: focus }, target: trigger }, signal);
	}

	/** Notification (`type`: permission_prompt, idle_prompt), with what gar would tell the person. */
	async notification(type: string, message: string, signal: AbortSignal): Promise<void> {
		await this.run("Notification", { fields: { message, notification_type: type }, target: type }, signal);
	}

	takeContext(): string[] {
		const taken = this.pending;
		this.pending = [];
		return taken;
	}

	/** Whether `hook` runs for `target`: no matcher, "" or "*" match all; else a case-insensitive whole-name regex. */
	private matches(hook: HookEntry, target: string | undefined): boolean {
		const { matcher } = hook;
		if (matcher === undefined || matcher === "" || matcher === "*" || UNMATCHED.has(hook.event)) return true;
		if (target === undefined) return true;
		let regex = this.matchers.get(matcher);
		if (regex === undefined) {
			try {
				regex = new RegExp(`^(?:${matcher})$`, "i");
			} catch {
				regex = null; // the config checked it; a matcher that does not compile matches nothing
			}
			this.matchers.set(matcher, regex);
		}
		return regex?.test(target) ?? false;
	}
}

/** The fields every tool event carries: the tool's name, its input (with `file_path`) and the call's id. */
function toolCall(call: HookToolCall, cwd: string): HookCall & { fields: { tool_input: Record<string, unknown> } } {
	return {
		fields: { tool_name: call.name, tool_input: toolInput(call.args, cwd), tool_use_id: call.id },
		target: call.name,
		call: { id: call.id, name: call.name },
	};
}

/** `filePath` in a file tool's response, as Claude Code's has it. */
function fileOf(input: Record<string, unknown>): { filePath?: string } {
	return typeof input.file_path === "string" ? { filePath: input.file_path } : {};
}

function contextOf(event: HookEventName, outcomes: HookOutcome[]): string | undefined {
	return joined(
		outcomes.flatMap((o) => (o.verdict.context ? [`Context from ${who(event, o)}:\n${o.verdict.context}`] : [])),
	);
}

function stopOf(event: HookEventName, outcomes: HookOutcome[]): string | undefined {
	const stopping = outcomes.filter((o) => o.verdict.decision === "stop");
	if (stopping.length === 0) return undefined;
	return `stopped by ${stopping.map((o) => `${who(event, o)}: ${o.verdict.reason}`).join("; ")}`;
}

function withStopAndContext(verdict: PreToolVerdict, event: HookEventName, outcomes: HookOutcome[]): PreToolVerdict {
	const context = contextOf(event, outcomes);
	if (context) verdict.context = context;
	const stop = stopOf(event, outcomes);
	if (stop) verdict.stop = stop;
	return verdict;
}
