import { EMPTY_USAGE, type Provider, type StreamEvent } from "./types.js";

/**
 * A provider that cannot call a model yet (no API key): every request ends at once with `message` (errorKind
 * "auth"), so an interactive UI can open and explain what to set instead of exiting. Never throws.
 */
export function unconfiguredProvider(name: string, message: string): Provider {
	return {
		name,
		async *stream(request): AsyncGenerator<StreamEvent> {
			yield { type: "start" };
			yield {
				type: "done",
				message: {
					role: "assistant",
					content: [],
					provider: name,
					model: request.model,
					usage: EMPTY_USAGE,
					stopReason: "error",
					error: message,
					errorKind: "auth",
				},
			};
		},
	};
}
