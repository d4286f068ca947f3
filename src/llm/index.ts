import { codePath } from "../code-cache.js";
import type { ScriptedTurn } from "./scripted.js";
import type { ProviderOptions } from "./stream-driver.js";
import type { Provider } from "./types.js";

export type { ProviderOptions } from "./stream-driver.js";

/** The providers gar can make: the two wires, and the scripted one (tests, the demo). */
export type ProviderKind = "anthropic" | "openai" | "scripted";

/** Options for `createProvider`; `script` is used only by the scripted provider. */
export type CreateProviderOptions = ProviderOptions & { script?: ScriptedTurn[] };

/**
 * Creates a provider, importing only the adapter (and so only the SDK) it needs: each lives in its own lazily
 * loaded chunk. Never rejects for a known name.
 */
export async function createProvider(name: ProviderKind, options: CreateProviderOptions = {}): Promise<Provider> {
	codePath(`provider:${name}`);
	switch (name) {
		case "anthropic":
			return (await import("./anthropic.js")).createAnthropicProvider(options);
		case "openai":
			return (await import("./openai.js")).createOpenAIProvider(options);
		case "scripted":
			return (await import("./scripted.js")).createScriptedProvider(options.script ?? []);
	}
}
