import {
	type AssistantBlock,
	type AssistantMessage,
	EMPTY_USAGE,
	type ModelRequest,
	type Provider,
	type StreamEvent,
	type Usage,
} from "./types.js";

/**
 * One scripted model reply. Used by the in-process `scripted` provider and by the test wire server, which
 * serves the same script over the real Anthropic and OpenAI protocols.
 */
export type ScriptedTurn = {
	/** Reply text; an array is sent as that many deltas. */
	text?: string | string[];
	/** Reasoning text; an array is sent as that many deltas. */
	thinking?: string | string[];
	/** Tool calls; each one's JSON arguments are sent in `chunks` fragments (default 3). */
	toolCalls?: { id?: string; name: string; args: Record<string, unknown>; chunks?: number }[];
	usage?: Partial<Usage>;
	/** Defaults to "tool_use" when there are tool calls, else "stop". */
	stop?: "stop" | "length" | "tool_use";
	/** Pause before each delta, in ms (for abort and idle tests). */
	delayMs?: number;
	/** Something going wrong (honoured by the wire server; the scripted provider honours "error"). */
	fault?:
		| { kind: "http"; status: number; times?: number; body?: string; headers?: Record<string, string> }
		| { kind: "cut"; afterDeltas?: number }
		| { kind: "malformed"; afterDeltas?: number }
		| { kind: "silence"; afterDeltas?: number }
		| { kind: "error"; message: string };
};

/** Split `text` into `n` nearly equal pieces (at least one). */
export function splitInto(text: string, n: number): string[] {
	const parts = Math.max(1, Math.min(n, text.length || 1));
	const size = Math.ceil(text.length / parts);
	const out: string[] = [];
	for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
	return out.length ? out : [""];
}

function asChunks(value: string | string[] | undefined): string[] {
	if (value === undefined) return [];
	return typeof value === "string" ? [value] : value;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
	return new Promise((resolve) => {
		if (ms <= 0 || signal?.aborted) return resolve();
		const timer = setTimeout(done, ms);
		function done() {
			clearTimeout(timer);
			signal?.removeEventListener("abort", done);
			resolve();
		}
		signal?.addEventListener("abort", done, { once: true });
	});
}

/**
 * A provider that replays scripted turns in order, one per model call. `turns` may also be a function of the
 * request (for replies that depend on what was sent). Never throws: running out of turns ends with an error.
 */
export function createScriptedProvider(
	turns: ScriptedTurn[] | ((request: ModelRequest, call: number) => ScriptedTurn),
	options: { model?: string } = {},
): Provider & { calls: ModelRequest[] } {
	const calls: ModelRequest[] = [];
	return {
		name: "scripted",
		calls,
		async *stream(request: ModelRequest): AsyncGenerator<StreamEvent> {
			const call = calls.length;
			calls.push({ ...request, messages: [...request.messages] }); // a snapshot: the caller keeps appending
			const turn = typeof turns === "function" ? turns(request, call) : turns[call];
			const content: AssistantBlock[] = [];
			const finish = (stopReason: AssistantMessage["stopReason"], error?: string): StreamEvent => {
				const message: AssistantMessage = {
					role: "assistant",
					content,
					provider: "scripted",
					model: options.model ?? request.model,
					usage: { ...EMPTY_USAGE, ...turn?.usage },
					stopReason,
				};
				if (error) message.error = error;
				if (stopReason === "aborted") message.errorKind = "aborted";
				else if (stopReason === "error") message.errorKind = "other";
				return { type: "done", message };
			};
			yield { type: "start" };
			if (!turn) {
				yield finish("error", `scripted provider: no turn scripted for call ${call + 1}`);
				return;
			}
			const signal = request.signal;
			const delay = turn.delayMs ?? 0;
			const thinking = asChunks(turn.thinking);
			if (thinking.length) {
				const block = { type: "thinking" as const, thinking: "" };
				content.push(block);
				for (const delta of thinking) {
					await sleep(delay, signal);
					if (signal?.aborted) return yield finish("aborted", "aborted");
					block.thinking += delta;
					yield { type: "thinking_delta", delta, contentIndex: content.length - 1 };
				}
			}
			const text = asChunks(turn.text);
			if (text.length) {
				const block = { type: "text" as const, text: "" };
				content.push(block);
				for (const delta of text) {
					await sleep(delay, signal);
					if (signal?.aborted) return yield finish("aborted", "aborted");
					block.text += delta;
					yield { type: "text_delta", delta, contentIndex: content.length - 1 };
				}
			}
			for (const [i, call] of (turn.toolCalls ?? []).entries()) {
				const id = call.id ?? `call_${i + 1}`;
				const json = JSON.stringify(call.args);
				const contentIndex = content.length;
				yield { type: "toolcall_start", id, name: call.name, contentIndex };
				for (const delta of splitInto(json, call.chunks ?? 3)) {
					await sleep(delay, signal);
					if (signal?.aborted) return yield finish("aborted", "aborted");
					yield { type: "toolcall_delta", id, delta, contentIndex };
				}
				content.push({ type: "tool_call", id, name: call.name, arguments: call.args });
			}
			if (turn.fault?.kind === "error") return yield finish("error", turn.fault.message);
			yield finish(turn.stop ?? (turn.toolCalls?.length ? "tool_use" : "stop"));
		},
	};
}
