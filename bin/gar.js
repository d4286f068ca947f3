#!/usr/bin/env node
// Entry point: set the production React build before anything is imported, then hand over to the bundle.
process.env.NODE_ENV ??= "production";
await import("../dist/cli.js");
