/** Called with the queue's contents after every change. */
export type QueueListener = (steers: readonly string[], followUps: readonly string[]) => void;

/**
 * Messages the person sends while a run is going on. A steer is delivered after the current tool finishes
 * (the reply's remaining tool calls are skipped); a follow-up is delivered when the run would otherwise stop.
 */
export class MessageQueue {
	private steers: string[] = [];
	private followUps: string[] = [];

	constructor(private readonly onChange: QueueListener = () => {}) {}

	private changed(): void {
		this.onChange([...this.steers], [...this.followUps]);
	}

	steer(text: string): void {
		this.steers.push(text);
		this.changed();
	}

	followUp(text: string): void {
		this.followUps.push(text);
		this.changed();
	}

	hasSteer(): boolean {
		return this.steers.length > 0;
	}

	/** Removes and returns every queued steer, oldest first. */
	takeSteers(): string[] {
		const out = this.steers;
		if (out.length === 0) return out;
		this.steers = [];
		this.changed();
		return out;
	}

	/** Removes and returns the oldest follow-up, if any: one per stop, so each gets its own answer. */
	takeFollowUp(): string | undefined {
		const out = this.followUps.shift();
		if (out !== undefined) this.changed();
		return out;
	}

	/** Removes and returns the newest queued message (to edit it again before it is delivered). */
	pullLast(): string | undefined {
		const out = this.followUps.length > 0 ? this.followUps.pop() : this.steers.pop();
		if (out !== undefined) this.changed();
		return out;
	}

	/** Removes and returns everything still queued (e.g. to put it back in the editor after an abort). */
	drain(): string[] {
		const out = [...this.steers, ...this.followUps];
		if (out.length === 0) return out;
		this.steers = [];
		this.followUps = [];
		this.changed();
		return out;
	}

	get size(): number {
		return this.steers.length + this.followUps.length;
	}
}
