// The hooks' contract with the agent and the conversation, as types only: the agent loop and the Conversation
// import these and nothing else of hooks/, so a run without hooks loads none of their code.
import type { HookEventName } from "../config/schema.js";

export type { HookEventName };

/**
 * How a hook process ended: exit 0 or 2 (`ok`; exit 2 is a decision, not a failure), another exit code (`error`),
 * killed after its timeout (`timeout`), stopped with the run (`aborted`), or never started (`not_started`).
 */
export type HookStatus = "ok" | "error" | "timeout" | "aborted" | "not_started";

/**
 * What one hook decided: a PreToolUse hook's permission (`allow`, `deny`, `ask`), a block (exit 2 or
 * `decision: "block"`: a prompt not sent, a Stop that continues the run, feedback on a tool's result), or
 * `stop` (`continue: false`: the run stops).
 */
export type HookDecision = "allow" | "deny" | "ask" | "block" | "stop";

/** One hook run, as the `hook` event and the session's `hook` record carry it. Long texts are cut (see clipText). */
export type HookRun = {
	/** The hook event it ran for. */
	event: HookEventName;
	/** A short name for the hook: its script's file name, else the command's first word. */
	name: string;
	command: string;
	/** The config file that defines it. */
	source: string;
	/** The tool call it ran for (PreToolUse, PostToolUse). */
	callId?: string;
	tool?: string;
	status: HookStatus;
	/** null when it did not exit by itself (killed, never started). */
	exitCode: number | null;
	durationMs: number;
	decision?: HookDecision;
	/** Why: stderr of an exit 2, the JSON's reason, permissionDecisionReason or stopReason. */
	reason?: string;
	/** What the person is shown: systemMessage, plain stdout, or what went wrong (stderr of a failed hook). */
	message?: string;
	/** Text the hook added to the model's context (additionalContext, or SessionStart/UserPromptSubmit stdout). */
	context?: string;
	/** The hook changed the tool's arguments (updatedInput); tool_start carries the arguments used. */
	updatedInput?: true;
};

/** A tool call as hooks see it. */
export type HookToolCall = { id: string; name: string; args: Record<string, unknown> };

/** A tool's result as PostToolUse sees it. */
export type HookToolResult = { content: string; isError: boolean; outcome: string; details: unknown };

/**
 * What the PreToolUse hooks decided together (deny > ask > allow); `reason` names the hooks that decided it.
 * `updatedInput`: the arguments a hook asked for, in gar's names (not yet checked against the tool's schema).
 * `stop`: a hook said `continue: false`, with its reason. `context`: text for the model, added to the result.
 */
export type PreToolVerdict = {
	decision?: "allow" | "deny" | "ask";
	reason?: string;
	updatedInput?: Record<string, unknown>;
	context?: string;
	stop?: string;
};

/** What the PostToolUse hooks said: text the model reads after the result (context, or a block's reason). */
export type PostToolVerdict = { feedback?: string; stop?: string };

/** What the UserPromptSubmit hooks said: the prompt is not sent (`block`, why), or context goes with it. */
export type PromptVerdict = { block?: string; context?: string };

/** What the Stop hooks said: go on with this message (`continueWith`), or stop the run (`stop`). */
export type StopVerdict = { continueWith?: string; stop?: string };

/**
 * The hook points of the agent loop. The loop calls them at its steps; each settles (never rejects) with the
 * combined verdict of the matching hooks, having emitted one `hook` event per hook run.
 */
export interface StepHooks {
	/** PreToolUse: before a call runs (before its approval). */
	beforeTool(call: HookToolCall, signal: AbortSignal): Promise<PreToolVerdict>;
	/** PostToolUse: after a call ran (done or error). */
	afterTool(call: HookToolCall, result: HookToolResult, signal: AbortSignal): Promise<PostToolVerdict>;
	/** UserPromptSubmit: before the person's prompt enters the context. */
	beforePrompt(prompt: string, signal: AbortSignal): Promise<PromptVerdict>;
	/** Stop: where the run would end; `active` when a Stop hook already continued it. */
	beforeStop(lastMessage: string, active: boolean, signal: AbortSignal): Promise<StopVerdict>;
	/** Context waiting for the model (SessionStart's), taken once: the loop adds it before the next request. */
	takeContext(): string[];
}
