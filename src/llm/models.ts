import type { Usage } from "./types.js";

/** USD per million tokens. `cacheWrite` is the 5-minute cache write rate (0 where the provider does not bill writes). */
export type Pricing = { input: number; output: number; cacheRead: number; cacheWrite: number };

/**
 * How an Anthropic model takes thinking settings. "budget": `thinking.budget_tokens`. "adaptive": `thinking.type
 * adaptive` plus an effort level, off unless asked. "adaptive-default": adaptive, and the model thinks unless told
 * otherwise. "always": thinking cannot be switched off (and tool use cannot be forced).
 */
export type AnthropicThinking = "budget" | "adaptive" | "adaptive-default" | "always";

/** What gar knows about a model: limits, prices, and how it thinks. */
export type ModelInfo = {
	id: string;
	provider: "anthropic" | "openai";
	contextWindow: number;
	maxOutput: number;
	/** Absent when the price is not known: cost is then unknown, never zero. */
	pricing?: Pricing;
	/** The model can reason before answering (extended thinking, reasoning effort). */
	reasoning?: boolean;
	anthropicThinking?: AnthropicThinking;
};

const K = 1000;
const M = 1_000_000;

function claude(
	id: string,
	contextWindow: number,
	maxOutput: number,
	thinking: AnthropicThinking,
	price?: [input: number, output: number, cacheWrite: number, cacheRead: number],
): ModelInfo {
	const info: ModelInfo = { id, provider: "anthropic", contextWindow, maxOutput, reasoning: true };
	info.anthropicThinking = thinking;
	if (price) info.pricing = { input: price[0], output: price[1], cacheWrite: price[2], cacheRead: price[3] };
	return info;
}

function gpt(
	id: string,
	contextWindow: number,
	maxOutput: number,
	reasoning: boolean,
	price: [input: number, output: number, cacheRead: number],
): ModelInfo {
	const pricing = { input: price[0], output: price[1], cacheRead: price[2], cacheWrite: 0 };
	return { id, provider: "openai", contextWindow, maxOutput, pricing, reasoning };
}

/**
 * Known models. Sources (read 2026-11): platform.claude.com models overview, per-model pages and pricing page;
 * developers.openai.com models and pricing pages. Claude Haiku 5.5 is priced at its ≤100k-token prompt tier.
 */
export const MODELS: readonly ModelInfo[] = [
	claude("claude-fable-5-2", 1 * M, 128 * K, "always"),
	claude("claude-mythos-5-2", 1 * M, 128 * K, "always"),
	claude("claude-fable-5-1", 1 * M, 128 * K, "always", [10, 50, 12.5, 0.25]),
	claude("claude-mythos-5-1", 1 * M, 128 * K, "always", [10, 50, 12.5, 0.25]),
	claude("claude-fable-5", 1 * M, 128 * K, "always", [10, 50, 12.5, 1]),
	claude("claude-mythos-5", 1 * M, 128 * K, "always", [10, 50, 12.5, 1]),
	claude("claude-opus-5-5", 1 * M, 128 * K, "always", [4, 20, 5, 0.2]),
	claude("claude-sonnet-5-5", 1 * M, 128 * K, "adaptive-default", [2, 10, 2.5, 0.1]),
	claude("claude-haiku-5-5", 1 * M, 128 * K, "adaptive-default", [0.1, 0.5, 0.125, 0.01]),
	claude("claude-opus-5", 1 * M, 128 * K, "adaptive-default", [5, 25, 6.25, 0.5]),
	claude("claude-sonnet-5", 1 * M, 128 * K, "adaptive-default", [2, 10, 2.5, 0.2]),
	claude("claude-opus-4-8", 1 * M, 128 * K, "adaptive", [5, 25, 6.25, 0.5]),
	claude("claude-opus-4-7", 1 * M, 128 * K, "adaptive", [5, 25, 6.25, 0.5]),
	claude("claude-opus-4-6", 1 * M, 128 * K, "adaptive", [5, 25, 6.25, 0.5]),
	claude("claude-sonnet-4-6", 1 * M, 64 * K, "adaptive", [3, 15, 3.75, 0.3]),
	claude("claude-opus-4-5", 200 * K, 64 * K, "budget", [5, 25, 6.25, 0.5]),
	claude("claude-sonnet-4-5", 200 * K, 64 * K, "budget", [3, 15, 3.75, 0.3]),
	claude("claude-haiku-4-5", 200 * K, 64 * K, "budget", [1, 5, 1.25, 0.1]),
	claude("claude-opus-4-1", 200 * K, 32 * K, "budget", [15, 75, 18.75, 1.5]),
	claude("claude-opus-4-0", 200 * K, 32 * K, "budget", [15, 75, 18.75, 1.5]),
	claude("claude-sonnet-4-0", 200 * K, 64 * K, "budget", [3, 15, 3.75, 0.3]),
	gpt("gpt-5.5", 1_050_000, 128 * K, true, [5, 30, 0.5]),
	gpt("gpt-5.4", 1_050_000, 128 * K, true, [2.5, 15, 0.25]),
	gpt("gpt-5.4-mini", 400 * K, 128 * K, true, [0.75, 4.5, 0.075]),
	gpt("gpt-5.4-nano", 400 * K, 128 * K, true, [0.2, 1.25, 0.02]),
	gpt("gpt-5.2", 400 * K, 128 * K, true, [1.75, 14, 0.175]),
	gpt("gpt-5.1", 400 * K, 128 * K, true, [1.25, 10, 0.125]),
	gpt("gpt-5", 400 * K, 128 * K, true, [1.25, 10, 0.125]),
	gpt("gpt-5-mini", 400 * K, 128 * K, true, [0.25, 2, 0.025]),
	gpt("gpt-5-nano", 400 * K, 128 * K, true, [0.05, 0.4, 0.005]),
	gpt("gpt-4.1", 1_047_576, 32_768, false, [2, 8, 0.5]),
	gpt("gpt-4.1-mini", 1_047_576, 32_768, false, [0.4, 1.6, 0.1]),
	gpt("gpt-4.1-nano", 1_047_576, 32_768, false, [0.1, 0.4, 0.025]),
	gpt("gpt-4o", 128 * K, 16_384, false, [2.5, 10, 1.25]),
	gpt("gpt-4o-mini", 128 * K, 16_384, false, [0.15, 0.6, 0.075]),
	gpt("o3", 200 * K, 100 * K, true, [2, 8, 0.5]),
	gpt("o3-mini", 200 * K, 100 * K, true, [1.1, 4.4, 0.55]),
	gpt("o4-mini", 200 * K, 100 * K, true, [1.1, 4.4, 0.275]),
];

const BY_ID = new Map(MODELS.map((m) => [m.id, m]));
const ALIASES = new Map([
	["claude-opus-4", "claude-opus-4-0"],
	["claude-sonnet-4", "claude-sonnet-4-0"],
]);

/** The id without a `provider/` prefix, a `[1m]` tag, `-latest`, or a date suffix (`-20250929`, `-2024-08-06`). */
export function baseModelId(id: string): string {
	let out = id.trim().toLowerCase();
	const slash = out.lastIndexOf("/");
	if (slash >= 0) out = out.slice(slash + 1);
	out = out.replace(/\[[^\]]*\]$/, "").replace(/-latest$/, "");
	out = out.replace(/-\d{8}$/, "").replace(/-\d{4}-\d{2}-\d{2}$/, "");
	// OpenRouter and others spell Claude versions with dots: claude-sonnet-4.5.
	if (out.startsWith("claude-")) out = out.replace(/(\d)\.(\d)/g, "$1-$2");
	return out;
}

/** The table entry for `id` (exact, or after `baseModelId`), or undefined for a model the table does not know. */
export function findModel(id: string): ModelInfo | undefined {
	const exact = BY_ID.get(id);
	if (exact) return exact;
	const base = baseModelId(id);
	return BY_ID.get(base) ?? BY_ID.get(ALIASES.get(base) ?? "");
}

/** Whose API serves `id`: the table's entry, else its family's name (claude-…; gpt-…, o3…); undefined for others. */
export function vendorOf(id: string): ModelInfo["provider"] | undefined {
	const known = findModel(id);
	if (known) return known.provider;
	const base = baseModelId(id);
	if (base.startsWith("claude-")) return "anthropic";
	if (/^(gpt-|o\d+(-|$))/.test(base)) return "openai";
	return undefined;
}

/**
 * The price of a model: gar's table, else `configured` (the config's `[providers.NAME.prices]` or a profile's, for a
 * model gar does not know); undefined when neither knows it.
 */
export function priceOf(modelId: string, configured?: Pricing): Pricing | undefined {
	return findModel(modelId)?.pricing ?? configured;
}

/**
 * Cost of one reply in USD; null when the model's price is unknown (never 0 for an unknown price). `configured`:
 * the config's prices, for a model gar's table does not price.
 */
export function costUsd(modelId: string, usage: Usage, configured?: Pricing): number | null {
	const price = priceOf(modelId, configured);
	if (!price) return null;
	const total =
		usage.input * price.input +
		usage.output * price.output +
		usage.cacheRead * price.cacheRead +
		usage.cacheWrite * price.cacheWrite;
	return total / M;
}

/** The model used when none is configured. */
export function defaultModel(provider: "anthropic" | "openai"): string {
	return provider === "anthropic" ? "claude-sonnet-5-5" : "gpt-5.4";
}

/** The endpoint the provider's SDK uses when no base URL is configured. */
export function defaultBaseUrl(provider: "anthropic" | "openai"): string {
	return provider === "anthropic" ? "https://api.anthropic.com" : "https://api.openai.com/v1";
}

/** The model's context window in tokens; `fallback` (default 128,000) for an unknown model. */
export function contextWindowOf(modelId: string, fallback = 128_000): number {
	return findModel(modelId)?.contextWindow ?? fallback;
}
