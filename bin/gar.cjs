#!/usr/bin/env node
// Entry point: set the production React build before anything is imported, then hand over to the start script.
// The user's own NODE_ENV is kept apart (a global symbol, never inherited) so tool commands get it back.
// CommonJS all the way (here, dist/cli.cjs, dist/gar.cjs): Node never starts its ES module loader (~7 ms).
globalThis[Symbol.for("gar.userNodeEnv")] = { value: process.env.NODE_ENV };
process.env.NODE_ENV ??= "production";
require("../dist/cli.cjs");
