import { homedir } from "node:os";
import { resolve } from "node:path";
import { tildePath } from "../text/paths.js";
import { ConfigError, safeMessage } from "./errors.js";
import { configuredHooks, skippedHooksNotice } from "./hooks.js";
import { envLayer, flagLayer } from "./layers.js";
import { maskSecret } from "./mask.js";
import { configPaths, findProjectConfig } from "./paths.js";
import { type FileLayer, readConfigFile } from "./read-file.js";
import { PROVIDERS } from "./schema.js";
import { dropUntrusted, ignoredNotice } from "./trust.js";
import { readTrusted, type TrustedProject, trustFile, trustOfFile } from "./trust-store.js";
import type {
	ConfigFlags,
	Entry,
	GarConfig,
	IgnoredKey,
	Layer,
	LoadResult,
	ProviderName,
	ProviderSettings,
	Source,
} from "./types.js";

/** Variables the SDKs or gar read keys from by default; tools never see them (see tools/tool-env.ts). */
export const KEY_VARS = ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "OPENAI_API_KEY"] as const;

/** `noHooks` (--no-hooks): no hook runs, so none is reported as skipped either. */
export type LoadOptions = {
	cwd: string;
	env?: NodeJS.ProcessEnv;
	flags?: ConfigFlags;
	home?: string;
	noHooks?: boolean;
};

/** Profile keys that override the file's top-level values or its [agent] table; the rest go to a provider table. */
const PROFILE_TARGETS: Record<string, string> = {
	provider: "provider",
	model: "model",
	base_url: "base_url",
	max_turns: "agent.max_turns",
	thinking: "agent.thinking",
};

/**
 * Reads the user and project files, the environment and the flags, and merges them:
 * flags > environment > profile > project file > user file > defaults. Of the top-level `base_url` and a provider
 * table's, the one from the higher layer is used (`baseUrlWins`), the top-level one within a layer. A project that is not trusted
 * (`gar trust`) cannot set what loosens safety or redirects credentials: those keys are left out and named in
 * `ignored` and one warning. Throws ConfigError listing every problem; nothing is applied from a config with
 * any error. Messages carry no URL userinfo and no terminal controls.
 */
export function loadConfig(options: LoadOptions): LoadResult {
	const env = options.env ?? process.env;
	const home = options.home ?? homedir();
	const cwd = resolve(options.cwd);
	const paths = configPaths(home, env);
	const project = findProjectConfig(cwd);
	const candidates = project && project !== paths.configFile ? [paths.configFile, project] : [paths.configFile];
	const files = candidates.map((path) => readConfigFile(path, home)).filter((file) => file !== undefined);
	const fromEnv = envLayer(env, cwd, home);
	const fromFlags = flagLayer(options.flags ?? {}, cwd, home);
	const errors = [...files.flatMap((file) => file.errors), ...fromEnv.errors, ...fromFlags.errors];
	if (errors.length > 0) throw new ConfigError(errors);

	const warnings = files.flatMap((file) => file.warnings);
	const projectFile = files.find((file) => file.path === project);
	const userFile = files.find((file) => file.path === paths.configFile);
	let ignored: IgnoredKey[] = [];
	let trust: TrustedProject | undefined;
	if (projectFile) {
		const trusted = readTrusted(trustFile(paths.configDir));
		if (trusted.problem) warnings.push(trusted.problem);
		trust = trustOfFile(projectFile.path, trusted.projects);
		if (!trust) ignored = dropUntrusted(projectFile, userFile);
		if (ignored.length > 0) warnings.push(ignoredNotice(projectFile, ignored, home));
	}
	const hooks = configuredHooks(
		userFile?.hooks ?? [],
		projectFile && { file: projectFile.path, hooks: projectFile.hooks, trust },
	);
	const skipped = options.noHooks ? undefined : skippedHooksNotice(hooks, home);
	if (skipped) warnings.push(skipped);

	const merged = defaults(paths.sessionsDir);
	for (const file of files) copy(file.entries, merged);
	const selected = fromFlags.entries.get("profile") ?? fromEnv.entries.get("profile") ?? merged.get("profile");
	const profile = selected === undefined ? undefined : pickProfile(String(selected.value), selected, files, home);
	const scoped: Layer = new Map();
	for (const [key, entry] of profile ?? []) {
		const target = PROFILE_TARGETS[key];
		if (target) merged.set(target, entry);
		else scoped.set(key, entry);
	}
	copy(fromEnv.entries, merged);
	copy(fromFlags.entries, merged);
	if (merged.get("provider")?.source.kind === "default") inferProvider(merged, env);
	const provider = String(profile?.get("provider")?.value ?? merged.get("provider")?.value);
	for (const [key, entry] of scoped) merged.set(`providers.${provider}.${key}`, entry);
	shadowIdleTimeouts(merged);

	if (profile && scoped.size > 0 && !profile.has("provider")) {
		const keys = [...scoped.keys()].join(", ");
		warnings.push(`profile "${selected?.value}" sets ${keys} but no provider; they apply to ${provider}`);
	}

	const config = build(merged, (key) => layerRank(merged.get(key)?.source, paths.configFile));
	const names = [...new Set(PROVIDERS.map((name) => config.providers[name].apiKeyEnv))];
	return {
		config,
		sources: new Map([...merged].map(([key, entry]) => [key, entry.source])),
		warnings: warnings.map(safeMessage),
		files: files.map((file) => file.path),
		apiKeyVars: names.map((name) => ({ name, masked: env[name] ? maskSecret(String(env[name])) : undefined })),
		home,
		ignored,
		secretVars: secretVars(files),
		profileModels: profileModels(files),
		hooks,
		// Every file's rules, the user's first; an untrusted project's allow rules were dropped above.
		rules: files.flatMap((file) => file.rules),
	};
}

/** The `model` of every profile in every file (the project file's profiles too: they only name models). */
function profileModels(files: readonly FileLayer[]): LoadResult["profileModels"] {
	const out: LoadResult["profileModels"] = [];
	for (const file of files) {
		for (const profile of file.profiles.values()) {
			const model = profile.get("model")?.value;
			const provider = profile.get("provider")?.value;
			if (typeof model === "string") out.push({ model, ...(typeof provider === "string" ? { provider } : {}) });
		}
	}
	return out;
}

/** The built-in key variables and every `api_key_env` that was applied, in any file or profile. */
function secretVars(files: FileLayer[]): string[] {
	const names = new Set<string>(KEY_VARS);
	for (const file of files) {
		for (const layer of [file.entries, ...file.profiles.values()]) {
			for (const [key, entry] of layer) if (key.endsWith("api_key_env")) names.add(String(entry.value));
		}
	}
	return [...names];
}

/** `--idle-timeout` and GAR_IDLE_TIMEOUT beat the per-provider values too, which then no longer apply. */
function shadowIdleTimeouts(merged: Layer): void {
	const kind = merged.get("agent.idle_timeout")?.source.kind;
	if (kind !== "flag" && kind !== "env") return;
	for (const provider of PROVIDERS) merged.delete(`providers.${provider}.idle_timeout`);
}

function defaults(sessionsDir: string): Layer {
	const values: Record<string, unknown> = {
		provider: "anthropic",
		"providers.anthropic.api_key_env": "ANTHROPIC_API_KEY",
		"providers.openai.api_key_env": "OPENAI_API_KEY",
		"agent.max_turns": 50,
		"agent.approve": false,
		"agent.auto_approve": [],
		"agent.bash_timeout": 120,
		"agent.thinking": "off",
		"agent.idle_timeout": 300,
		"agent.loop_guard": true,
		"tools.pass_env": [],
		"session.dir": sessionsDir,
		"tui.theme": "auto",
		"tui.inspector": true,
		"tui.mouse": true,
		"tui.file_context": true,
		"context.auto_compact": true,
		"context.reserve_tokens": 16_384,
		"context.keep_recent_tokens": 20_000,
		"context.max_tool_result_share": 0.25,
	};
	return new Map(Object.entries(values).map(([key, value]) => [key, { value, source: { kind: "default" } }]));
}

function copy(from: Layer, to: Layer): void {
	for (const [key, entry] of from) to.set(key, entry);
}

/** The named profile, merged key by key across files (the project file wins). */
function pickProfile(name: string, selected: Entry, files: FileLayer[], home: string): Layer {
	const merged: Layer = new Map();
	for (const file of files) copy(file.profiles.get(name) ?? new Map(), merged);
	if (files.some((file) => file.profiles.has(name))) return merged;
	const by = selected.source;
	const how =
		by.kind === "flag"
			? "--profile"
			: by.kind === "env"
				? by.name
				: by.kind === "file"
					? `profile = in ${tildePath(by.path, home)}${by.line ? `:${by.line}` : ""}`
					: "profile";
	const defined = [...new Set(files.flatMap((file) => [...file.profiles.keys()]))];
	const list =
		defined.length > 0 ? `defined profiles: ${defined.map((p) => `"${p}"`).join(", ")}` : "no profiles are defined";
	throw new ConfigError(`unknown profile "${name}" (from ${how}); ${list}; add [profiles.${name}] to a config file`);
}

/** No explicit provider: the one whose API key is set (Anthropic first), else openai when a base URL is set. */
function inferProvider(merged: Layer, env: NodeJS.ProcessEnv): void {
	for (const provider of PROVIDERS) {
		const name = String(merged.get(`providers.${provider}.api_key_env`)?.value);
		if (env[name]) return void merged.set("provider", { value: provider, source: { kind: "env", name } });
		const inline = merged.get(`providers.${provider}.api_key`);
		if (inline) return void merged.set("provider", { value: provider, source: inline.source });
	}
	const baseUrl = merged.get("base_url") ?? merged.get("providers.openai.base_url");
	if (baseUrl) merged.set("provider", { value: "openai", source: baseUrl.source });
}

/** Where a source stands in flags > environment > profile > project file > user file > defaults (higher wins). */
function layerRank(source: Source | undefined, userFile: string): number {
	switch (source?.kind) {
		case "flag":
			return 5;
		case "env":
			return 4;
		case "profile":
			return 3;
		case "file":
			return source.path === userFile ? 1 : 2;
		default:
			return 0;
	}
}

function build(m: Layer, rank: (key: string) => number): GarConfig {
	const get = <T>(key: string): T => m.get(key)?.value as T;
	const table = (name: ProviderName): ProviderSettings => {
		const at = (key: string): unknown => m.get(`providers.${name}.${key}`)?.value;
		const settings: ProviderSettings = { apiKeyEnv: String(at("api_key_env")) };
		const [apiKey, baseUrl, model, contextWindow] = [at("api_key"), at("base_url"), at("model"), at("context_window")];
		const [idleTimeout, thinkTags] = [at("idle_timeout"), at("think_tags")];
		if (typeof apiKey === "string") settings.apiKey = apiKey;
		if (typeof baseUrl === "string") settings.baseUrl = baseUrl;
		if (typeof baseUrl === "string" && rank(`providers.${name}.base_url`) > rank("base_url"))
			settings.baseUrlWins = true;
		if (typeof model === "string") settings.model = model;
		if (typeof contextWindow === "number") settings.contextWindow = contextWindow;
		if (typeof idleTimeout === "number") settings.idleTimeout = idleTimeout;
		if (typeof thinkTags === "boolean") settings.thinkTags = thinkTags;
		const [input, output, cacheRead, cacheWrite] = ["input", "output", "cache_read", "cache_write"].map((key) =>
			at(`prices.${key}`),
		);
		if (typeof input === "number" && typeof output === "number") {
			// Cache reads and writes cost as input unless given: no discount is assumed.
			const cache = (value: unknown) => (typeof value === "number" ? value : input);
			settings.prices = { input, output, cacheRead: cache(cacheRead), cacheWrite: cache(cacheWrite) };
		}
		return settings;
	};
	return {
		provider: get("provider"),
		model: get("model"),
		baseUrl: get("base_url"),
		profile: get("profile"),
		providers: { anthropic: table("anthropic"), openai: table("openai") },
		agent: {
			maxTurns: get("agent.max_turns"),
			approve: get("agent.approve"),
			autoApprove: get("agent.auto_approve"),
			bashTimeout: get("agent.bash_timeout"),
			thinking: get("agent.thinking"),
			idleTimeout: get("agent.idle_timeout"),
			loopGuard: get("agent.loop_guard"),
		},
		session: { dir: get("session.dir") },
		tui: {
			theme: get("tui.theme"),
			inspector: get("tui.inspector"),
			mouse: get("tui.mouse"),
			fileContext: get("tui.file_context"),
		},
		tools: { passEnv: get("tools.pass_env") },
		context: {
			autoCompact: get("context.auto_compact"),
			reserveTokens: get("context.reserve_tokens"),
			keepRecentTokens: get("context.keep_recent_tokens"),
			...(typeof m.get("context.window")?.value === "number" ? { window: get<number>("context.window") } : {}),
			maxToolResultShare: get("context.max_tool_result_share"),
		},
	};
}
