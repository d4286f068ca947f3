import type { ReplayProgress } from "../../session/replay-pace.js";

/** What the replay screen asks of the replay playing in the store (`gar replay` in a terminal; ui/replay.ts). */
export type ReplayControls = {
	readonly progress: ReplayProgress;
	/** Space: pause or play; at the end, play again. */
	toggle(): void;
	/** →: the next moment, then paused. */
	step(): void;
	/** End: everything left at once. */
	end(): void;
	/** How to continue the replayed session, for the read-only hint ("gar --session ID"). */
	readonly continueWith: string;
};
