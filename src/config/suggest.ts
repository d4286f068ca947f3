import { editDistance } from "../text/distance.js";

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
		const distance = editDistance(wanted, candidate, { swaps: false });
		if (best === undefined || distance < best.distance) best = { key: candidate, distance };
	}
	if (best === undefined) return undefined;
	const limit = Math.max(2, Math.floor(wanted.length / 3));
	if (best.distance <= limit) return best.key;
	// "timeout" for "bash_timeout": a known key that contains the typo (or the reverse) is a good guess too.
	return known.find((candidate) => wanted.length >= 4 && (candidate.includes(wanted) || wanted.includes(candidate)));
}
