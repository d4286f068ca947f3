import * as ink from "ink";

type DrawNow = (update: () => void) => void;

/**
 * Runs `update` so that the frame it commits is written at once, not when Ink's frame throttle (30 a second) next
 * allows: the build's Ink has `drawNow` (scripts/ink-patches.mjs); stock Ink (the tests' ink-testing-library) has not,
 * and there `update` just runs. True when the frame is written at once.
 */
export function drawNow(update: () => void): boolean {
	const now = (ink as unknown as { drawNow?: DrawNow }).drawNow;
	if (!now) {
		update();
		return false;
	}
	now(update);
	return true;
}
