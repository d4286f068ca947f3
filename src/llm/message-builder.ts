import {
	type AssistantBlock,
	type AssistantMessage,
	EMPTY_USAGE,
	type ErrorKind,
	type StopReason,
	type StreamEvent,
	type TextBlock,
	type ThinkingBlock,
	type ToolCallBlock,
	type Usage,
} from "./types.js";

/** Parses a tool call's joined argument text; text that is not a JSON object is kept as `rawArguments`. */
export function parseArguments(text: string): Pick<ToolCallBlock, "arguments" | "rawArguments"> {
	if (text.trim() === "") return { arguments: {} };
	try {
		const value: unknown = JSON.parse(text);
		if (value && typeof value === "object" && !Array.isArray(value)) {
			return { arguments: value as Record<string, unknown> };
		}
	} catch {
		// Not JSON: fall through and keep the text.
	}
	return { arguments: {}, rawArguments: text };
}

/**
 * Accumulates one assistant reply from stream deltas and emits the matching stream events. Work per delta is
 * O(delta): text is appended, tool-call argument fragments are collected and joined once at the block's end.
 * Every delta event carries `contentIndex`, the block's index in the final `content`.
 * After `finish` the builder is frozen: later deltas (from a request still winding down) are ignored.
 */
export class MessageBuilder {
	readonly content: AssistantBlock[] = [];
	usage: Usage = { ...EMPTY_USAGE };
	/** The cost the server reported for the reply (OpenRouter's `usage.cost`), USD. */
	reportedCostUsd: number | undefined;
	/** True once the server sent anything of the reply itself. */
	started = false;
	#done = false;
	/** The reply's closing usage report arrived (not only the counts some providers send at its start). */
	#usageFinal = false;
	/** Characters streamed (text, thinking, tool arguments): the estimate of a reply cut before its usage came. */
	#streamed = 0;
	readonly #openTools = new Map<string, { block: ToolCallBlock; chunks: string[]; index: number }>();
	readonly #index = new Map<AssistantBlock, number>();

	constructor(
		readonly provider: string,
		readonly model: string,
		private readonly emit: (event: StreamEvent) => void,
	) {}

	#push<T extends AssistantBlock>(block: T): T {
		if (!this.#done) this.#index.set(block, this.content.push(block) - 1);
		return block;
	}

	/** The index of `block` in `content` (-1 when it was never added). */
	indexOf(block: AssistantBlock): number {
		return this.#index.get(block) ?? -1;
	}

	/**
	 * Merges reported token counts (providers report some at the start and the rest at the end); `final`: this is
	 * the report that closes the reply, so a cut after it needs no estimate.
	 */
	setUsage(update: Partial<Usage>, final = false): void {
		if (this.#done) return;
		this.usage = { ...this.usage, ...update };
		if (final) this.#usageFinal = true;
	}

	newText(): TextBlock {
		return this.#push({ type: "text", text: "" });
	}

	newThinking(field?: string): ThinkingBlock {
		return this.#push<ThinkingBlock>(
			field ? { type: "thinking", thinking: "", field } : { type: "thinking", thinking: "" },
		);
	}

	/** Appends to `block`, or to the last block when it is text, or to a new text block. */
	text(delta: string, block?: TextBlock): void {
		if (this.#done || delta === "") return;
		const last = this.content[this.content.length - 1];
		const target = block ?? (last?.type === "text" ? last : this.newText());
		target.text += delta;
		this.#streamed += delta.length;
		this.emit({ type: "text_delta", delta, contentIndex: this.indexOf(target) });
	}

	/**
	 * Appends to `block`, or to the last block when it is unsigned thinking from the same `field`, or to a new
	 * thinking block.
	 */
	thinking(delta: string, block?: ThinkingBlock, field?: string): void {
		if (this.#done || delta === "") return;
		const last = this.content[this.content.length - 1];
		const target =
			block ?? (last?.type === "thinking" && !last.signature && last.field === field ? last : this.newThinking(field));
		target.thinking += delta;
		this.#streamed += delta.length;
		this.emit({ type: "thinking_delta", delta, contentIndex: this.indexOf(target) });
	}

	startTool(id: string, name: string): void {
		if (this.#done) return;
		const block = this.#push<ToolCallBlock>({ type: "tool_call", id, name, arguments: {} });
		const index = this.indexOf(block);
		this.#openTools.set(id, { block, chunks: [], index });
		this.emit({ type: "toolcall_start", id, name, contentIndex: index });
	}

	toolDelta(id: string, delta: string): void {
		const open = this.#openTools.get(id);
		if (this.#done || !open || delta === "") return;
		open.chunks.push(delta);
		this.#streamed += delta.length;
		this.emit({ type: "toolcall_delta", id, delta, contentIndex: open.index });
	}

	/** Parses the joined arguments. Returns the finished block, or undefined for an unknown id. */
	endTool(id: string): ToolCallBlock | undefined {
		const open = this.#openTools.get(id);
		if (!open) return undefined;
		this.#openTools.delete(id);
		Object.assign(open.block, parseArguments(open.chunks.join("")));
		return open.block;
	}

	/** Sets a thinking block's signature (or, for redacted thinking, its opaque data). */
	sign(block: ThinkingBlock, signature: string): void {
		if (!this.#done) block.signature = (block.signature ?? "") + signature;
	}

	/** Replaces a text block's text without an event (structured output normalises its JSON at the end). */
	setText(block: TextBlock, text: string): void {
		if (!this.#done) block.text = text;
	}

	/**
	 * Freezes the builder and returns the final message. Tool calls still open are closed with what arrived. A reply
	 * cut or aborted after it streamed, before its usage report, gets an estimated output (characters / 4, at least
	 * what was reported) marked `estimated`: the provider bills what it generated, so 0 (or Anthropic's opening 1)
	 * would understate it.
	 */
	finish(stopReason: StopReason, error?: string, errorKind?: ErrorKind): AssistantMessage {
		for (const id of [...this.#openTools.keys()]) this.endTool(id);
		this.#done = true;
		const cut = stopReason === "aborted" || stopReason === "error";
		if (cut && !this.#usageFinal && this.#streamed > 0) {
			const output = Math.max(this.usage.output, Math.ceil(this.#streamed / 4));
			this.usage = { ...this.usage, output, estimated: true };
		}
		const message: AssistantMessage = {
			role: "assistant",
			content: this.content,
			provider: this.provider,
			model: this.model,
			usage: this.usage,
			stopReason,
		};
		if (error !== undefined) message.error = error;
		if (errorKind !== undefined) message.errorKind = errorKind;
		if (this.reportedCostUsd !== undefined) message.reportedCostUsd = this.reportedCostUsd;
		return message;
	}
}
