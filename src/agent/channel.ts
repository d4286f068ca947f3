import type { AgentEvent } from "./events.js";

export type Listener = (event: AgentEvent) => void;

/**
 * The event channel the loop emits on. Delivery is synchronous and in subscription order, so a subscriber that
 * writes to disk has written before the loop moves on. A listener that throws is reported to `onListenerError`
 * and cannot break the loop or starve the other listeners.
 */
export class EventChannel {
	private listeners: Listener[] = [];

	constructor(private readonly onListenerError: (error: unknown, event: AgentEvent) => void = () => {}) {}

	/** Adds a listener; returns the function that removes it. */
	subscribe(listener: Listener): () => void {
		this.listeners = [...this.listeners, listener];
		return () => {
			this.listeners = this.listeners.filter((l) => l !== listener);
		};
	}

	emit(event: AgentEvent): void {
		// The array is replaced, never mutated, on (un)subscribe, so a listener may unsubscribe while we iterate.
		for (const listener of this.listeners) {
			try {
				listener(event);
			} catch (error) {
				try {
					this.onListenerError(error, event);
				} catch {
					// The error reporter itself failed; nothing sensible is left to do with it.
				}
			}
		}
	}
}
