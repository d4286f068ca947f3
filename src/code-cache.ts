// The bundle's side of src/boot.ts: dist/gar.cjs runs inside a function whose last parameter is `garBoot`. Run from
// source (tests, tsx) there is no such variable and these do nothing.
import type { GarBoot } from "./boot.js";

declare const garBoot: GarBoot | undefined;

/** Asks the start script to write this launch's code cache now, if it had none it could use. */
export function saveCodeCache(): void {
	if (typeof garBoot !== "undefined") garBoot.saveCodeCache();
}

/** Tells the start script that gar's own signal handlers are installed, so it removes those it held them with. */
export function startScriptSignalsTaken(): void {
	if (typeof garBoot !== "undefined") garBoot.signalsTaken();
}
