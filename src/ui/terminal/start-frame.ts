import * as ink from "ink";
import type { FirstPaint } from "../../code-cache.js";

type StartFrame = { painted: string | undefined; first: string | undefined };

/** The build's Ink has it (scripts/ink-patches.mjs); stock Ink (the tests' ink-testing-library) has not. */
const startFrame = (ink as unknown as { startFrame?: StartFrame }).startFrame;

/**
 * Runs Ink's first `render` over the frame the start script painted (src/first-paint.ts), if it did: the app takes
 * the terminal from the start script, Ink takes the painted frame for what is on screen (its first frame writes the
 * rows that differ), and the first frame Ink wrote is kept for the next launch like this one.
 */
export function renderOverPaint<T>(paint: FirstPaint | undefined, render: () => T): T {
	paint?.take();
	if (startFrame) startFrame.painted = paint?.onScreen();
	const rendered = render();
	const first = startFrame?.first;
	if (first !== undefined) paint?.save(first);
	return rendered;
}
