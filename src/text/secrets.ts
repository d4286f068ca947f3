/** What a secret is replaced with. */
export const SECRET_MARKER = "[redacted]";

// What a secret looks like in free text, for every place that hides one (the session, error messages, config
// excerpts): an API key is `sk-` (sk-ant-…, sk-proj-…) and 8 or more key characters; `*` counts, as a provider may
// echo a key half-masked, and so does a dot inside it (not one that ends a sentence).
const API_KEY = /\bsk-(?:[\w*-]|\.(?=[\w*-])){8,}/g;
// A bearer token, and the value of a header or field named like a key.
const BEARER = /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi;
const KEY_FIELD = /\b(x-api-key|api[_-]?key|authorization)(["']?\s*[:=]\s*["']?)[^\s"',;}]{8,}/gi;

/**
 * `text` with everything shaped like a secret hidden: an API key becomes what `key` makes of it (what each place
 * shows of a key differs: "sk-ant-[redacted]", "sk-pr…[redacted]", "sk-…"); a bearer token or a key field's value
 * becomes SECRET_MARKER. For text that may echo a request, where the secret's value is not known.
 */
export function maskKeys(text: string, key: (found: string) => string): string {
	return text
		.replace(API_KEY, key)
		.replace(BEARER, `Bearer ${SECRET_MARKER}`)
		.replace(KEY_FIELD, `$1$2${SECRET_MARKER}`);
}

/**
 * `text` with every known secret value in it replaced by SECRET_MARKER. Values shorter than `minLength` stay:
 * they would hit ordinary text. With `json`, values are matched as they are written inside a JSON string.
 */
export function maskValues(
	text: string,
	secrets: readonly (string | undefined)[],
	{ minLength = 4, json = false }: { minLength?: number; json?: boolean } = {},
): string {
	let out = text;
	for (const secret of secrets) {
		if (!secret || secret.length < minLength) continue;
		const written = json ? JSON.stringify(secret).slice(1, -1) : secret;
		if (out.includes(written)) out = out.split(written).join(SECRET_MARKER);
	}
	return out;
}
