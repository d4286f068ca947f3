// The cost of a hook: bash calls (`true N`: distinct, so the loop guard lets them be) with one PreToolUse hook (`true`) against none, in one conversation as the app and
// gar -p compose it (config, hooks, tools, the real SDK against the wire-level test server). The bar: a hook
// adds no more than its process spawn, ≤ 20 ms here beyond the hook's own run time.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { HookRun } from "../src/agent/events.js";
import { setupRun } from "../src/modes/setup.js";
import { startWireServer } from "../test/support/wire-server.js";
import { median } from "./bench-stats.js";

const CALLS = Number(process.env.BENCH_HOOK_CALLS ?? 30);
const ROUNDS = 3;

/** One run of CALLS bash calls (`true`); the wall time per call, and each hook's own duration. */
async function oneRun(withHook: boolean): Promise<{ perCallMs: number; hookMs: number[] }> {
	const root = mkdtempSync(join(tmpdir(), "gar-bench-hooks-"));
	const project = join(root, "project");
	mkdirSync(join(root, "config", "gar"), { recursive: true });
	mkdirSync(project);
	if (withHook) writeFileSync(join(root, "config", "gar", "config.toml"), '[[hooks.PreToolUse]]\ncommand = "true"\n');
	const env = {
		PATH: process.env.PATH,
		HOME: root,
		XDG_CONFIG_HOME: join(root, "config"),
		XDG_DATA_HOME: join(root, "data"),
		XDG_CACHE_HOME: join(root, "cache"),
		OPENAI_API_KEY: "bench-key",
	};
	const server = await startWireServer((_req, call) =>
		call < CALLS
			? { toolCalls: [{ id: `c${call}`, name: "bash", args: { command: `true ${call}` } }] }
			: { text: "done" },
	);
	const setup = await setupRun({ cwd: project, baseUrl: server.url, noSession: true }, env, {});
	const hookMs: number[] = [];
	const calls: number[] = [];
	let startedAt = 0;
	setup.channel.subscribe((event) => {
		if (event.type === "message_end" && event.message.stopReason === "tool_use") startedAt = performance.now();
		if (event.type === "hook") hookMs.push((event as HookRun).durationMs);
		if (event.type === "tool_end") calls.push(performance.now() - startedAt);
	});
	await setup.conversation.run("go");
	await setup.conversation.close();
	await server.close();
	if (calls.length !== CALLS) throw new Error(`bench-hooks: ${calls.length} of ${CALLS} calls ran`);
	return { perCallMs: median(calls), hookMs };
}

/** Lines for `npm run bench`: from a reply's end to its bash call's tool_end, median per call, with and without. */
export async function benchHooks(): Promise<string[]> {
	const without: number[] = [];
	const withHook: number[] = [];
	const hooks: number[] = [];
	await oneRun(true); // warm-up: the hooks' code, the shell binary in the page cache
	for (let i = 0; i < ROUNDS; i++) {
		without.push((await oneRun(false)).perCallMs);
		const run = await oneRun(true);
		withHook.push(run.perCallMs);
		hooks.push(...run.hookMs);
	}
	const none = median(without);
	const one = median(withHook);
	const spawn = median(hooks);
	const f = (ms: number) => `${ms.toFixed(1).padStart(6)} ms`;
	return [
		`a bash call, from the reply's end to its tool_end (median of ${ROUNDS}×${CALLS} calls):`,
		`  no hook                         ${f(none)}`,
		`  one PreToolUse hook (\`true\`)    ${f(one)}   (+${(one - none).toFixed(1)} ms)`,
		`  the hook's run (spawn to exit)  ${f(spawn)}   (its event's durationMs)`,
		`  added beyond the hook's run     ${f(one - none - spawn)}   (target ≤ 20 ms)`,
	];
}

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await benchHooks()) console.log(line);
