import { maskKeys } from "../text/secrets.js";

/**
 * A secret shown safely: a well-known prefix (`sk-`, `sk-ant-`, `sk-proj-`) and at most the last 4 characters,
 * only when at least 12 characters stay hidden; shorter secrets show nothing but "…".
 */
export function maskSecret(secret: string): string {
	const prefix = /^sk-(?:ant-|proj-)?/.exec(secret)?.[0] ?? "";
	const hidden = secret.length - prefix.length - 4;
	return hidden >= 12 ? `${prefix}…${secret.slice(-4)}` : "…";
}

// `scheme://user:pass@` or `scheme://token@`: whatever sits between `//` and `@` before the host is userinfo.
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"']*@/gi;

/** Text with the userinfo of every URL in it removed: `https://user:pass@host/v1` → `https://host/v1`. */
export function stripUserinfo(text: string): string {
	return text.includes("@") ? text.replace(USERINFO, "$1") : text;
}

// The value of a key named like a secret (`api_key`, `token`, `client_secret`, quoted or dotted; not
// `api_key_env`, whose value is a variable's name) up to the end of the line.
const API_KEY_VALUE = /(\b[\w.-]*(?:key|token|secret|password)["']?\s*=\s*).*$/i;

/** A TOML excerpt safe to print: values of secret-named keys, key-like tokens (`sk-…`) and URL userinfo are hidden. */
export function maskExcerpt(excerpt: string): string {
	return excerpt
		.split("\n")
		.map((line) => stripUserinfo(maskKeys(line.replace(API_KEY_VALUE, '$1"…"'), () => "sk-…")))
		.join("\n");
}
