/** "1 line", "2 lines": `n` and `word`, with an "s" unless `n` is 1. */
export function plural(n: number, word: string): string {
	return `${n} ${word}${n === 1 ? "" : "s"}`;
}
