/** Config: TOML files, environment and flags merged into one validated GarConfig. */
export { ConfigError, MissingKeyError } from "./errors.js";
export { configValues, formatConfig, formatConfigJson } from "./format.js";
export { DEFAULT_HOOK_TIMEOUT, hooksHash, runnableHooks } from "./hooks.js";
export { type LoadOptions, loadConfig } from "./load.js";
export { maskSecret, stripUserinfo } from "./mask.js";
export { configPaths, findProjectConfig } from "./paths.js";
export { baseUrlOf, type RunSettings, resolveRun } from "./resolve.js";
export { HOOK_EVENTS, type HookEventName } from "./schema.js";
export { projectRoot } from "./trust-store.js";
export type {
	ConfigFlags,
	ConfiguredHook,
	GarConfig,
	HookEntry,
	HookTrust,
	IgnoredKey,
	LoadResult,
	ProviderName,
	ProviderSettings,
	Source,
} from "./types.js";
