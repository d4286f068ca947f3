/**
 * Messages the person sends while a run is going on. A steer is delivered after the current tool finishes
 * (the reply's remaining tool calls are skipped); a follow-up is delivered when the run would otherwise stop.
 */
export class MessageQueue {
	private steers: string[] = [];
	private followUps: string[] = [];

	steer(text: string): void {
		this.steers.push(text);
	}

	followUp(text: string): void {
		this.followUps.push(text);
	}

	hasSteer(): boolean {
		return this.steers.length > 0;
	}

	/** Removes and returns every queued steer, oldest first. */
	takeSteers(): string[] {
		const out = this.steers;
		this.steers = [];
		return out;
	}

	/** Removes and returns the oldest follow-up, if any: one per stop, so each gets its own answer. */
	takeFollowUp(): string | undefined {
		return this.followUps.shift();
	}

	/** Removes and returns everything still queued (e.g. to put it back in the editor after an abort). */
	drain(): string[] {
		const out = [...this.steers, ...this.followUps];
		this.steers = [];
		this.followUps = [];
		return out;
	}

	get size(): number {
		return this.steers.length + this.followUps.length;
	}
}
