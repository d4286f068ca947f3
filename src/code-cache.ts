// The bundle's side of src/boot.ts: dist/gar.cjs (or dist/headless.cjs) runs inside a function whose last parameter is
// `garBoot`. Run from source (tests, tsx) there is no such variable and these do nothing.

/** What the bundle gets of the first frame the start script painted (src/first-paint.ts). */
export type FirstPaint = {
	/**
	 * The frame painted, as Ink wrote it, while it is on screen as painted; undefined when none was, or it is gone: given
	 * back before the app took the terminal, or now (the terminal was resized since: the app draws afresh).
	 */
	onScreen(): string | undefined;
	/** The app's terminal session has the screen now: the start script no longer gives it back. */
	take(): void;
	/** The app's own first frame: kept for the next launch like this one (written only when it is not the one painted). */
	save(frame: string): void;
};

/** What gar.cjs sees as the free variable `garBoot`, made by the start script (src/boot.ts). */
export type GarBoot = {
	saveCodeCache(): void;
	/** This launch ran the code path `tag` (src/code-cache.ts, codePath). */
	codePath(tag: string): void;
	/** The bundle's own handlers are installed: the start script's go (src/signals.ts). */
	signalsTaken(): void;
	/** A launch in a terminal that may run the full-screen app: its first frame, painted or to keep (first-paint.ts). */
	firstPaint?: FirstPaint;
};

declare const garBoot: GarBoot | undefined;

/** Asks the start script to write this launch's code cache now, if it had none it could use. */
export function saveCodeCache(): void {
	if (typeof garBoot !== "undefined") garBoot.saveCodeCache();
}

/**
 * Tells the start script that this launch ran the code of `tag` ("provider:openai", "tool:bash"): a `-p` or piped
 * launch that ran a path its code cache does not hold writes the cache again with it, so the next launches find that
 * code compiled too (V8 caches only the functions the launch that made the cache ran).
 */
export function codePath(tag: string): void {
	if (typeof garBoot !== "undefined" && !tag.includes("\n")) garBoot.codePath(tag);
}

/** Tells the start script that gar's own signal handlers are installed, so it removes those it held them with. */
export function startScriptSignalsTaken(): void {
	if (typeof garBoot !== "undefined") garBoot.signalsTaken();
}

/** The first frame the start script painted for this launch, and where the app's own goes (src/first-paint.ts). */
export function bootFirstPaint(): FirstPaint | undefined {
	return typeof garBoot !== "undefined" ? garBoot.firstPaint : undefined;
}
