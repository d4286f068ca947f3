import { showSource } from "../config/format.js";
import { baseUrlOf, formatConfig, formatConfigJson, stripUserinfo } from "../config/index.js";
import type { LoadResult, Source } from "../config/types.js";
import { defaultBaseUrl, defaultModel } from "../llm/models.js";
import { sanitizeForTerminal } from "../term/sanitize.js";

/** The model a run will use and the key it comes from: `model`, the provider table's `model`, or the default. */
export function modelInUse(result: LoadResult): { model: string; key: string | null; source: Source | null } {
	const { config, sources } = result;
	if (config.model) return { model: config.model, key: "model", source: sources.get("model") ?? null };
	const key = `providers.${config.provider}.model`;
	const table = config.providers[config.provider].model;
	if (table) return { model: table, key, source: sources.get(key) ?? null };
	return { model: defaultModel(config.provider), key: null, source: null };
}

/** The endpoint a run will call (userinfo removed) and the key it comes from, or the provider's default (key null). */
export function endpointInUse(result: LoadResult): { url: string; key: string | null; source: Source | null } {
	const { config, sources } = result;
	const used = baseUrlOf(config, config.provider);
	if (!used) return { url: defaultBaseUrl(config.provider), key: null, source: null };
	return { url: stripUserinfo(used.url), key: used.key, source: sources.get(used.key) ?? null };
}

/** `gar config`: the model and endpoint in use and where they come from, then every value with its source. */
export function configCommand(result: LoadResult, options: { json?: boolean }, write: (text: string) => void): number {
	const model = modelInUse(result);
	const endpoint = endpointInUse(result);
	const sourceOf = (used: { key: string | null; source: Source | null }) =>
		used.key === null ? { kind: "provider_default" } : (used.source ?? { kind: "default" });
	if (options.json) {
		const doc = JSON.parse(formatConfigJson(result)) as Record<string, unknown>;
		const modelInUse = { model: model.model, key: model.key, source: sourceOf(model) };
		const endpointInUse = { url: endpoint.url, key: endpoint.key, source: sourceOf(endpoint) };
		write(`${JSON.stringify({ modelInUse, endpointInUse, ...doc }, null, 2)}\n`);
		return 0;
	}
	const from = (used: { key: string | null; source: Source | null }) =>
		used.key === null
			? `the default for provider ${result.config.provider}`
			: `${used.key}, ${showSource(used.key, used.source ?? undefined, result.home)}`;
	const head = [
		`model in use: ${model.model}  (${from(model)})`,
		`endpoint in use: ${endpoint.url}  (${from(endpoint)})`,
	];
	write(`${sanitizeForTerminal(head.join("\n"))}\n\n${formatConfig(result)}\n`);
	return 0;
}
