import { sanitizeForTerminal } from "../term/sanitize.js";
import { tildePath } from "../text/paths.js";
import { flagFor } from "./layers.js";
import { maskSecret, stripUserinfo } from "./mask.js";
import { type PermissionRule, ruleSource, ruleToml } from "./permissions.js";
import type { GarConfig, LoadResult, Source } from "./types.js";

/** Every effective value by dotted TOML key, in the order of the docs. Unset optional keys are left out. */
export function configValues(config: GarConfig): [string, unknown][] {
	const values: [string, unknown][] = [
		["provider", config.provider],
		["model", config.model],
		["base_url", config.baseUrl],
		["profile", config.profile],
	];
	for (const name of ["anthropic", "openai"] as const) {
		const table = config.providers[name];
		const prefix = `providers.${name}`;
		values.push(
			[`${prefix}.api_key_env`, table.apiKeyEnv],
			[`${prefix}.api_key`, table.apiKey],
			[`${prefix}.base_url`, table.baseUrl],
			[`${prefix}.model`, table.model],
			[`${prefix}.context_window`, table.contextWindow],
			[`${prefix}.idle_timeout`, table.idleTimeout],
			[`${prefix}.think_tags`, table.thinkTags],
			[`${prefix}.prices.input`, table.prices?.input],
			[`${prefix}.prices.output`, table.prices?.output],
			[`${prefix}.prices.cache_read`, table.prices?.cacheRead],
			[`${prefix}.prices.cache_write`, table.prices?.cacheWrite],
		);
	}
	values.push(
		["agent.max_turns", config.agent.maxTurns],
		["agent.approve", config.agent.approve],
		["agent.auto_approve", config.agent.autoApprove],
		["agent.bash_timeout", config.agent.bashTimeout],
		["agent.thinking", config.agent.thinking],
		["agent.idle_timeout", config.agent.idleTimeout],
		["agent.loop_guard", config.agent.loopGuard],
		["session.dir", config.session.dir],
		["tui.theme", config.tui.theme],
		["tui.inspector", config.tui.inspector],
		["tui.mouse", config.tui.mouse],
		["tui.file_context", config.tui.fileContext],
		["tools.pass_env", config.tools.passEnv],
		["context.auto_compact", config.context.autoCompact],
		["context.reserve_tokens", config.context.reserveTokens],
		["context.keep_recent_tokens", config.context.keepRecentTokens],
		["context.window", config.context.window],
		["context.max_tool_result_share", config.context.maxToolResultShare],
	);
	return values.filter(([, value]) => value !== undefined).map(([key, value]) => [key, shown(key, value)]);
}

/** A value safe to show: api_key masked, URL userinfo removed. */
function shown(key: string, value: unknown): unknown {
	if (key.endsWith("api_key")) return maskSecret(String(value));
	return typeof value === "string" ? stripUserinfo(value) : value;
}

function showValue(value: unknown): string {
	if (isRuleValue(value)) return ruleToml(value);
	if (Array.isArray(value)) return `[${value.map((item) => JSON.stringify(item)).join(", ")}]`;
	return typeof value === "string" ? JSON.stringify(value) : String(value);
}

function isRuleValue(value: unknown): value is Pick<PermissionRule, "tool" | "prefix"> {
	return typeof value === "object" && value !== null && !Array.isArray(value) && "tool" in value;
}

/** The rules in force, one line each with where it is written (a rule without a prefix says what it allows). */
function ruleLines(rules: readonly PermissionRule[], home: string): string[] {
	return rules.map((rule) => {
		const all = rule.prefix === undefined ? `; every ${rule.tool} call` : "";
		return `permissions.${rule.list} = ${ruleToml(rule)}  (${ruleSource(rule, home)}${all})`;
	});
}

/** A source in words: `default`, `env GAR_MODEL`, `flag --model`, `~/.config/gar/config.toml:7`. */
export function showSource(key: string, source: Source | undefined, home: string): string {
	switch (source?.kind) {
		case "flag":
			return `flag ${flagFor(key) ?? ""}`.trimEnd();
		case "env":
			return `env ${source.name}`;
		case "file":
			return `${tildePath(source.path, home)}${source.line ? `:${source.line}` : ""}`;
		case "profile":
			return `profile ${source.name} in ${tildePath(source.path, home)}`;
		default:
			return "default";
	}
}

/**
 * `gar config`: one line per effective key with its source, the ignored project keys, the files read and the
 * API key variables. Keys are masked, URLs shown without userinfo, terminal controls shown visibly.
 */
export function formatConfig(result: LoadResult): string {
	const lines = configValues(result.config).map(
		([key, value]) => `${key} = ${showValue(value)}  (${showSource(key, result.sources.get(key), result.home)})`,
	);
	lines.push(...ruleLines(result.rules, result.home));
	for (const { key, value, source } of result.ignored) {
		const where = showSource(key, source, result.home);
		lines.push(`${key} = ${showValue(shown(key, value))}  (ignored, project not trusted: ${where})`);
	}
	const files = result.files.map((file) => tildePath(file, result.home));
	lines.push("", `files read: ${files.length > 0 ? files.join(", ") : "none"}`);
	for (const { name, masked } of result.apiKeyVars) {
		lines.push(`${name}: ${masked === undefined ? "not set" : `set (${masked})`}`);
	}
	return sanitizeForTerminal(lines.join("\n"));
}

/** `gar config --json`: the same facts as formatConfig, as one JSON document. Keys are masked. */
export function formatConfigJson(result: LoadResult): string {
	const values = Object.fromEntries(
		configValues(result.config).map(([key, value]) => [
			key,
			{ value, source: result.sources.get(key) ?? { kind: "default" } },
		]),
	);
	const apiKeyVars = Object.fromEntries(result.apiKeyVars.map(({ name, masked }) => [name, masked ?? null]));
	const ignored = result.ignored.map(({ key, value, source }) => ({ key, value: shown(key, value), source }));
	const { files, warnings } = result;
	const rule = ({ tool, prefix, file, line }: PermissionRule) => ({
		tool,
		...(prefix === undefined ? {} : { prefix }),
		source: { kind: "file", path: file, ...(line === undefined ? {} : { line }) },
	});
	const permissions = {
		allow: result.rules.filter((r) => r.list === "allow").map(rule),
		deny: result.rules.filter((r) => r.list === "deny").map(rule),
	};
	return JSON.stringify({ values, permissions, ignored, files, warnings, apiKeyVars }, null, 2);
}
