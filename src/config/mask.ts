/**
 * A secret shown safely: a well-known prefix (`sk-`, `sk-ant-`, `sk-proj-`) and at most the last 4 characters,
 * only when at least 12 characters stay hidden; shorter secrets show nothing but "…".
 */
export function maskSecret(secret: string): string {
	const prefix = /^sk-(?:ant-|proj-)?/.exec(secret)?.[0] ?? "";
	const hidden = secret.length - prefix.length - 4;
	return hidden >= 12 ? `${prefix}…${secret.slice(-4)}` : "…";
}
