const OPEN = "<think>";
const CLOSE = "</think>";

/** The length of the longest suffix of `text` that is a proper prefix of `tag` (a tag cut by a delta boundary). */
function partialTagAt(text: string, tag: string): number {
	for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
		if (text.endsWith(tag.slice(0, n))) return n;
	}
	return 0;
}

/**
 * Splits reasoning sent inline as a leading `<think>…</think>` out of streamed content (local servers do this).
 * Tags may be cut across deltas; only a tag that opens the reply counts, so an answer that mentions `<think>`
 * later stays text. An unclosed `<think>` makes the whole reply thinking. Work per delta is O(delta): at most a
 * tag's length is held back.
 */
export class ThinkTagSplitter {
	#state: "start" | "think" | "after" | "answer" = "start";
	#held = "";

	constructor(
		private readonly onText: (text: string) => void,
		private readonly onThinking: (text: string) => void,
	) {}

	push(delta: string): void {
		if (this.#state === "answer") {
			this.onText(delta);
			return;
		}
		const text = this.#held + delta;
		this.#held = "";
		if (this.#state === "think") this.#think(text);
		else if (this.#state === "after") this.#after(text);
		else this.#start(text);
	}

	#start(text: string): void {
		const trimmed = text.trimStart();
		if (trimmed === "" || (trimmed.length < OPEN.length && OPEN.startsWith(trimmed))) {
			this.#held = text;
		} else if (trimmed.startsWith(OPEN)) {
			this.#state = "think";
			this.#think(trimmed.slice(OPEN.length));
		} else {
			this.#state = "answer";
			this.onText(text);
		}
	}

	/** The body ended: whatever was held back goes out as what it was. */
	flush(): void {
		const held = this.#held;
		this.#held = "";
		if (held === "") return;
		if (this.#state === "think") this.onThinking(held);
		else if (this.#state === "start") this.onText(held);
	}

	#think(text: string): void {
		const end = text.indexOf(CLOSE);
		if (end >= 0) {
			this.onThinking(text.slice(0, end));
			this.#state = "after";
			this.#after(text.slice(end + CLOSE.length));
			return;
		}
		const keep = partialTagAt(text, CLOSE);
		this.onThinking(text.slice(0, text.length - keep));
		this.#held = text.slice(text.length - keep);
	}

	/** Right after `</think>`: the blank lines that separate reasoning from the answer are not the answer. */
	#after(text: string): void {
		const answer = text.trimStart();
		if (answer === "") return;
		this.#state = "answer";
		this.onText(answer);
	}
}
