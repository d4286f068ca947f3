// The numbers every bench takes of its samples, and the quoting of the commands they launch.

/** The middle value (the upper one of an even count); NaN for none. */
export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** The nearest-rank percentile. */
export function percentile(values: number[], p: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** One word quoted for sh, and for tmux's command parser, which reads quotes the same way. */
export const shellQuote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;
