import * as z from "../text/zod.js";

/** Tools whose calls may skip approval under `--approve`. */
export const APPROVABLE_TOOLS = ["read", "write", "edit", "bash"] as const;
export const PROVIDERS = ["anthropic", "openai"] as const;
export const THINKING_LEVELS = ["off", "low", "medium", "high"] as const;
/** The hook events, named as Claude Code names them (README "Hooks"). */
export const HOOK_EVENTS = [
	"PreToolUse",
	"PostToolUse",
	"UserPromptSubmit",
	"Stop",
	"SessionStart",
	"SessionEnd",
	"PreCompact",
	"Notification",
] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];
/** The keys of one `[[hooks.EVENT]]` table. `type` is accepted (as "command" only) so Claude Code's entries copy over. */
export const HOOK_KEYS = ["matcher", "command", "timeout", "type"] as const;
/** A theme name: "auto", a built-in, or a user theme file's name (no path: letters, digits, - and _). */
export const THEME_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/** A matcher: `*` or empty (every tool), else a regular expression JavaScript accepts. */
function isMatcher(value: string): boolean {
	if (value === "" || value === "*") return true;
	try {
		new RegExp(value, "i");
		return true;
	} catch {
		return false;
	}
}

function isHttpUrl(value: string): boolean {
	try {
		const url = new URL(value);
		return url.protocol === "http:" || url.protocol === "https:";
	} catch {
		return false;
	}
}

/**
 * One schema per leaf key name; every table reuses them, so a key means the same thing wherever it appears. Built on
 * first use (\`leaf\`), as the tables are: zod schemas cost to build, and most runs read no config file.
 */
const LEAVES = {
	provider: () => z.enum(PROVIDERS),
	model: () => z.string().check(z.minLength(1)),
	base_url: () => z.string().check(z.refine(isHttpUrl)),
	profile: () => z.string().check(z.minLength(1)),
	api_key_env: () => z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/)),
	api_key: () => z.string().check(z.minLength(1)),
	context_window: () => z.int().check(z.gte(1)),
	max_turns: () => z.int().check(z.gte(1)),
	approve: () => z.boolean(),
	auto_approve: () => z.array(z.enum(APPROVABLE_TOOLS)),
	bash_timeout: () => z.number().check(z.gt(0)),
	thinking: () => z.enum(THINKING_LEVELS),
	dir: () => z.string().check(z.minLength(1)),
	theme: () => z.string().check(z.regex(THEME_NAME)),
	inspector: () => z.boolean(),
	mouse: () => z.boolean(),
	file_context: () => z.boolean(),
	idle_timeout: () => z.number().check(z.gt(0)),
	loop_guard: () => z.boolean(),
	think_tags: () => z.boolean(),
	pass_env: () => z.array(z.string().check(z.regex(/^[A-Za-z0-9_*]+$/))),
	auto_compact: () => z.boolean(),
	reserve_tokens: () => z.int().check(z.gte(0)),
	keep_recent_tokens: () => z.int().check(z.gte(1)),
	window: () => z.int().check(z.gte(1)),
	max_tool_result_share: () => z.number().check(z.gt(0), z.lte(1)),
	// [providers.NAME.prices] and [profiles.NAME.prices]: USD per million tokens.
	input: () => z.number().check(z.gte(0), z.lte(1e6)),
	output: () => z.number().check(z.gte(0), z.lte(1e6)),
	cache_read: () => z.number().check(z.gte(0), z.lte(1e6)),
	cache_write: () => z.number().check(z.gte(0), z.lte(1e6)),
	matcher: () => z.string().check(z.refine(isMatcher)),
	command: () => z.string().check(z.refine((value) => value.trim() !== "")),
	timeout: () => z.number().check(z.gt(0)),
	type: () => z.literal("command"),
	tool: () => z.enum(APPROVABLE_TOOLS),
	prefix: () => z.string(),
};
export type LeafName = keyof typeof LEAVES;
type Leaf<K extends LeafName> = ReturnType<(typeof LEAVES)[K]>;
const builtLeaves = new Map<LeafName, z.ZodMiniType>();

/** The schema of the leaf key `name`, built the first time it is asked for. */
export function leaf<K extends LeafName>(name: K): Leaf<K> {
	let schema = builtLeaves.get(name);
	if (schema === undefined) {
		schema = LEAVES[name]();
		builtLeaves.set(name, schema);
	}
	return schema as Leaf<K>;
}

/** What each leaf expects, in words for error messages. */
export const EXPECTED: Record<LeafName, string> = {
	provider: 'one of "anthropic", "openai"',
	model: "a model name (a non-empty string)",
	base_url: 'an http(s) URL such as "http://localhost:11434/v1"',
	profile: "a profile name (a non-empty string)",
	api_key_env: 'the name of an environment variable, such as "OPENAI_API_KEY"',
	api_key: "a non-empty string",
	context_window: "a whole number ≥ 1",
	max_turns: "a whole number ≥ 1",
	approve: "true or false",
	auto_approve: 'an array of tool names from "read", "write", "edit", "bash"',
	bash_timeout: "a number of seconds > 0",
	thinking: 'one of "off", "low", "medium", "high"',
	dir: "a path (a non-empty string)",
	theme:
		'"auto", "dark", "light", "mono" or the name of a theme file in ~/.config/gar/themes (letters, digits, - and _)',
	inspector: "true or false",
	mouse: "true or false",
	file_context: "true or false",
	idle_timeout: "a number of seconds > 0",
	loop_guard: "true or false",
	think_tags: "true or false",
	pass_env: 'an array of environment variable names, "*" matching any text (such as ["GITHUB_TOKEN", "AWS_*"])',
	auto_compact: "true or false",
	reserve_tokens: "a whole number of tokens ≥ 0",
	keep_recent_tokens: "a whole number of tokens ≥ 1",
	window: "a whole number of tokens ≥ 1",
	max_tool_result_share: "a number > 0 and ≤ 1 (a share of the context window, such as 0.25)",
	input: "a price in USD per million input tokens (a number ≥ 0, such as 0.5)",
	output: "a price in USD per million output tokens (a number ≥ 0, such as 1.5)",
	cache_read: "a price in USD per million tokens read from the cache (a number ≥ 0)",
	cache_write: "a price in USD per million tokens written to the cache (a number ≥ 0)",
	matcher: 'a regular expression over the tool name (such as "bash" or "write|edit"), or "*" for every tool',
	command: "a shell command (a non-empty string)",
	timeout: "a number of seconds > 0",
	type: '"command" (gar runs command hooks only)',
	tool: 'one of "read", "write", "edit", "bash"',
	prefix: 'the first words of a command, such as "npm test"',
};

const opt = <K extends LeafName>(key: K) => z.optional(leaf(key));

/** The tables of [providers.NAME] and [profiles.NAME], with their [….prices]. */
function providerTables() {
	/** A model's prices, for one gar's table does not know; cache reads and writes cost as input unless given. */
	const prices = z.strictObject({
		input: leaf("input"),
		output: leaf("output"),
		cache_read: opt("cache_read"),
		cache_write: opt("cache_write"),
	});
	const provider = z.strictObject({
		api_key_env: opt("api_key_env"),
		api_key: opt("api_key"),
		base_url: opt("base_url"),
		model: opt("model"),
		context_window: opt("context_window"),
		idle_timeout: opt("idle_timeout"),
		think_tags: opt("think_tags"),
		prices: z.optional(prices),
	});
	const profile = z.strictObject({
		provider: opt("provider"),
		model: opt("model"),
		base_url: opt("base_url"),
		api_key_env: opt("api_key_env"),
		api_key: opt("api_key"),
		context_window: opt("context_window"),
		max_turns: opt("max_turns"),
		thinking: opt("thinking"),
		idle_timeout: opt("idle_timeout"),
		think_tags: opt("think_tags"),
		prices: z.optional(prices),
	});
	const providers = z.strictObject({ anthropic: z.optional(provider), openai: z.optional(provider) });
	return { prices, provider, profile, providers };
}

/** The tables [agent], [session], [tui], [tools] and [context]. */
function sectionTables() {
	return {
		agent: z.strictObject({
			max_turns: opt("max_turns"),
			approve: opt("approve"),
			auto_approve: opt("auto_approve"),
			bash_timeout: opt("bash_timeout"),
			thinking: opt("thinking"),
			idle_timeout: opt("idle_timeout"),
			loop_guard: opt("loop_guard"),
		}),
		session: z.strictObject({ dir: opt("dir") }),
		tui: z.strictObject({
			theme: opt("theme"),
			inspector: opt("inspector"),
			mouse: opt("mouse"),
			file_context: opt("file_context"),
		}),
		tools: z.strictObject({ pass_env: opt("pass_env") }),
		context: z.strictObject({
			auto_compact: opt("auto_compact"),
			reserve_tokens: opt("reserve_tokens"),
			keep_recent_tokens: opt("keep_recent_tokens"),
			window: opt("window"),
			max_tool_result_share: opt("max_tool_result_share"),
		}),
	};
}

/** The [[hooks.EVENT]] and [[permissions.allow|deny]] arrays of tables. */
function listTables() {
	const hook = z.strictObject({
		matcher: z.optional(leaf("matcher")),
		command: leaf("command"),
		timeout: z.optional(leaf("timeout")),
		type: z.optional(leaf("type")),
	});
	const hooks = z.strictObject(
		Object.fromEntries(HOOK_EVENTS.map((event) => [event, z.optional(z.array(hook))])) as Record<
			HookEventName,
			z.ZodMiniOptional<z.ZodMiniArray<typeof hook>>
		>,
	);
	/** One `[[permissions.allow]]` or `[[permissions.deny]]` table (the prefix is checked by config/permissions.ts). */
	const rule = z.strictObject({ tool: leaf("tool"), prefix: z.optional(leaf("prefix")) });
	const permissions = z.strictObject({ allow: z.optional(z.array(rule)), deny: z.optional(z.array(rule)) });
	return { hook, hooks, permissions };
}

/** The tables of a config file, built the first time one is read (see LEAVES). */
function buildTables() {
	const { prices, provider, profile, providers } = providerTables();
	const sections = sectionTables();
	const { hook, hooks, permissions } = listTables();
	const file = z.strictObject({
		provider: opt("provider"),
		model: opt("model"),
		base_url: opt("base_url"),
		profile: opt("profile"),
		providers: z.optional(providers),
		profiles: z.optional(z.record(z.string(), profile)),
		agent: z.optional(sections.agent),
		session: z.optional(sections.session),
		tui: z.optional(sections.tui),
		tools: z.optional(sections.tools),
		context: z.optional(sections.context),
		hooks: z.optional(hooks),
		permissions: z.optional(permissions),
	});
	return { file, prices, provider, profile, providers, ...sections, hook };
}

let tables: ReturnType<typeof buildTables> | undefined;
const builtTables = () => {
	tables ??= buildTables();
	return tables;
};

/** A whole config file's schema. Unknown keys fail `strictObject`; the loader turns those issues into warnings. */
export const fileSchema = () => builtTables().file;
export type FileConfig = z.infer<ReturnType<typeof fileSchema>>;
export type HookTable = z.infer<ReturnType<typeof builtTables>["hook"]>;
export const RULE_KEYS = ["tool", "prefix"] as const;

/** The keys allowed in the table at `path` (e.g. `["agent"]`, `["profiles", "local"]`), or [] when unknown. */
export function knownKeys(path: readonly PropertyKey[]): string[] {
	const [head, second] = path;
	const keysOf = (table: Exclude<keyof ReturnType<typeof buildTables>, "hook">) =>
		Object.keys(builtTables()[table].shape);
	if (path.length === 0) return keysOf("file");
	if (path.length === 1 && head === "providers") return keysOf("providers");
	if (path.length === 2 && head === "providers") return keysOf("provider");
	if (path.length === 2 && head === "profiles" && typeof second === "string") return keysOf("profile");
	if (path.length === 3 && (head === "providers" || head === "profiles") && path[2] === "prices") {
		return keysOf("prices");
	}
	if (head === "hooks" && path.length === 1) return [...HOOK_EVENTS];
	if (head === "hooks" && path.length === 3) return [...HOOK_KEYS];
	if (head === "permissions" && path.length === 1) return ["allow", "deny"];
	if (head === "permissions" && path.length === 3) return [...RULE_KEYS];
	if (path.length !== 1) return [];
	if (head === "agent" || head === "session" || head === "tui" || head === "tools" || head === "context") {
		return keysOf(head);
	}
	return [];
}

/** The table a leaf key belongs to when it is not a profile key, for "belongs in [agent]" hints. */
export function homeTable(key: string): string | undefined {
	for (const table of [[], ["agent"], ["session"], ["tui"], ["tools"], ["context"], ["providers", "<name>"]]) {
		if (knownKeys(table).includes(key)) return table.length === 0 ? "" : table.join(".");
	}
	return undefined;
}

/** What the value at `path` should be, for an error message. */
export function expectedAt(path: readonly PropertyKey[]): string {
	const last = path[path.length - 1];
	if (path[0] === "hooks") {
		if (path.length === 2) return `an array of tables [[hooks.${String(last)}]]`;
		if (path.length === 3) return `a table [[hooks.${String(path[1])}]] with command = "…"`;
	}
	if (path[0] === "permissions") {
		if (path.length === 2) return `an array of tables [[permissions.${String(last)}]]`;
		if (path.length === 3) return `a table [[permissions.${String(path[1])}]] with tool = "…"`;
	}
	if (typeof last === "number") {
		return path[path.length - 2] === "pass_env"
			? "an environment variable name (letters, digits, _ and *)"
			: 'one of "read", "write", "edit", "bash"';
	}
	const key = String(last);
	if (Object.hasOwn(LEAVES, key) && knownKeys(path.slice(0, -1)).includes(key)) return EXPECTED[key as LeafName];
	return path.length === 0 ? "a table" : `a table [${path.map(String).join(".")}]`;
}

/** A value as a person would write it, for "got …" in messages. */
export function describeValue(value: unknown): string {
	if (typeof value === "string") return JSON.stringify(value);
	if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
	if (Array.isArray(value)) return "an array";
	if (value instanceof Date) return "a date";
	if (typeof value === "object" && value !== null) return "a table";
	return String(value);
}
