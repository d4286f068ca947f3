/**
 * An unbounded single-consumer queue: producers push, one async iterator drains it. Hand-written rather than an
 * async generator: a buffered item costs one resolved promise, not a generator round trip (this is the per-delta
 * hot path). `onReturn` runs when the consumer stops early (break, throw).
 */
export class AsyncQueue<T> implements AsyncIterable<T> {
	#items: T[] = [];
	#head = 0;
	#closed = false;
	#wake: ((result: IteratorResult<T>) => void) | undefined;

	constructor(private readonly onReturn?: () => void) {}

	push(item: T): void {
		if (this.#closed) return;
		const wake = this.#wake;
		if (wake) {
			this.#wake = undefined;
			wake({ value: item, done: false });
		} else this.#items.push(item);
	}

	close(): void {
		this.#closed = true;
		const wake = this.#wake;
		this.#wake = undefined;
		wake?.({ value: undefined, done: true });
	}

	#next(): Promise<IteratorResult<T>> {
		if (this.#head < this.#items.length) {
			const value = this.#items[this.#head++] as T;
			if (this.#head === this.#items.length) {
				this.#items = [];
				this.#head = 0;
			}
			return Promise.resolve({ value, done: false });
		}
		if (this.#closed) return Promise.resolve({ value: undefined, done: true });
		return new Promise((resolve) => {
			this.#wake = resolve;
		});
	}

	[Symbol.asyncIterator](): AsyncIterator<T> {
		return {
			next: () => this.#next(),
			return: async () => {
				this.onReturn?.();
				return { value: undefined, done: true };
			},
		};
	}
}
