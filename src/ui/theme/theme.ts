import dark from "../../../themes/dark.json" with { type: "json" };
import light from "../../../themes/light.json" with { type: "json" };

/**
 * A colour Ink's `<Text color>` accepts: a hex string ("#7aa2f7") or a name ("cyan"). The empty string means no
 * colour at all (the terminal's own): the `mono` theme is all empty strings, and Ink skips a falsy colour.
 */
export type Color = string;

/**
 * Semantic colour tokens: components ask for `theme.diff.added`, never for a raw colour, so a theme file can
 * restyle everything. One object holds every colour choice of the UI. A component that sets a background colour
 * must stay readable when it is "" (see StatusBar: inverse instead).
 */
export type Theme = {
	name: string;
	text: Color;
	muted: Color;
	accent: Color;
	border: Color;
	user: Color;
	assistant: Color;
	thinking: Color;
	tool: Color;
	success: Color;
	warning: Color;
	error: Color;
	diff: { added: Color; removed: Color; context: Color; hunk: Color };
	code: {
		keyword: Color;
		string: Color;
		number: Color;
		comment: Color;
		function: Color;
		type: Color;
		variable: Color;
		builtin: Color;
		literal: Color;
		title: Color;
		attr: Color;
		meta: Color;
		default: Color;
	};
	inspector: { label: Color; value: Color; barFill: Color; barEmpty: Color };
	status: { fg: Color; bg: Color };
	selection: Color;
};

/** A theme's tokens without its name: the shape of a file in themes/. */
export type ThemeTokens = Omit<Theme, "name">;

// The built-in files are bundled (esbuild's json loader): no file is read at start-up. tsc checks their shape here.
const darkTokens: ThemeTokens = dark;
const lightTokens: ThemeTokens = light;

/** The default theme for dark terminals (a Tokyo Night palette; themes/dark.json). */
export const darkTheme: Theme = { name: "dark", ...darkTokens };

/** For light terminals (GitHub's light palette, every text colour ≥ 4.5:1 on white; themes/light.json). */
export const lightTheme: Theme = { name: "light", ...lightTokens };

/** Every token of `theme` replaced by `color(value)`, nested groups included. */
export function mapColors(theme: Theme, color: (value: Color) => Color): Theme {
	const out: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(theme)) {
		if (key === "name") out[key] = value;
		else if (typeof value === "string") out[key] = color(value);
		else out[key] = Object.fromEntries(Object.entries(value as Record<string, Color>).map(([k, v]) => [k, color(v)]));
	}
	return out as Theme;
}

/**
 * No colour at all (NO_COLOR, https://no-color.org): every token is "" so Ink adds no colour codes; bold, dim,
 * italic and inverse stay, so the status bar (inverse), diff markers (+/-) and labels remain distinguishable.
 */
export const monoTheme: Theme = { ...mapColors(darkTheme, () => ""), name: "mono" };

/** The themes built into gar, by name. */
export const BUILTIN_THEMES: Readonly<Record<string, Theme>> = { dark: darkTheme, light: lightTheme, mono: monoTheme };

/** A built-in theme by name, or undefined. */
export function builtinTheme(name: string): Theme | undefined {
	return Object.hasOwn(BUILTIN_THEMES, name) ? BUILTIN_THEMES[name] : undefined;
}
