import { statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parse, TomlError } from "smol-toml";
import { expandHome, tildePath } from "../text/paths.js";
import { NotRegularFileError, readRegularFile } from "../text/regular-file.js";
import type * as z from "../text/zod.js";
import { readHooks } from "./hooks.js";
import { arrayTableLine, findLine, hookLine, keyLines } from "./locate.js";
import { maskExcerpt } from "./mask.js";
import { type PermissionRule, readRules } from "./permissions.js";
import {
	describeValue,
	expectedAt,
	type FileConfig,
	fileSchema,
	HOOK_EVENTS,
	HOOK_KEYS,
	homeTable,
	knownKeys,
} from "./schema.js";
import { closestKey } from "./suggest.js";
import type { Entry, HookEntry, Layer } from "./types.js";

/** The largest config file read: a config is a few lines; more is not a config. */
const MAX_CONFIG_BYTES = 1_048_576;

/**
 * One config file, validated and flattened to dotted keys. Profiles stay apart until one is selected; hooks are
 * kept as a list (every file's hooks run, none replaces another's).
 */
export type FileLayer = {
	path: string;
	entries: Layer;
	profiles: Map<string, Layer>;
	hooks: HookEntry[];
	/** `[[permissions.allow]]` and `[[permissions.deny]]`, kept per file with their lines (never merged). */
	rules: PermissionRule[];
	warnings: string[];
	errors: string[];
};

/** Reads, parses and validates one file. Missing file → undefined. Never throws: problems land in `errors`. */
export function readConfigFile(path: string, home: string): FileLayer | undefined {
	const layer: FileLayer = {
		path,
		entries: new Map(),
		profiles: new Map(),
		hooks: [],
		rules: [],
		warnings: [],
		errors: [],
	};
	const shown = tildePath(path, home);
	let text: string;
	try {
		// A FIFO or device there is refused at once, never read forever.
		const bytes = readRegularFile(path, MAX_CONFIG_BYTES);
		if (bytes === null) {
			layer.errors.push(
				`${shown}: larger than ${MAX_CONFIG_BYTES / 1_048_576} MB; a config file is a few lines of TOML`,
			);
			return layer;
		}
		text = bytes.toString("utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
		const why =
			error instanceof NotRegularFileError
				? `is ${error.what}, not a config file`
				: `cannot read: ${(error as Error).message}`;
		layer.errors.push(`${shown}: ${why}`);
		return layer;
	}
	let raw: Record<string, unknown>;
	try {
		raw = parse(text);
	} catch (error) {
		if (!(error instanceof TomlError)) throw error;
		layer.errors.push(syntaxMessage(error, text, shown));
		return layer;
	}
	const data = validate(raw, text, shown, layer);
	if (data) flatten(data, text, layer, home, shown);
	return layer;
}

function syntaxMessage(error: TomlError, text: string, shown: string): string {
	const reason = (error.message.split("\n")[0] ?? "").replace(/^Invalid TOML document: /, "");
	let hint = "";
	if (reason.includes("redefine")) {
		const lines = keyLines(text);
		const here = lines.find((entry) => entry.line === error.line)?.path ?? [];
		const before = lines.find(
			(entry) => entry.line < error.line && entry.path.length > 0 && entry.path.every((part, i) => part === here[i]),
		);
		if (before) {
			hint = `\n  "${before.path.join(".")}" is already defined on line ${before.line}: a key is defined once, and a key and a table cannot share a name (profile = "x" selects [profiles.x]; provider = "x" goes with [providers.x])`;
		}
	}
	// The excerpt quotes the file: an api_key on or near the bad line must not reach the terminal or a log.
	return `${shown}:${error.line}:${error.column}: invalid TOML: ${reason}${hint}\n${maskExcerpt(error.codeblock.trimEnd())}`;
}

/** A message and the line it is about, so a file's problems can be listed top to bottom. */
type Located = { line: number | undefined; text: string };

function byLine(list: Located[]): string[] {
	return list
		.sort((a, b) => (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER))
		.map((m) => m.text);
}

/** Runs the schema. Unknown keys become warnings and are dropped; any other issue is an error. */
function validate(raw: Record<string, unknown>, text: string, shown: string, layer: FileLayer): FileConfig | undefined {
	const first = fileSchema().safeParse(raw);
	if (first.success) return first.data;
	const errors: Located[] = [];
	const warnings: Located[] = [];
	for (const issue of first.error.issues) {
		if (issue.code !== "unrecognized_keys") {
			const line = lineOf(text, issue.path);
			errors.push({ line, text: invalidMessage(issue, raw, shown, line) });
			continue;
		}
		for (const key of issue.keys) {
			const line = lineOf(text, [...issue.path, key]);
			// A misspelt hook event or key would be a hook that silently never runs, and a misspelt `prefix` a rule
			// that allows every command: errors, not warnings.
			const strict =
				issue.path[0] === "hooks" ||
				(issue.path.length === 0 && key === "hooks") ||
				issue.path[0] === "permissions" ||
				(issue.path.length === 0 && /^perm/i.test(key));
			const list = strict ? errors : warnings;
			list.push({ line, text: unknownMessage(issue.path, key, shown, line) });
			const table = valueAt(raw, issue.path);
			if (table && typeof table === "object") delete (table as Record<string, unknown>)[key];
		}
	}
	layer.errors.push(...byLine(errors));
	layer.warnings.push(...byLine(warnings));
	if (errors.length > 0) return undefined;
	const second = fileSchema().safeParse(raw);
	return second.success ? second.data : undefined;
}

function invalidMessage(issue: z.core.$ZodIssue, raw: unknown, shown: string, line: number | undefined): string {
	const where = line === undefined ? shown : `${shown}:${line}`;
	const key = issue.path.map((part) => (typeof part === "number" ? `[${part}]` : String(part))).join(".");
	const value = valueAt(raw, issue.path);
	const leaf = issue.path[issue.path.length - 1];
	const got =
		leaf === "api_key" || leaf === "api_key_env" ? "a value (hidden: it may be a secret)" : describeValue(value);
	let hint = "";
	if (got === "a table" && (leaf === "provider" || leaf === "profile")) hint = `; tables go under [${leaf}s.NAME]`;
	return `${where}: ${key.replace(/\.\[/g, "[")}: expected ${expectedAt(issue.path)}, got ${got}${hint}`;
}

/** The line of `path`; a hook's keys are found under their own `[[hooks.EVENT]]` header (the n-th one). */
function lineOf(text: string, path: readonly PropertyKey[]): number | undefined {
	const [head, event, index, key] = path;
	if (head === "hooks" && typeof event === "string" && typeof index === "number") {
		return hookLine(text, event, index, typeof key === "string" ? key : undefined) ?? findLine(text, path);
	}
	if (head === "permissions" && typeof event === "string" && typeof index === "number") {
		return arrayTableLine(text, ["permissions", event], index) ?? findLine(text, path);
	}
	return findLine(text, path);
}

function unknownMessage(path: readonly PropertyKey[], key: string, shown: string, line: number | undefined): string {
	const where = line === undefined ? shown : `${shown}:${line}`;
	const table =
		path.length === 0
			? "at top level"
			: `in [${path.map((part) => (typeof part === "number" ? `[${part}]` : String(part))).join(".")}]`.replace(
					/\.\[/g,
					"[",
				);
	const base = `unknown key "${key}" ${table} (${where})`;
	if (path[0] === "hooks") return hookKeyMessage(path, key, base);
	if (path[0] === "permissions") {
		const meant = closestKey(key, knownKeys(path));
		const takes = path.length === 1 ? "[[permissions.allow]] and [[permissions.deny]]" : "a rule takes tool and prefix";
		return `${base}; ${meant ? `did you mean "${meant}"? ` : ""}${takes}`;
	}
	// A key that exists as written in another table is misplaced, not misspelt.
	const home = path[0] === "profiles" ? undefined : homeTable(key);
	const suggestion = home === undefined ? closestKey(key, knownKeys(path)) : undefined;
	if (suggestion) return `${base}; did you mean "${suggestion}"?`;
	if (home === "") return `${base}; "${key}" is a top-level key: put it above the first [table] header`;
	if (home !== undefined) return `${base}; "${key}" belongs in [${home}]`;
	if (path.length === 1 && path[0] === "providers") {
		return `${base}; providers are "anthropic" and "openai" — for another server add [profiles.${key}] with provider = "openai" and base_url`;
	}
	return base;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
	let value = root;
	for (const part of path) {
		if (value === null || typeof value !== "object") return undefined;
		value = (value as Record<PropertyKey, unknown>)[part];
	}
	return value;
}

/** What to say of an unknown key under [hooks]: the event or key it misspells, or how Claude Code's shape maps. */
function hookKeyMessage(path: readonly PropertyKey[], key: string, base: string): string {
	if (path.length === 1) {
		const lower = closestKey(
			key.toLowerCase(),
			HOOK_EVENTS.map((event) => event.toLowerCase()),
		);
		const meant = HOOK_EVENTS.find((event) => event.toLowerCase() === lower);
		return `${base}; ${meant ? `did you mean "${meant}"? ` : ""}the hook events are ${HOOK_EVENTS.join(", ")}`;
	}
	if (key === "hooks") {
		return `${base}; gar's hook tables are flat: put command (and timeout) in the [[hooks.${String(path[1])}]] table itself, next to matcher`;
	}
	const meant = closestKey(key, HOOK_KEYS);
	return `${base}; ${meant ? `did you mean "${meant}"? ` : ""}a hook table takes ${HOOK_KEYS.slice(0, 3).join(", ")}`;
}

function flatten(data: FileConfig, text: string, layer: FileLayer, home: string, shown: string): void {
	const { profiles, hooks, permissions, ...rest } = data;
	layer.hooks = readHooks(hooks, text, layer.path);
	const rules = readRules(permissions, text, layer.path, shown);
	layer.rules = rules.rules;
	layer.errors.push(...rules.errors);
	const visit = (value: unknown, path: string[]): void => {
		if (value === undefined) return;
		if (value !== null && typeof value === "object" && !Array.isArray(value)) {
			for (const [key, child] of Object.entries(value)) visit(child, [...path, key]);
			return;
		}
		const key = path.join(".");
		const resolved = key === "session.dir" ? resolve(dirname(layer.path), expandHome(String(value), home)) : value;
		layer.entries.set(key, { value: resolved, source: { kind: "file", path: layer.path, line: findLine(text, path) } });
	};
	visit(rest, []);
	for (const [name, profile] of Object.entries(profiles ?? {})) {
		const entries = new Map<string, Entry>();
		const source = { kind: "profile" as const, name, path: layer.path };
		for (const [key, value] of Object.entries(profile)) {
			if (value === undefined) continue;
			// A profile's [profiles.NAME.prices] table is kept as dotted keys, as a provider table's is.
			if (key === "prices" && typeof value === "object") {
				for (const [part, price] of Object.entries(value)) entries.set(`prices.${part}`, { value: price, source });
			} else entries.set(key, { value, source });
		}
		layer.profiles.set(name, entries);
	}
	warnInlineKeys(data, layer, home);
}

/** An inline api_key in a file others can read is a leak waiting to happen. */
function warnInlineKeys(data: FileConfig, layer: FileLayer, home: string): void {
	if (process.platform === "win32") return;
	const inline =
		data.providers?.anthropic?.api_key ??
		data.providers?.openai?.api_key ??
		Object.values(data.profiles ?? {}).find((profile) => profile.api_key)?.api_key;
	if (inline === undefined) return;
	const mode = statSync(layer.path).mode & 0o777;
	if ((mode & 0o077) === 0) return;
	const shown = tildePath(layer.path, home);
	layer.warnings.push(
		`${shown} holds an api_key but is readable by others (mode ${mode.toString(8).padStart(3, "0")}): run chmod 600 ${shown}, or use api_key_env to read the key from the environment`,
	);
}
