// A wire server in its own process for bench-wire.ts, so the client's CPU time is the client's alone. Serves every
// request a reply of DELTAS text deltas; prints its URL on the first line of stdout.
import { startWireServer } from "../test/support/wire-server.js";

const deltas = Number(process.argv[2] ?? 20_000);
const chunks = Array.from({ length: deltas }, (_, i) => `w${i % 10} `);
const server = await startWireServer(() => ({ text: chunks }));
console.log(server.url);
process.on("SIGTERM", () => void server.close().then(() => process.exit(0)));
