/**
 * The environment of the commands the bash tool runs: the user's own, without the secrets gar holds. A prompt
 * injected through a file or a web page can make the model run `env` or `curl …?k=$TOKEN`, so variables that
 * hold keys are withheld unless the user passes them on with `[tools] pass_env`.
 */

export type ToolEnvOptions = {
	/** Variables gar reads API keys from (built-in names and every `api_key_env`); always withheld. */
	secretVars: readonly string[];
	/** Names or `*` globs (`AWS_*`, `*`) passed through even when they look secret. */
	passEnv: readonly string[];
	/** The NODE_ENV the user started gar with (see `userNodeEnv`); undefined removes gar's own. */
	userNodeEnv: string | undefined;
};

// Name parts that mark a secret: `GITHUB_TOKEN`, `AWS_SECRET_ACCESS_KEY`, `PGPASSWORD`, `NPM_AUTHTOKEN`. A
// part must end with the word, so `TOKENIZERS_PARALLELISM` and `KEYTIMEOUT` are not caught.
const SECRET_ENDINGS = [
	"KEY",
	"KEYS",
	"TOKEN",
	"TOKENS",
	"SECRET",
	"SECRETS",
	"PASSWORD",
	"PASSWD",
	"PASSPHRASE",
	"CREDENTIAL",
	"CREDENTIALS",
];
// A URL carrying a password (`postgres://me:pw@db`, `https://user:pass@proxy`).
const URL_WITH_PASSWORD = /[a-z][a-z0-9+.-]*:\/\/[^\s/@:]*:[^\s/@]*@/i;

/** True for a variable gar withholds from tools unless passed on: a secret-looking name or a URL with a password. */
export function looksSecret(name: string, value: string | undefined): boolean {
	for (const part of name.toUpperCase().split("_")) {
		if (part === "PASS" || SECRET_ENDINGS.some((word) => part.endsWith(word))) return true;
	}
	return value !== undefined && URL_WITH_PASSWORD.test(value);
}

function globMatcher(patterns: readonly string[]): (name: string) => boolean {
	if (patterns.length === 0) return () => false;
	const escaped = patterns.map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*"));
	const regex = new RegExp(`^(?:${escaped.join("|")})$`);
	return (name) => regex.test(name);
}

/**
 * The environment for tool commands (pure): `env` without `secretVars` and secret-looking variables (see
 * `looksSecret`) unless `passEnv` names them, and with NODE_ENV set back to the user's own value.
 */
export function toolEnv(env: NodeJS.ProcessEnv, options: ToolEnvOptions): NodeJS.ProcessEnv {
	const passed = globMatcher(options.passEnv);
	const gars = new Set(options.secretVars);
	const out: NodeJS.ProcessEnv = {};
	for (const [name, value] of Object.entries(env)) {
		if (value === undefined || name === "NODE_ENV") continue;
		if ((gars.has(name) || looksSecret(name, value)) && !passed(name)) continue;
		out[name] = value;
	}
	if (options.userNodeEnv !== undefined) out.NODE_ENV = options.userNodeEnv;
	return out;
}

// bin/gar.cjs records the user's NODE_ENV here before setting its own; a global symbol never reaches a child.
const USER_NODE_ENV = Symbol.for("gar.userNodeEnv");

/** The NODE_ENV the user started gar with: what bin/gar.cjs recorded, else `env.NODE_ENV` (run from source). */
export function userNodeEnv(env: NodeJS.ProcessEnv = process.env, global: object = globalThis): string | undefined {
	const recorded = (global as Record<symbol, { value?: string } | undefined>)[USER_NODE_ENV];
	return recorded ? recorded.value : env.NODE_ENV;
}
