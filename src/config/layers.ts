import { resolve } from "node:path";
import { expandHome } from "../text/paths.js";
import { describeValue, EXPECTED, type LeafName, leaf } from "./schema.js";
import type { ConfigFlags, Layer, Source } from "./types.js";

/** Environment variables gar reads, and the dotted key each one sets. */
export const ENV_KEYS: readonly (readonly [string, string])[] = [
	["GAR_PROVIDER", "provider"],
	["GAR_MODEL", "model"],
	["GAR_BASE_URL", "base_url"],
	["GAR_PROFILE", "profile"],
	["GAR_MAX_TURNS", "agent.max_turns"],
	["GAR_THINKING", "agent.thinking"],
	["GAR_SESSION_DIR", "session.dir"],
	["GAR_IDLE_TIMEOUT", "agent.idle_timeout"],
	["ANTHROPIC_BASE_URL", "providers.anthropic.base_url"],
	["OPENAI_BASE_URL", "providers.openai.base_url"],
];

/** Flags the CLI passes in, with their spelling on the command line and the dotted key each one sets. */
export const FLAG_KEYS: readonly (readonly [keyof ConfigFlags, string, string])[] = [
	["provider", "--provider", "provider"],
	["model", "--model", "model"],
	["baseUrl", "--base-url", "base_url"],
	["profile", "--profile", "profile"],
	["maxTurns", "--max-turns", "agent.max_turns"],
	["approve", "--approve", "agent.approve"],
	["thinking", "--thinking", "agent.thinking"],
	["sessionDir", "--session-dir", "session.dir"],
	["bashTimeout", "--bash-timeout", "agent.bash_timeout"],
	["idleTimeout", "--idle-timeout", "agent.idle_timeout"],
];

const NUMERIC = new Set(["agent.max_turns", "agent.bash_timeout", "agent.idle_timeout"]);

/** Validates one value for a dotted key; returns the problem in words, or the value to use. */
function check(key: string, value: unknown): { ok: true; value: unknown } | { ok: false; problem: string } {
	const name = key.split(".").pop() as LeafName;
	let input = value;
	if (NUMERIC.has(key) && typeof value === "string" && /^\s*\+?\d+(\.\d+)?\s*$/.test(value)) input = Number(value);
	const result = leaf(name).safeParse(input);
	if (result.success) return { ok: true, value: result.data };
	return { ok: false, problem: `expected ${EXPECTED[name]}, got ${describeValue(value)}` };
}

/** The environment as a layer. An empty variable counts as unset. */
export function envLayer(env: NodeJS.ProcessEnv, cwd: string, home: string): { entries: Layer; errors: string[] } {
	const entries: Layer = new Map();
	const errors: string[] = [];
	for (const [name, key] of ENV_KEYS) {
		const raw = env[name];
		if (raw === undefined || raw === "") continue;
		const checked = check(key, raw);
		if (!checked.ok) {
			errors.push(`environment variable ${name}: ${checked.problem}`);
			continue;
		}
		const value = key === "session.dir" ? resolve(cwd, expandHome(String(checked.value), home)) : checked.value;
		entries.set(key, { value, source: { kind: "env", name } });
	}
	return { entries, errors };
}

/** The command-line flags as a layer. */
export function flagLayer(flags: ConfigFlags, cwd: string, home: string): { entries: Layer; errors: string[] } {
	const entries: Layer = new Map();
	const errors: string[] = [];
	const source: Source = { kind: "flag" };
	for (const [field, flag, key] of FLAG_KEYS) {
		const raw = flags[field];
		if (raw === undefined) continue;
		const checked = check(key, raw);
		if (!checked.ok) {
			errors.push(`${flag}: ${checked.problem}`);
			continue;
		}
		const value = key === "session.dir" ? resolve(cwd, expandHome(String(checked.value), home)) : checked.value;
		entries.set(key, { value, source });
	}
	return { entries, errors };
}

/** The flag spelling for a dotted key, for `gar config` output. */
export function flagFor(key: string): string | undefined {
	return FLAG_KEYS.find(([, , dotted]) => dotted === key)?.[1];
}
