import type { Pricing } from "../llm/models.js";
import type { ThinkingLevel } from "../llm/types.js";
import type { PermissionRule } from "./permissions.js";
import type { HookEventName } from "./schema.js";

export type ProviderName = "anthropic" | "openai";

/** Where an effective config value came from. */
export type Source =
	| { kind: "flag" }
	| { kind: "env"; name: string }
	| { kind: "file"; path: string; line?: number }
	| { kind: "profile"; name: string; path: string }
	| { kind: "default" };

/** Settings of one provider table, `[providers.NAME]`. */
export type ProviderSettings = {
	apiKeyEnv: string;
	apiKey?: string;
	baseUrl?: string;
	/**
	 * Set when this table's `base_url` comes from a higher layer (flag > env > profile > project > user) than the
	 * top-level `base_url`: it is the one used then (within one layer the top-level one wins). See `baseUrlOf`.
	 */
	baseUrlWins?: true;
	model?: string;
	contextWindow?: number;
	/** Seconds without data from the server before a request is abandoned; overrides `[agent] idle_timeout`. */
	idleTimeout?: number;
	/** Read `<think>…</think>` in the reply text as thinking (for servers that send reasoning that way). */
	thinkTags?: boolean;
	/** `[providers.NAME.prices]`: USD per million tokens, for a model gar's table does not price. */
	prices?: Pricing;
};

/** The effective configuration after files, environment and flags are merged. */
export type GarConfig = {
	provider: ProviderName;
	model: string | undefined;
	baseUrl: string | undefined;
	profile: string | undefined;
	providers: { anthropic: ProviderSettings; openai: ProviderSettings };
	agent: {
		maxTurns: number;
		approve: boolean;
		autoApprove: string[];
		bashTimeout: number;
		thinking: ThinkingLevel;
		/** Seconds; a provider table's or profile's value wins unless the flag or env set this one. */
		idleTimeout: number;
		loopGuard: boolean;
	};
	session: { dir: string };
	/** `fileContext`: a message carries the first lines of the small files it mentions with `@`. */
	tui: { theme: string; inspector: boolean; mouse: boolean; fileContext: boolean };
	/** `passEnv`: variables (names or `*` globs) the tools get even though they look secret. */
	tools: { passEnv: string[] };
	/**
	 * `[context]`: compaction and the window. `window` is the context window for any model; a provider table's or
	 * profile's `context_window` (the same setting for one provider) wins over it; both win over the model table.
	 */
	context: {
		autoCompact: boolean;
		reserveTokens: number;
		keepRecentTokens: number;
		window?: number;
		maxToolResultShare: number;
	};
};

/** Command-line flags, already parsed by the CLI. Strings are accepted for numbers and validated here. */
export type ConfigFlags = {
	provider?: string;
	model?: string;
	baseUrl?: string;
	profile?: string;
	maxTurns?: number | string;
	approve?: boolean;
	thinking?: string;
	sessionDir?: string;
	bashTimeout?: number | string;
	idleTimeout?: number | string;
};

/** What `loadConfig` returns. */
export type LoadResult = {
	config: GarConfig;
	/** Dotted TOML key (`agent.max_turns`) → where its effective value came from. Unset keys are absent. */
	sources: Map<string, Source>;
	warnings: string[];
	/** Config files that were read, user file first. */
	files: string[];
	/** The API key variables of both providers and their masked values (undefined when unset or empty). */
	apiKeyVars: { name: string; masked: string | undefined }[];
	/** The home directory used, so paths can be shown as `~/…`. */
	home: string;
	/** Project settings not applied because the project is not trusted (`gar trust`). */
	ignored: IgnoredKey[];
	/** Variables gar reads API keys from: the built-in names and every `api_key_env` in any file or profile. */
	secretVars: string[];
	/** The models the profiles of every file name, with the profile's provider when it sets one (for `/model`). */
	profileModels: { model: string; provider?: string }[];
	/** Every configured hook, user file first, each with whether it may run (see `runnableHooks`). */
	hooks: ConfiguredHook[];
	/** The permission rules in force: the user file's, then the project's (its allow rules only when trusted). */
	rules: PermissionRule[];
};

/** One `[[hooks.EVENT]]` table: its matcher, command and timeout (seconds), and the file and line it is on. */
export type HookEntry = {
	event: HookEventName;
	/** Absent: every tool. */
	matcher?: string;
	command: string;
	timeout: number;
	file: string;
	line?: number;
};

/**
 * Whether a hook may run: the user's own file's (`user`), a trusted project's whose hooks are as they were when it
 * was trusted (`trusted`); not a project's that is not trusted (`untrusted`) or whose hooks changed since (`changed`).
 */
export type HookTrust = "user" | "trusted" | "untrusted" | "changed";

export type ConfiguredHook = HookEntry & { trust: HookTrust };

/** A project-file setting left out because it could loosen safety or redirect credentials. */
export type IgnoredKey = { key: string; value: unknown; source: Source };

/** One value in a layer, with where it came from. */
export type Entry = { value: unknown; source: Source };

/** Dotted key → entry. Layers are merged by plain `Map.set` in precedence order. */
export type Layer = Map<string, Entry>;
