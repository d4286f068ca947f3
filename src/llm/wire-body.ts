import { sha256Hex } from "../text/digest.js";
import { buildAnthropicParams } from "./anthropic-body.js";
import { buildOpenAIParams } from "./openai-body.js";
import type { ModelRequest } from "./types.js";

/**
 * The JSON body gar sends for `request` on `wire` ("anthropic" or "openai"), built as the adapters build it, without
 * an SDK; undefined for a wire gar does not speak (a scripted provider, a newer gar's). Never throws.
 */
export function wireBody(wire: string, request: ModelRequest): unknown {
	try {
		if (wire === "anthropic") return buildAnthropicParams(request).params;
		if (wire === "openai") return buildOpenAIParams(request);
	} catch {
		// A request this gar cannot build a body for: unknown, never a throw into the viewer.
	}
	return undefined;
}

/** The bytes a body is sent as: both SDKs post `JSON.stringify(body)`. */
export function bodyText(body: unknown): string {
	return JSON.stringify(body);
}

/** The sha256 (hex) of a body's bytes as sent: what a request record keeps to tell an exact rebuild from a guess. */
export function bodySha256(text: string): string {
	return sha256Hex(text);
}
