import { type Background, colorFgBgHint, noColor } from "../terminal/background.js";
import { builtinTheme, darkTheme, lightTheme, monoTheme, type Theme } from "./theme.js";

/**
 * The theme of the first frame. `--theme NAME` wins (a user theme loads its file; a bad one gives dark and a
 * warning); else NO_COLOR gives `mono`; else the terminal's background decides (OSC 11, then COLORFGBG), else dark.
 * `[tui] theme` is applied once the config is loaded (connect.ts), after the first frame. Never rejects.
 */
export async function startTheme(
	flag: string | undefined,
	env: NodeJS.ProcessEnv,
	/** The terminal's answer to the query cli.ts started before the app loaded (earlyTerminal), if asked. */
	asked?: Promise<Background | undefined>,
): Promise<{ theme: Theme; warning?: string }> {
	if (flag) {
		const builtin = builtinTheme(flag);
		if (builtin) return { theme: builtin };
		const { loadTheme, userConfigDir } = await import("./themes.js");
		return loadTheme(flag, { configDir: userConfigDir(env) });
	}
	if (noColor(env)) return { theme: monoTheme };
	const background = (await asked) ?? colorFgBgHint(env);
	return { theme: background === "light" ? lightTheme : darkTheme };
}

/** The theme `[tui] theme` names, loaded after the config (undefined: keep the start-up one). */
export async function configuredTheme(
	flag: string | undefined,
	configured: string,
	env: NodeJS.ProcessEnv,
): Promise<{ theme: Theme; warning?: string } | undefined> {
	if (flag || configured === "auto") return undefined;
	const { loadTheme, userConfigDir } = await import("./themes.js");
	return loadTheme(configured, { configDir: userConfigDir(env) });
}
