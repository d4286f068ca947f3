import type { AssistantMessage, StopReason, ToolResultMessage, Usage, UserMessage } from "../llm/types.js";
import type { ToolResult } from "../tools/types.js";

/** Why a run ended. */
export type RunStopReason = "done" | "max_turns" | "error" | "aborted" | "length";

/**
 * Everything the agent loop does, as one typed stream. The UI, the session writer and the headless JSON output
 * all subscribe to it. Deltas carry only the delta, never the whole partial message.
 */
export type AgentEvent =
	| { type: "agent_start"; runId: string; provider: string; model: string }
	/** A user message entered the context (the prompt, a steer, a follow-up). Emitted before the model is called. */
	| { type: "user_message"; message: UserMessage }
	| { type: "turn_start"; turn: number }
	| { type: "message_start"; turn: number }
	| { type: "text_delta"; delta: string }
	| { type: "thinking_delta"; delta: string }
	| { type: "toolcall_start"; callId: string; name: string }
	| { type: "toolcall_delta"; callId: string; delta: string }
	/** The final assistant message of one model call, with its usage and cost (null when the price is unknown). */
	| { type: "message_end"; message: AssistantMessage; costUsd: number | null }
	| { type: "tool_start"; callId: string; name: string; args: Record<string, unknown> }
	| { type: "tool_update"; callId: string; name: string; details: unknown }
	| {
			type: "tool_end";
			callId: string;
			name: string;
			result: ToolResult;
			message: ToolResultMessage;
			durationMs: number;
	  }
	| { type: "approval_request"; callId: string; name: string; args: Record<string, unknown> }
	| { type: "approval_result"; callId: string; approved: boolean; reason?: string }
	| { type: "retry"; attempt: number; reason: string; delayMs: number }
	| { type: "turn_end"; turn: number; stopReason: StopReason }
	| {
			type: "agent_end";
			stopReason: RunStopReason;
			turns: number;
			usage: Usage;
			costUsd: number | null;
			durationMs: number;
			error?: string;
	  };

export type AgentEventType = AgentEvent["type"];
