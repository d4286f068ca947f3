import type * as NodeChildProcess from "node:child_process";
import type * as NodeCrypto from "node:crypto";
import { createRequire } from "node:module";

// Built-in modules that take a noticeable time to load (node:crypto ~2 ms, node:child_process ~0.5 ms), loaded on
// first use rather than with the modules that may use them: many launches (`gar --help`, a `gar -p` that runs no
// command) never need them.
const load = createRequire(process.execPath);
let crypto: typeof NodeCrypto | undefined;
let childProcess: typeof NodeChildProcess | undefined;

export const nodeCrypto = (): typeof NodeCrypto => {
	crypto ??= load("node:crypto") as typeof NodeCrypto;
	return crypto;
};

export const nodeChildProcess = (): typeof NodeChildProcess => {
	childProcess ??= load("node:child_process") as typeof NodeChildProcess;
	return childProcess;
};
