import { maskKeys, SECRET_MARKER } from "../text/secrets.js";

/**
 * Defence in depth for text that may echo a request (provider error messages), before it is saved: hides what looks
 * like an API key ("sk-ant-[redacted]", "sk-[redacted]"), a bearer token or a key header's value. Keys never reach
 * events, so this should find nothing.
 */
export function redactSecrets(text: string): string {
	return maskKeys(text, (key) => `${key.startsWith("sk-ant-") ? "sk-ant-" : "sk-"}${SECRET_MARKER}`);
}
