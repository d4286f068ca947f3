import type { Pricing } from "../llm/models.js";
import { MissingKeyError } from "./errors.js";
import type { GarConfig, ProviderName } from "./types.js";

/** The model settings one run uses. `apiKey` is undefined only for an OpenAI-compatible server at a base URL. */
export type RunSettings = {
	provider: ProviderName;
	model: string;
	baseUrl?: string;
	apiKey?: string;
	apiKeyEnv: string;
	contextWindow?: number;
	/** How long a stream may stay silent before the request is abandoned. */
	idleTimeoutMs: number;
	/** `think_tags` of the provider table or profile; undefined when unset (the adapter decides). */
	thinkTags?: boolean;
	/** The provider table's or profile's prices, for a model gar's table does not price. */
	prices?: Pricing;
};

/**
 * The endpoint a run with `provider` uses and the dotted key it comes from: the provider table's `base_url` when it
 * was set in a higher layer than the top-level one (flags > environment > profile > project > user), else the
 * top-level `base_url`, else the table's. Undefined: the SDK's default endpoint.
 */
export function baseUrlOf(config: GarConfig, provider: ProviderName): { url: string; key: string } | undefined {
	const table = config.providers[provider];
	const tableKey = `providers.${provider}.base_url`;
	if (table.baseUrl !== undefined && table.baseUrlWins) return { url: table.baseUrl, key: tableKey };
	if (config.baseUrl !== undefined) return { url: config.baseUrl, key: "base_url" };
	return table.baseUrl === undefined ? undefined : { url: table.baseUrl, key: tableKey };
}

/**
 * Picks the model, base URL and key for the configured provider. Model: top-level (flag, env, profile, file)
 * > provider table > `defaultModel`. Base URL: `baseUrlOf`. Key: `env[api_key_env]` > inline
 * api_key. Idle timeout: provider table or profile > [agent] (loadConfig drops the former when the flag or
 * env set the latter). Throws ConfigError naming the variable to set when no key is available and one is needed.
 */
export function resolveRun(
	config: GarConfig,
	env: NodeJS.ProcessEnv,
	defaultModel: (provider: ProviderName) => string,
): RunSettings {
	const provider = config.provider;
	const table = config.providers[provider];
	const baseUrl = baseUrlOf(config, provider)?.url;
	const apiKey = env[table.apiKeyEnv] || table.apiKey;
	if (!apiKey && !(provider === "openai" && baseUrl)) {
		const local = provider === "openai" ? ", or set base_url for a local OpenAI-compatible server" : "";
		throw new MissingKeyError(
			`no API key for ${provider}: set ${table.apiKeyEnv} (or api_key_env in [providers.${provider}])${local}, or pick another provider with --provider`,
			table.apiKeyEnv,
		);
	}
	const settings: RunSettings = {
		provider,
		model: config.model ?? table.model ?? defaultModel(provider),
		apiKeyEnv: table.apiKeyEnv,
		idleTimeoutMs: Math.round((table.idleTimeout ?? config.agent.idleTimeout) * 1000),
	};
	if (baseUrl !== undefined) settings.baseUrl = baseUrl;
	if (apiKey) settings.apiKey = apiKey;
	// One setting, two places: a provider's (or profile's) context_window wins over [context] window.
	const contextWindow = table.contextWindow ?? config.context.window;
	if (contextWindow !== undefined) settings.contextWindow = contextWindow;
	if (table.thinkTags !== undefined) settings.thinkTags = table.thinkTags;
	if (table.prices) settings.prices = table.prices;
	return settings;
}
