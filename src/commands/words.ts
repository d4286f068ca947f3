import { editDistance } from "../text/distance.js";

/**
 * The subcommand a first word was probably meant to be: one edit away, or two for words of five letters or more
 * (so short prompts such as "test" are not taken for "trust"). A command of three letters (acp, mcp) is never a
 * guess: one edit from it is an everyday word ("app", "act", "map"). Undefined when none is that close.
 */
export function nearCommand(word: string, commands: readonly string[]): string | undefined {
	if (!/^[a-z-]+$/i.test(word)) return undefined;
	const lower = word.toLowerCase();
	const allowed = lower.length >= 5 ? 2 : 1;
	let best: { name: string; distance: number } | undefined;
	for (const name of commands) {
		if (name.length < 4) continue;
		const distance = editDistance(lower, name);
		if (distance > 0 && distance <= allowed && (!best || distance < best.distance)) best = { name, distance };
	}
	return best?.name;
}

/** How the root command's options read argv: which take a value, which is -p. */
export type OptionShape = { takesValue: (flag: string) => boolean };

/** How argv is to be read: see promptIntent. */
export type Intent = { literal: boolean; forcePrompt: boolean; first?: string };

/**
 * Where the prompt starts in argv, if the words there must be read as the prompt even when they spell a subcommand:
 * after `--`, or after -p/--print. Returns { literal } (the person wrote `--`), { forcePrompt }, and the first word
 * that is not an option (the command, or the prompt's first word) when it comes before any `--`.
 */
export function promptIntent(argv: readonly string[], shape: OptionShape): Intent {
	let print = false;
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i] ?? "";
		if (arg === "--") return { literal: true, forcePrompt: true };
		if (arg === "-p" || arg === "--print") {
			print = true;
			continue;
		}
		if (arg.startsWith("-") && arg.length > 1) {
			if (!arg.includes("=") && shape.takesValue(arg)) i++;
			continue;
		}
		return { literal: argv.includes("--"), forcePrompt: print, first: arg };
	}
	return { literal: false, forcePrompt: print };
}

/** The error for a first word that is probably a misspelt command (`meant`), saying how to send it as a prompt. */
export function typoMessage(word: string, meant: string): string {
	return `did you mean \`gar ${meant}\`? To send "${word}" to the model, quote it with other words or use \`gar -- ${word}\``;
}
