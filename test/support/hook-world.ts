// A fresh home for hook tests: a user config with [[hooks.*]] tables, real shell scripts next to it, and gar -p run
// against the wire-level test server.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentEvent } from "../../src/agent/events.js";
import { type CliRun, runGar, tempHome } from "./cli.js";
import type { WireServer } from "./wire-server.js";

export type HookWorld = ReturnType<typeof hookWorld>;

/** A home whose user config is `toml`; `script(name, body)` writes an executable script in `<root>/hooks/`. */
export function hookWorld(toml = "") {
	const home = tempHome();
	const configDir = join(home.root, "config", "gar");
	const hooks = join(home.root, "hooks");
	mkdirSync(configDir, { recursive: true });
	mkdirSync(hooks, { recursive: true });
	// $HOOKS names the scripts' folder in commands.
	const env: NodeJS.ProcessEnv = { ...home.env, OPENAI_API_KEY: "sk-test-key-0123456789abcdef", HOOKS: hooks };
	const world = {
		...home,
		env,
		configDir,
		hooks,
		/** Where `log.sh` appends each payload it gets, one JSON line each. */
		log: join(home.root, "hooks.jsonl"),
		config(text: string) {
			writeFileSync(join(configDir, "config.toml"), text);
		},
		script(name: string, body: string): string {
			const path = join(hooks, name);
			writeFileSync(path, `#!/bin/sh\n${body}\n`);
			chmodSync(path, 0o755);
			return path;
		},
		/** The payloads `log.sh` got, in order. */
		logged(): Record<string, unknown>[] {
			if (!existsSync(world.log)) return [];
			return readFileSync(world.log, "utf8")
				.trim()
				.split("\n")
				.filter(Boolean)
				.map((line) => JSON.parse(line) as Record<string, unknown>);
		},
		/** gar -p PROMPT --output stream-json against `server`, with `args` after. */
		async run(server: WireServer, prompt: string, args: string[] = []): Promise<HookRunResult> {
			const run = await runGar(["-p", prompt, "--base-url", server.url, "--output", "stream-json", ...args], {
				env,
				cwd: home.project,
			});
			const events = run.stdout
				.split("\n")
				.filter((line) => line.startsWith("{"))
				.map((line) => JSON.parse(line) as AgentEvent | { type: "result"; [key: string]: unknown });
			return { ...run, events };
		},
	};
	// A script that appends its stdin (one JSON object) as a line of the log, for any event.
	world.script("log.sh", `{ cat; echo; } >> "${world.log}"`);
	if (toml) world.config(toml);
	return world;
}

export type HookRunResult = CliRun & { events: (AgentEvent | { type: "result"; [key: string]: unknown })[] };

/** The result line of a run (stream-json's last line). */
export function resultOf(run: HookRunResult): { sessionId: string; ok: boolean; error?: string; result: string } {
	const last = run.events.at(-1);
	if (last?.type !== "result") throw new Error(`no result line: ${run.stdout.slice(-300)} ${run.stderr}`);
	return last as unknown as { sessionId: string; ok: boolean; error?: string; result: string };
}

/** The hook events of a run. */
export function hookEvents(run: HookRunResult) {
	return run.events.filter((e): e is Extract<AgentEvent, { type: "hook" }> => e.type === "hook");
}

/** The JSON body of the server's `index`-th request, as text (what the model was sent). */
export function sent(server: WireServer, index: number): string {
	return JSON.stringify(server.requests[index]?.body ?? null);
}

/** A `[[hooks.EVENT]]` table. */
export function hookToml(event: string, command: string, extra: { matcher?: string; timeout?: number } = {}): string {
	const lines = [`[[hooks.${event}]]`];
	if (extra.matcher !== undefined) lines.push(`matcher = ${JSON.stringify(extra.matcher)}`);
	lines.push(`command = ${JSON.stringify(command)}`);
	if (extra.timeout !== undefined) lines.push(`timeout = ${extra.timeout}`);
	return `${lines.join("\n")}\n\n`;
}

/** Whether process `pid` runs: a zombie (killed, not yet reaped by whoever inherited it) does not. */
export function running(pid: number): boolean {
	try {
		process.kill(pid, 0);
	} catch {
		return false;
	}
	try {
		return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
	} catch {
		return true;
	}
}
