/**
 * Canonical message and stream types shared by every provider. This module imports nothing from the project:
 * agent/, session/ and the UI all speak these types, and each adapter maps its wire format into them.
 */

/** How an assistant message ended. "refusal": the model declined; its words are the reply's text. */
export type StopReason = "stop" | "length" | "tool_use" | "error" | "aborted" | "refusal";

/**
 * Why a model call failed, classified where the provider error is in hand (status, error type, wording), so
 * callers such as overflow recovery never match gar's own prose.
 */
export type ErrorKind =
	| "overflow"
	| "rate_limit"
	| "overloaded"
	| "auth"
	| "network"
	| "timeout"
	| "refusal"
	| "server"
	| "invalid_request"
	| "aborted"
	| "other";

export type TextBlock = { type: "text"; text: string };
/**
 * Model reasoning. `signature` must be sent back unchanged to Anthropic on the next turn. `field`: on the
 * OpenAI-compatible wire, where the reasoning came from ("reasoning_content", "reasoning", "reasoning_details",
 * "thinking_part" for Mistral's content parts, or "think_tag" for `<think>` inside the content); "reasoning_content"
 * is sent back with tool calls.
 */
export type ThinkingBlock = {
	type: "thinking";
	thinking: string;
	signature?: string;
	redacted?: boolean;
	field?: string;
};
/** A tool call. `arguments` is the parsed JSON object; `rawArguments` keeps the text when it did not parse. */
export type ToolCallBlock = {
	type: "tool_call";
	id: string;
	name: string;
	arguments: Record<string, unknown>;
	rawArguments?: string;
};
export type AssistantBlock = TextBlock | ThinkingBlock | ToolCallBlock;

/**
 * Token counts as the provider reported them. `input` excludes cached tokens. `estimated`: the reply was cut or
 * aborted before the provider reported its usage, so the counts are gar's estimate (characters / 4) of what was
 * sent and streamed; a sum that includes an estimate is estimated too.
 */
export type Usage = { input: number; output: number; cacheRead: number; cacheWrite: number; estimated?: boolean };

export type UserMessage = { role: "user"; content: string };
export type AssistantMessage = {
	role: "assistant";
	content: AssistantBlock[];
	provider: string;
	model: string;
	usage: Usage;
	stopReason: StopReason;
	/** Set when stopReason is "error" or "aborted": what went wrong, in words a person can act on. */
	error?: string;
	/** Set when stopReason is "error", "aborted" or "refusal". */
	errorKind?: ErrorKind;
	/** What the provider said the reply cost, in USD (OpenRouter's `usage.cost`): used before any price table. */
	reportedCostUsd?: number;
};
export type ToolResultMessage = {
	role: "tool_result";
	callId: string;
	name: string;
	content: string;
	isError: boolean;
};
export type Message = UserMessage | AssistantMessage | ToolResultMessage;

/** A tool as the model sees it: JSON Schema parameters. */
export type ToolSpec = { name: string; description: string; parameters: Record<string, unknown> };

export type ThinkingLevel = "off" | "low" | "medium" | "high";

/** Everything a provider needs for one model call. */
export type ModelRequest = {
	model: string;
	system: string;
	messages: Message[];
	tools: ToolSpec[];
	maxTokens?: number;
	thinking?: ThinkingLevel;
	/**
	 * Structured output: the final answer must be JSON matching `schema`. Providers use their native mechanism
	 * (a forced tool call on Anthropic, `response_format` on OpenAI) and return the JSON as a text block.
	 */
	responseSchema?: { name: string; schema: Record<string, unknown> };
	signal?: AbortSignal;
	/** Told what went out when the request is sent (each attempt): for the request viewer and the session's hash. */
	onSent?: (sent: SentRequest) => void;
};

/**
 * A request as it went out: the URL (without userinfo), the headers with credentials masked, and the sha256 (hex)
 * and size of the body's exact bytes (null: a body that was not bytes gar could hash).
 */
export type SentRequest = {
	method: string;
	url: string;
	headers: Record<string, string>;
	bodySha256: string | null;
	bodyBytes: number;
};

/** A retry gar is about to make: `attempt` of `maxAttempts` retries, after waiting `delayMs`. */
export type RetryNotice = {
	attempt: number;
	maxAttempts: number;
	reason: string;
	delayMs: number;
	errorKind: ErrorKind;
};

/**
 * What a provider stream yields. Deltas carry only the delta and `contentIndex`, the index of the block in the
 * final message's `content` they belong to. The last event is always `done` with the final message, even after
 * an error or an abort.
 */
export type StreamEvent =
	| { type: "start" }
	| { type: "text_delta"; delta: string; contentIndex: number }
	| { type: "thinking_delta"; delta: string; contentIndex: number }
	| { type: "toolcall_start"; id: string; name: string; contentIndex: number }
	| { type: "toolcall_delta"; id: string; delta: string; contentIndex: number }
	| ({ type: "retry" } & RetryNotice)
	| { type: "done"; message: AssistantMessage };

/**
 * A model backend. Contract: `stream` never throws and never rejects; network, API and parse failures end the
 * stream with a `done` message whose stopReason is "error" (with `error` set), an abort with "aborted".
 * Content produced before the failure is kept in that message.
 */
export interface Provider {
	readonly name: string;
	stream(request: ModelRequest): AsyncIterable<StreamEvent>;
	/** The exact JSON body `stream` would send for `request` (for the request viewer); pure, never throws. */
	body?(request: ModelRequest): unknown;
}

export const EMPTY_USAGE: Usage = Object.freeze({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });

export function addUsage(a: Usage, b: Usage): Usage {
	const sum: Usage = {
		input: a.input + b.input,
		output: a.output + b.output,
		cacheRead: a.cacheRead + b.cacheRead,
		cacheWrite: a.cacheWrite + b.cacheWrite,
	};
	if (a.estimated || b.estimated) sum.estimated = true;
	return sum;
}

/** The text of an assistant message's text blocks, joined. */
export function textOf(message: AssistantMessage): string {
	let out = "";
	for (const block of message.content) if (block.type === "text") out += block.text;
	return out;
}

export function toolCallsOf(message: AssistantMessage): ToolCallBlock[] {
	return message.content.filter((b): b is ToolCallBlock => b.type === "tool_call");
}
