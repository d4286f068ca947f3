const PATTERNS: [RegExp, string][] = [
	[/sk-ant-[A-Za-z0-9_-]{8,}/g, "sk-ant-[redacted]"],
	[/sk-[A-Za-z0-9_-]{16,}/g, "sk-[redacted]"],
	[/\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi, "Bearer [redacted]"],
	[/\b(x-api-key|api[_-]?key|authorization)(["']?\s*[:=]\s*["']?)[^\s"',;}]{8,}/gi, "$1$2[redacted]"],
];

/**
 * Defence in depth for text that may echo a request (provider error messages): replaces what looks like an API
 * key or an authorization header value. Keys never reach events, so this should find nothing.
 */
export function redactSecrets(text: string): string {
	let out = text;
	for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
	return out;
}
