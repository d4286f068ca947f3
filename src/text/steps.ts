/** Resolves once the event loop has turned: what came in meanwhile (a key) is handled first. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** How long work run in slices goes before it lets the event loop run (a key waits at most about this long). */
export const SLICE_MS = 8;

/** Runs `steps` (a generator that yields between pieces of work) to its end at once; its return value. */
export function runSteps<T>(steps: Generator<void, T>): T {
	for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

/**
 * Runs `steps` to its end, awaiting `pause` between two of them once `sliceMs` went by since the last pause: long
 * work in an app that keeps answering keys meanwhile. Its return value.
 */
export async function runStepsSliced<T>(
	steps: Generator<void, T>,
	pause: () => Promise<void>,
	sliceMs = SLICE_MS,
): Promise<T> {
	let since = performance.now();
	for (let step = steps.next(); ; step = steps.next()) {
		if (step.done) return step.value;
		if (performance.now() - since < sliceMs) continue;
		await pause();
		since = performance.now();
	}
}
