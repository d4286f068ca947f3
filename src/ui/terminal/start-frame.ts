import * as ink from "ink";

type StartFrame = { painted: string | undefined; first: string | undefined };

/** The build's Ink has it (scripts/ink-patches.mjs); stock Ink (the tests' ink-testing-library) has not. */
const startFrame = (ink as unknown as { startFrame?: StartFrame }).startFrame;

/** Before render(): `painted` is on screen (src/first-paint.ts), so Ink's first frame updates it instead. */
export function paintedFrame(painted: string | undefined): void {
	if (startFrame) startFrame.painted = painted;
}

/** After render(): the first frame Ink wrote (undefined with stock Ink). */
export function firstFrame(): string | undefined {
	return startFrame?.first;
}
