// The base client (auth, request building, errors) without the resource classes: gar only posts one request, and
// the full client weighs four times as much in the bundle.
import { BaseAnthropic } from "@anthropic-ai/sdk/client";
import { buildAnthropicParams } from "./anthropic-body.js";
import { anthropicDecoder } from "./anthropic-decode.js";
import { defaultBaseUrl } from "./models.js";
import { apiLabel, type ProviderOptions, sdkProvider } from "./stream-driver.js";
import type { Provider } from "./types.js";

export { buildAnthropicParams, safeToolId, toAnthropicMessages } from "./anthropic-body.js";

const DEFAULT_BASE_URL = defaultBaseUrl("anthropic");

/** A Provider over the Anthropic Messages API (streaming). Never throws: see `Provider`. */
export function createAnthropicProvider(options: ProviderOptions = {}): Provider {
	const api = apiLabel("Anthropic API", options.baseURL, DEFAULT_BASE_URL);
	let client: BaseAnthropic | undefined;
	return sdkProvider(
		{ name: "anthropic", keyEnv: "ANTHROPIC_API_KEY", api },
		options,
		(request, settings) => {
			client ??= new BaseAnthropic({
				apiKey: settings.apiKey ?? "none",
				maxRetries: 0, // gar retries (stream-driver.ts), with one policy for both wires
				fetch: settings.fetch,
				logLevel: "off", // the SDK logs to the console otherwise, over the terminal UI
				...(settings.baseURL ? { baseURL: settings.baseURL } : {}),
			});
			const sdk = client;
			const { params, schemaTool } = buildAnthropicParams(request);
			return {
				// client.post rather than messages.create: create() console.warns about deprecated models, which
				// would corrupt the terminal UI. The raw response: gar decodes the SSE itself (sse.ts).
				open: (signal, fetchOptions) =>
					sdk
						.post("/v1/messages", { body: params, stream: true, signal, timeout: 86_400_000, fetchOptions })
						.asResponse(),
				decoder: (builder, fail) => anthropicDecoder(builder, schemaTool, fail),
			};
		},
		(request) => buildAnthropicParams(request).params,
	);
}
