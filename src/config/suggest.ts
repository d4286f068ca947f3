/** Edit distance between two strings (insertions, deletions, substitutions). */
export function levenshtein(a: string, b: string): number {
	let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
	for (let i = 1; i <= a.length; i++) {
		const current = [i];
		for (let j = 1; j <= b.length; j++) {
			const cost = a[i - 1] === b[j - 1] ? 0 : 1;
			current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
		}
		previous = current;
	}
	return previous[b.length] ?? 0;
}

/** `maxTurns` / `Max-Turns` → `max_turns`, so camelCase and case slips still find their key. */
function normalize(key: string): string {
	return key
		.replace(/([a-z0-9])([A-Z])/g, "$1_$2")
		.replace(/-/g, "_")
		.toLowerCase();
}

/** The known key closest to `key`, or undefined when none is plausibly what was meant. */
export function closestKey(key: string, known: readonly string[]): string | undefined {
	const wanted = normalize(key);
	let best: { key: string; distance: number } | undefined;
	for (const candidate of known) {
		const distance = levenshtein(wanted, candidate);
		if (best === undefined || distance < best.distance) best = { key: candidate, distance };
	}
	if (best === undefined) return undefined;
	const limit = Math.max(2, Math.floor(wanted.length / 3));
	if (best.distance <= limit) return best.key;
	// "timeout" for "bash_timeout": a known key that contains the typo (or the reverse) is a good guess too.
	return known.find((candidate) => wanted.length >= 4 && (candidate.includes(wanted) || wanted.includes(candidate)));
}
