// The bundle's side of src/boot.ts: dist/gar.cjs runs inside a function whose last parameter is `garBoot`. Run from
// source (tests, tsx) there is no such variable and these do nothing.

/** What gar.cjs sees as the free variable `garBoot`, made by the start script (src/boot.ts). */
export type GarBoot = {
	saveCodeCache(): void;
	/** The bundle's own handlers are installed: the start script's go (src/signals.ts). */
	signalsTaken(): void;
};

declare const garBoot: GarBoot | undefined;

/** Asks the start script to write this launch's code cache now, if it had none it could use. */
export function saveCodeCache(): void {
	if (typeof garBoot !== "undefined") garBoot.saveCodeCache();
}

/** Tells the start script that gar's own signal handlers are installed, so it removes those it held them with. */
export function startScriptSignalsTaken(): void {
	if (typeof garBoot !== "undefined") garBoot.signalsTaken();
}
