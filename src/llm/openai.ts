// The client alone, not the package's index (Azure and Bedrock clients); the bundle also leaves out its resource
// classes (scripts/build.mjs, withoutResources): gar posts one request.
import { OpenAI } from "openai/client";
import { buildOpenAIParams } from "./openai-body.js";
import { openaiDecoder } from "./openai-decode.js";
import { apiLabel, type ProviderOptions, sdkProvider } from "./stream-driver.js";
import type { Provider } from "./types.js";

export { buildOpenAIParams, toOpenAIMessages } from "./openai-body.js";

/**
 * A Provider over the Chat Completions API (streaming), for OpenAI and every OpenAI-compatible server (Ollama,
 * llama.cpp, vLLM, LM Studio, OpenRouter, DeepSeek) through `baseURL`. Never throws: see `Provider`.
 */
export function createOpenAIProvider(options: ProviderOptions = {}): Provider {
	const api = options.baseURL ? apiLabel("OpenAI-compatible API", options.baseURL) : "OpenAI API";
	const thinkTags = options.thinkTags ?? true;
	let client: OpenAI | undefined;
	return sdkProvider(
		{ name: "openai", keyEnv: "OPENAI_API_KEY", api },
		options,
		(request, settings) => {
			client ??= new OpenAI({
				apiKey: settings.apiKey || "none", // local servers need no key, but the SDK wants one
				maxRetries: 0, // gar retries (stream-driver.ts), with one policy for both wires
				fetch: settings.fetch,
				logLevel: "off", // the SDK logs to the console otherwise, over the terminal UI
				...(settings.baseURL ? { baseURL: settings.baseURL } : {}),
			});
			const sdk = client;
			const params = buildOpenAIParams(request);
			return {
				// What chat.completions.create posts, through the client itself. The raw response: gar decodes the SSE
				// itself (sse.ts), several times faster than the SDK's Stream.
				open: (signal, fetchOptions) =>
					sdk
						.post("/chat/completions", { body: params, stream: true, signal, timeout: 86_400_000, fetchOptions })
						.asResponse(),
				decoder: (builder, fail) => openaiDecoder(builder, thinkTags, fail),
			};
		},
		buildOpenAIParams,
	);
}
