/**
 * The text being typed, outside React: a keypress changes it and notifies only the input box, so typing never
 * re-renders the chat or the inspector. A minimal single-cursor buffer for now; the multi-line editor replaces it.
 */
export class InputModel {
	text = "";
	/** Cursor position as an index into `text` (UTF-16 code units, kept on code point boundaries). */
	cursor = 0;
	private version = 0;
	private readonly listeners = new Set<() => void>();

	readonly subscribe = (listener: () => void): (() => void) => {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	};

	readonly getVersion = (): number => this.version;

	get empty(): boolean {
		return this.text === "";
	}

	insert(chars: string): void {
		if (chars === "") return;
		this.text = this.text.slice(0, this.cursor) + chars + this.text.slice(this.cursor);
		this.cursor += chars.length;
		this.changed();
	}

	/** Deletes the code point before the cursor. */
	backspace(): void {
		if (this.cursor === 0) return;
		const before = this.text.slice(0, this.cursor);
		const last = Array.from(before).pop() ?? "";
		this.text = before.slice(0, before.length - last.length) + this.text.slice(this.cursor);
		this.cursor -= last.length;
		this.changed();
	}

	left(): void {
		if (this.cursor === 0) return;
		const last = Array.from(this.text.slice(0, this.cursor)).pop() ?? "";
		this.cursor -= last.length;
		this.changed();
	}

	right(): void {
		if (this.cursor >= this.text.length) return;
		const next = Array.from(this.text.slice(this.cursor, this.cursor + 2))[0] ?? "";
		this.cursor += next.length;
		this.changed();
	}

	home(): void {
		this.cursor = 0;
		this.changed();
	}

	end(): void {
		this.cursor = this.text.length;
		this.changed();
	}

	clear(): void {
		this.set("");
	}

	/** Replaces the text, cursor at the end. */
	set(text: string): void {
		this.text = text;
		this.cursor = text.length;
		this.changed();
	}

	/** Returns the text and empties the buffer. */
	take(): string {
		const text = this.text;
		this.clear();
		return text;
	}

	private changed(): void {
		this.version++;
		for (const listener of this.listeners) listener();
	}
}
