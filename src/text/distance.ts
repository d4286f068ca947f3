/**
 * Edit distance between two strings: each insertion, deletion or substitution costs 1, and so does swapping two
 * adjacent characters ("sessoins" → "sessions" is 1), unless `swaps: false` counts a swap as two substitutions.
 */
export function editDistance(a: string, b: string, { swaps = true }: { swaps?: boolean } = {}): number {
	let twoBack: number[] = [];
	let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
	for (let i = 1; i <= a.length; i++) {
		const current = [i];
		for (let j = 1; j <= b.length; j++) {
			const cost = a[i - 1] === b[j - 1] ? 0 : 1;
			let best = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
			if (swaps && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
				best = Math.min(best, (twoBack[j - 2] ?? 0) + 1);
			}
			current[j] = best;
		}
		twoBack = previous;
		previous = current;
	}
	return previous[b.length] ?? 0;
}
