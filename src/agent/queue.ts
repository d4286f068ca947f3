import type { UserInput } from "./events.js";

/** Called with the queue's contents (their texts) after every change. */
export type QueueListener = (steers: readonly string[], followUps: readonly string[]) => void;

/**
 * Messages the person sends while a run is going on. A steer is delivered after the current tool finishes
 * (the reply's remaining tool calls are skipped); a follow-up is delivered when the run would otherwise stop.
 */
export class MessageQueue {
	private steers: UserInput[] = [];
	private followUps: UserInput[] = [];

	constructor(private readonly onChange: QueueListener = () => {}) {}

	private changed(): void {
		this.onChange(
			this.steers.map((m) => m.text),
			this.followUps.map((m) => m.text),
		);
	}

	steer(message: string | UserInput): void {
		this.steers.push(typeof message === "string" ? { text: message } : message);
		this.changed();
	}

	followUp(message: string | UserInput): void {
		this.followUps.push(typeof message === "string" ? { text: message } : message);
		this.changed();
	}

	hasSteer(): boolean {
		return this.steers.length > 0;
	}

	/** Removes and returns every queued steer, oldest first. */
	takeSteers(): UserInput[] {
		const out = this.steers;
		if (out.length === 0) return out;
		this.steers = [];
		this.changed();
		return out;
	}

	/** Removes and returns the oldest follow-up, if any: one per stop, so each gets its own answer. */
	takeFollowUp(): UserInput | undefined {
		const out = this.followUps.shift();
		if (out !== undefined) this.changed();
		return out;
	}

	/** Removes and returns the newest queued message (to edit it again before it is delivered). */
	pullLast(): string | undefined {
		const out = this.followUps.length > 0 ? this.followUps.pop() : this.steers.pop();
		if (out !== undefined) this.changed();
		return out?.text;
	}

	/** Removes and returns everything still queued (e.g. to put it back in the editor after an abort). */
	drain(): string[] {
		const out = [...this.steers, ...this.followUps].map((m) => m.text);
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
