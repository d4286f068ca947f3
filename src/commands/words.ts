/** Edit distance with adjacent transpositions ("sesions" → "sessions" is 1, "sessoins" → "sessions" is 1). */
export function editDistance(a: string, b: string): number {
	const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
	for (let j = 1; j <= b.length; j++) (rows[0] as number[])[j] = j;
	for (let i = 1; i <= a.length; i++) {
		const row = rows[i] as number[];
		const up = rows[i - 1] as number[];
		for (let j = 1; j <= b.length; j++) {
			const cost = a[i - 1] === b[j - 1] ? 0 : 1;
			let best = Math.min((up[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (up[j - 1] ?? 0) + cost);
			if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
				best = Math.min(best, ((rows[i - 2] as number[])[j - 2] ?? 0) + 1);
			}
			row[j] = best;
		}
	}
	return (rows[a.length] as number[])[b.length] ?? 0;
}

/**
 * The subcommand a first word was probably meant to be: one edit away, or two for words of five letters or more
 * (so short prompts such as "test" are not taken for "trust"). Undefined when none is that close.
 */
export function nearCommand(word: string, commands: readonly string[]): string | undefined {
	if (!/^[a-z-]+$/i.test(word)) return undefined;
	const lower = word.toLowerCase();
	const allowed = lower.length >= 5 ? 2 : 1;
	let best: { name: string; distance: number } | undefined;
	for (const name of commands) {
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
