import { showSource } from "../config/format.js";
import { formatConfig, formatConfigJson } from "../config/index.js";
import type { LoadResult, Source } from "../config/types.js";
import { defaultModel } from "../llm/models.js";
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

/** `gar config`: the model in use and where it comes from, then every effective value with its source. */
export function configCommand(result: LoadResult, options: { json?: boolean }, write: (text: string) => void): number {
	const used = modelInUse(result);
	if (options.json) {
		const doc = JSON.parse(formatConfigJson(result)) as Record<string, unknown>;
		const modelSource = used.key === null ? { kind: "provider_default" } : (used.source ?? { kind: "default" });
		write(
			`${JSON.stringify({ modelInUse: { model: used.model, key: used.key, source: modelSource }, ...doc }, null, 2)}\n`,
		);
		return 0;
	}
	const from =
		used.key === null
			? `the default for provider ${result.config.provider}`
			: `${used.key}, ${showSource(used.key, used.source ?? undefined, result.home)}`;
	write(`${sanitizeForTerminal(`model in use: ${used.model}  (${from})`)}\n\n${formatConfig(result)}\n`);
	return 0;
}
