import type { ProviderName } from "../config/types.js";
import type { ListedModel } from "../llm/model-list.js";
import { findModel, MODELS, type Pricing, vendorOf } from "../llm/models.js";

/** What one provider can reach, from the config and environment as gar started. */
export type Reach = {
	name: ProviderName;
	/** The variable to set when the provider has no key (and is not an OpenAI-compatible server); else null. */
	missingKey: string | null;
	/** `base_url`: a server of one's own. An OpenAI-compatible one may serve any id. */
	baseUrl?: string;
	/** The model this provider's settings name (`[providers.NAME] model`, or gar's default). */
	model: string;
	/** `context_window` for this provider (or `[context] window`), which wins over the model table. */
	contextWindow?: number;
	/** Models the config's profiles name for this provider. */
	profileModels: readonly string[];
	/** `[providers.NAME.prices]` (or a profile's) is set: a model gar does not know still has a price. */
	priced?: boolean;
};

/** A model on a provider. */
export type ModelTarget = { provider: ProviderName; model: string };

const PROVIDERS: readonly ProviderName[] = ["anthropic", "openai"];
const VENDOR: Record<ProviderName, string> = { anthropic: "an Anthropic", openai: "an OpenAI" };

/** Whether `name` is one of gar's providers. */
export function isProviderName(name: string): name is ProviderName {
	return (PROVIDERS as readonly string[]).includes(name);
}

/**
 * The argument of `/model`: `anthropic/NAME` or `openai/NAME` names the provider (the rest is the id as sent, so
 * OpenRouter's `anthropic/claude-sonnet-4.5` is `openai/anthropic/claude-sonnet-4.5`); any other id stays on `current`.
 */
export function parseModelSpec(spec: string, current: ProviderName): ModelTarget {
	const slash = spec.indexOf("/");
	const prefix = spec.slice(0, slash);
	if (slash > 0 && isProviderName(prefix)) return { provider: prefix, model: spec.slice(slash + 1) };
	return { provider: current, model: spec };
}

/** An OpenAI-compatible server at a base URL (OpenRouter, LiteLLM, Ollama, …) may serve any id at all. */
export function servesAnyId(reach: Reach): boolean {
	return reach.name === "openai" && reach.baseUrl !== undefined;
}

/**
 * Why switching to `target` cannot work, in words that say what to do; null when it can. `from` is the provider in
 * use. The other vendor's model (known to the table or by its family's name) is refused, since that wire would
 * reject it, except on an OpenAI-compatible server, which may serve it.
 */
export function refuseSwitch(target: ModelTarget, reach: Reach, from: Reach): string | null {
	const { provider, model } = target;
	if (model.trim() === "") return `/model ${provider}/NAME: the model name is missing`;
	if (/\s/.test(model)) return "a model name has no spaces or line breaks: /model NAME";
	if (reach.missingKey) {
		const server = provider === "openai" ? `, or base_url in [providers.openai] for an OpenAI-compatible server` : "";
		// On OpenRouter and the like, ids such as "anthropic/claude-…" are the server's own.
		const own =
			provider !== from.name && servesAnyId(from)
				? `; for this server's id write /model openai/${provider}/${model}`
				: "";
		return `no API key for ${provider}: set ${reach.missingKey} (or api_key_env in [providers.${provider}])${server} and start gar again${own}`;
	}
	const vendor = vendorOf(model);
	if (vendor && vendor !== provider && !servesAnyId(reach)) {
		return `${model} is ${VENDOR[vendor]} model, which ${provider} cannot serve: /model ${vendor}/${model} switches the provider`;
	}
	return null;
}

/**
 * A one-line note for a model in no table and on no server's list (`listed`: the ids the provider's server listed);
 * null for one gar or the server knows.
 */
export function unknownModelNote(model: string, reach: Reach, listed: ReadonlySet<string> = new Set()): string | null {
	if (findModel(model) || listed.has(model)) return null;
	if (reach.priced) {
		if (reach.contextWindow !== undefined) return null;
		return `gar does not know ${model}: its context window is unknown (context_window in [providers.${reach.name}] sets it)`;
	}
	if (reach.contextWindow !== undefined) return `gar does not know ${model}: its price is unknown`;
	return `gar does not know ${model}: its price and context window are unknown (context_window in [providers.${reach.name}] sets the window)`;
}

/**
 * What `/model` completes, the model in use first: what the current provider serves (its profiles' models, and the
 * table's models for it unless it is an OpenAI-compatible server, whose ids gar cannot know), then `other/NAME` for
 * the other provider when it has a key.
 */
export function modelChoices(current: ModelTarget, reaches: Readonly<Record<ProviderName, Reach>>): string[] {
	const served = (reach: Reach) => [
		reach.model,
		...reach.profileModels,
		...(servesAnyId(reach) ? [] : MODELS.filter((m) => m.provider === reach.name).map((m) => m.id)),
	];
	const own = [current.model, ...served(reaches[current.provider])];
	const others = PROVIDERS.filter((p) => p !== current.provider && !reaches[p].missingKey).flatMap((p) =>
		served(reaches[p]).map((id) => `${p}/${id}`),
	);
	return [...new Set([...own, ...others].filter(Boolean))];
}

/** One row of the model picker: a model a configured provider can serve, with what is known of it. */
export type ModelRow = {
	provider: ProviderName;
	id: string;
	/** The context window: the config's, else the table's, else the server's; null when unknown. */
	contextWindow: number | null;
	/** USD per million tokens (the table's); null when unknown. */
	pricing: Pricing | null;
	/** The model in use now. */
	current: boolean;
	/** Where the row comes from: the config (the provider's or a profile's model), gar's table, the server's list. */
	from: "config" | "table" | "server";
};

/**
 * The rows of the model picker: for each provider with a key (the one in use first), its configured model and its
 * profiles' models, then gar's table of its models, or, for an OpenAI-compatible server, what the server listed
 * (`listed`; the table when it could not be listed). The model in use is marked and always there.
 */
export function modelRows(
	current: ModelTarget,
	reaches: Readonly<Record<ProviderName, Reach>>,
	listed: Partial<Record<ProviderName, readonly ListedModel[] | null>>,
): ModelRow[] {
	const rows: ModelRow[] = [];
	const seen = new Set<string>();
	const add = (reach: Reach, id: string, from: ModelRow["from"], serverWindow?: number) => {
		const key = `${reach.name}/${id}`;
		if (id === "" || seen.has(key)) return;
		seen.add(key);
		const known = findModel(id);
		rows.push({
			provider: reach.name,
			id,
			contextWindow: reach.contextWindow ?? known?.contextWindow ?? serverWindow ?? null,
			pricing: known?.pricing ?? null,
			current: reach.name === current.provider && id === current.model,
			from,
		});
	};
	const order = [current.provider, ...PROVIDERS.filter((p) => p !== current.provider)];
	for (const name of order) {
		const reach = reaches[name];
		if (reach.missingKey) continue;
		if (name === current.provider) add(reach, current.model, "config");
		add(reach, reach.model, "config");
		for (const id of reach.profileModels) add(reach, id, "config");
		const server = servesAnyId(reach) ? listed[name] : undefined;
		if (server) for (const model of server) add(reach, model.id, "server", model.contextWindow);
		else for (const model of MODELS.filter((m) => m.provider === name)) add(reach, model.id, "table");
	}
	return rows;
}
