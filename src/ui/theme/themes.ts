import { readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { configPaths } from "../../config/paths.js";
import { THEME_NAME } from "../../config/schema.js";
import { editDistance } from "../../text/distance.js";
import { tildePath } from "../../text/paths.js";
import { NotRegularFileError, readRegularFile } from "../../text/regular-file.js";
import * as z from "../../text/zod.js";
import { BUILTIN_THEMES, builtinTheme, darkTheme, mapColors, type Theme } from "./theme.js";

/**
 * Themes by name: the built-ins (dark, light, mono) and user themes, `NAME.json` files in
 * `~/.config/gar/themes/` (`$XDG_CONFIG_HOME/gar/themes/`). A user theme either sets every token, or names a
 * built-in in `"extends"` and sets only the tokens it changes (nested groups merge key by key):
 *
 *     { "extends": "light", "accent": "#d20f39", "diff": { "added": "green" } }
 *
 * A colour is `#rrggbb` (or `#rgb`), one of Ink's colour names (`red`, `cyanBright`, `gray`, …), or `default`
 * (the terminal's own colour). Loaded after the first frame (zod); the built-ins need none of it (theme.ts).
 *
 * Switching live (`/theme NAME`): `switchTheme(store, name, { configDir: userConfigDir() })` (which calls
 * `store.setTheme`) returns null or the problem to show; `themeNames(userConfigDir())` lists the names to complete.
 * This module loads zod: import it lazily from run.tsx's side (connect.ts and what it loads are fine).
 */

const COLOR_NAMES = new Set([
	"black",
	"red",
	"green",
	"yellow",
	"blue",
	"magenta",
	"cyan",
	"white",
	"gray",
	"grey",
	"blackBright",
	"redBright",
	"greenBright",
	"yellowBright",
	"blueBright",
	"magentaBright",
	"cyanBright",
	"whiteBright",
]);
/** A theme is a few hundred bytes; a file far larger is not one. */
const MAX_THEME_BYTES = 1024 * 1024;
const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
const NOT_A_COLOUR = "is not a colour (use #rrggbb or a colour name)";

/** Whether a theme file may use `value` as a colour. */
export function isThemeColor(value: string): boolean {
	return HEX.test(value) || COLOR_NAMES.has(value) || value === "default";
}

const color = z.string().check(z.refine(isThemeColor));
const group = <const K extends string>(keys: readonly K[]) =>
	z.strictObject(Object.fromEntries(keys.map((key) => [key, color])) as Record<K, typeof color>);

const tokens = {
	text: color,
	muted: color,
	accent: color,
	border: color,
	user: color,
	assistant: color,
	thinking: color,
	tool: color,
	success: color,
	warning: color,
	error: color,
	diff: group(["added", "removed", "context", "hunk"]),
	code: group([
		"keyword",
		"string",
		"number",
		"comment",
		"function",
		"type",
		"variable",
		"builtin",
		"literal",
		"title",
		"attr",
		"meta",
		"default",
	]),
	inspector: group(["label", "value", "barFill", "barEmpty"]),
	status: group(["fg", "bg"]),
	selection: color,
};
const GROUPS = new Set(["diff", "code", "inspector", "status"]);
const BASES = ["dark", "light", "mono"] as const;

/** A complete theme file: every token (the built-ins are checked against it in the tests). */
export const themeFileSchema = z.strictObject({ description: z.optional(z.string()), ...tokens });

/** A theme that extends a built-in: any tokens, each group partial. */
const extendingSchema = z.strictObject({
	extends: z.enum(BASES),
	description: z.optional(z.string()),
	...Object.fromEntries(
		Object.entries(tokens).map(([key, schema]) => [key, z.optional("shape" in schema ? z.partial(schema) : schema)]),
	),
});

type Overrides = { [key: string]: string | Overrides | undefined };

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
	let value = raw;
	for (const key of path)
		value = value && typeof value === "object" ? (value as Record<PropertyKey, unknown>)[key] : undefined;
	return value;
}

/** Each problem of a theme file in words, naming its key path: `diff.added: "#ggg" is not a colour (…)`. */
function problems(raw: unknown, issues: readonly z.core.$ZodIssue[]): string[] {
	const out: string[] = [];
	for (const issue of issues) {
		const path = issue.path.map(String).join(".");
		if (issue.code === "unrecognized_keys") {
			for (const key of issue.keys) out.push(`${path ? `${path}.` : ""}${key}: not a theme token`);
			continue;
		}
		const value = valueAt(raw, issue.path);
		if (path === "") out.push("expected a JSON object of theme tokens");
		else if (path === "extends")
			out.push(`extends: ${JSON.stringify(value)} is not a built-in theme (${BASES.join(", ")})`);
		else if (path === "description") out.push("description: expected a string");
		else if (value === undefined) out.push(`${path}: missing`);
		else if (issue.path.length === 1 && GROUPS.has(path)) out.push(`${path}: expected an object of colours`);
		else out.push(`${path}: ${JSON.stringify(value)} ${NOT_A_COLOUR}`);
	}
	return out;
}

/** `base` with `overrides` on top; a group (diff, code, …) merges key by key. */
function merge(base: Theme, overrides: Overrides): Theme {
	const out: Record<string, unknown> = { ...base };
	for (const [key, value] of Object.entries(overrides)) {
		if (value !== undefined) out[key] = typeof value === "string" ? value : { ...(out[key] as object), ...value };
	}
	return out as Theme;
}

/** A theme from the parsed JSON of a file, or each problem in words. "default" becomes "" (no colour). */
export function parseTheme(name: string, raw: unknown): { theme: Theme } | { problems: string[] } {
	const extending = raw !== null && typeof raw === "object" && "extends" in raw;
	const result = (extending ? extendingSchema : themeFileSchema).safeParse(raw);
	if (!result.success) return { problems: problems(raw, result.error.issues) };
	const { description: _description, extends: base, ...tokens } = result.data as Overrides & { extends?: string };
	const full = base ? merge(BUILTIN_THEMES[base] as Theme, tokens) : ({ ...tokens, name } as Theme);
	return { theme: mapColors({ ...full, name }, (value) => (value === "default" ? "" : value)) };
}

/** Where user themes live: `themes/` in gar's config folder. */
export function themesDir(configDir: string): string {
	return join(configDir, "themes");
}

/** gar's config folder for this environment (XDG_CONFIG_HOME respected). */
export function userConfigDir(env: NodeJS.ProcessEnv = process.env): string {
	return configPaths(homedir(), env).configDir;
}

/** Every theme name `loadTheme` accepts: the built-ins, then the user's theme files, sorted. Never throws. */
export function themeNames(configDir: string): string[] {
	let files: string[] = [];
	try {
		files = readdirSync(themesDir(configDir));
	} catch {
		files = [];
	}
	const user = files
		.filter((file) => file.endsWith(".json"))
		.map((file) => file.slice(0, -".json".length))
		.filter((name) => THEME_NAME.test(name) && !builtinTheme(name))
		.sort();
	return [...Object.keys(BUILTIN_THEMES), ...user];
}

/** Names listed in a notice at most: a long list would bury the message. */
const LISTED = 5;

/**
 * "there are dark, light, mono (NOTE)", or for many: "there are 12, such as dracula, dark, … (/theme then Tab lists
 * them all; NOTE)", the closest to `name` first.
 */
function someNames(name: string, names: readonly string[], note: string): string {
	if (names.length <= LISTED) return `there are ${names.join(", ")} (${note})`;
	const closest = names
		.map((candidate, i) => ({
			candidate,
			i,
			distance: editDistance(name.toLowerCase(), candidate.toLowerCase(), { swaps: false }),
		}))
		.sort((a, b) => a.distance - b.distance || a.i - b.i)
		.slice(0, LISTED)
		.map((c) => c.candidate);
	return `there are ${names.length}, such as ${closest.join(", ")} (/theme then Tab lists them all; ${note})`;
}

export type LoadedTheme = { theme: Theme; warning?: string };

/** The theme called `name`: a built-in, else `<configDir>/themes/NAME.json`; or what is wrong, in words. */
export function findTheme(name: string, options: { configDir: string }): { theme: Theme } | { problem: string } {
	const builtin = builtinTheme(name);
	if (builtin) return { theme: builtin };
	const dir = themesDir(options.configDir);
	const unknown = () => ({
		problem: `no theme "${name}"; ${someNames(name, themeNames(options.configDir), `your own: NAME.json in ${tildePath(dir, homedir())}`)}`,
	});
	if (!THEME_NAME.test(name)) return unknown();
	const file = join(dir, `${name}.json`);
	const shown = tildePath(file, homedir());
	let text: string;
	try {
		// A FIFO or a device where the file should be is refused at once: reading it could never end.
		const bytes = readRegularFile(file, MAX_THEME_BYTES);
		if (!bytes) return { problem: `theme "${name}": ${shown} is over 1 MB; a theme is a small JSON file` };
		text = bytes.toString("utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return unknown();
		if (error instanceof NotRegularFileError) {
			return { problem: `theme "${name}": ${shown} is ${error.what}; a theme is a JSON file` };
		}
		return { problem: `theme "${name}": cannot read ${shown}: ${(error as Error).message}` };
	}
	let raw: unknown;
	try {
		raw = JSON.parse(text);
	} catch (error) {
		return { problem: `theme "${name}": ${shown} is not valid JSON: ${(error as Error).message}` };
	}
	const parsed = parseTheme(name, raw);
	return "problems" in parsed ? { problem: `theme "${name}": ${parsed.problems.join("; ")}` } : parsed;
}

/**
 * The theme called `name` (see `findTheme`). Never throws: an unknown name or a bad file gives the dark theme and a
 * warning that says why (each bad key by its path, or the names there are).
 */
export function loadTheme(name: string, options: { configDir: string }): LoadedTheme {
	const found = findTheme(name, options);
	return "theme" in found ? found : { theme: darkTheme, warning: `${found.problem}; using the dark theme` };
}

/**
 * `/theme NAME`: switches the app to theme `name` live (every component and the chat lines already drawn). Returns
 * null when done, or what is wrong (the theme on screen then stays). Never throws.
 */
export function switchTheme(
	store: { setTheme: (theme: Theme) => void },
	name: string,
	options: { configDir: string },
): string | null {
	const found = findTheme(name, options);
	if (!("theme" in found)) return found.problem;
	store.setTheme(found.theme);
	return null;
}
