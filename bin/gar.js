#!/usr/bin/env node
// Entry point: set the production React build before anything is imported, then hand over to the bundle.
// The user's own NODE_ENV is kept apart (a global symbol, never inherited) so tool commands get it back.
globalThis[Symbol.for("gar.userNodeEnv")] = { value: process.env.NODE_ENV };
process.env.NODE_ENV ??= "production";
await import("../dist/cli.js");
