import { Fzf } from "fzf";

type Item = { row: number; text: string };

/** A match: the row and the text of it that matched the query's first word best. */
export type FuzzyHit<T> = { row: T; text: string };

/**
 * Whether a word's letters were found close together: at most three columns per letter (and two more) from the
 * first to the last. fzf finds a short word's letters scattered over any long prompt; such a match is no match.
 */
function tight(positions: ReadonlySet<number>, length: number): boolean {
	let first = Number.POSITIVE_INFINITY;
	let last = -1;
	for (const p of positions) {
		if (p < first) first = p;
		if (p > last) last = p;
	}
	return last - first + 1 <= 3 * length + 2;
}

/**
 * Fuzzy search over rows that each have several texts (a session's name, labels and prompts), with fzf's matcher and
 * scores (fzf-for-js, the v1 algorithm: linear in the text). The words of a query must all match, each in some text
 * of the row, letters in order and close together; rows come best first (the sum of each word's best score), ties in
 * the order given. The texts are prepared on the first search.
 */
export class FuzzyRows<T> {
	private fzf: Fzf<Item[]> | undefined;

	constructor(
		private readonly rows: readonly T[],
		private readonly texts: (row: T) => readonly string[],
	) {}

	/** The rows matching `query`, best first; every row, in order, for a blank query. */
	find(query: string): FuzzyHit<T>[] {
		const words = query.trim().split(/\s+/).filter(Boolean);
		if (words.length === 0) return this.rows.map((row) => ({ row, text: "" }));
		this.fzf ??= new Fzf(
			this.rows.flatMap((row, index) => this.texts(row).map((text) => ({ row: index, text }))),
			{ selector: (item: Item) => item.text, fuzzy: "v1" },
		);
		const fzf = this.fzf;
		const totals = new Map<number, { score: number; text: string; words: number }>();
		for (const [w, word] of words.entries()) {
			const best = new Map<number, { score: number; text: string }>();
			for (const hit of fzf.find(word)) {
				if (!tight(hit.positions, [...word].length)) continue;
				const { row, text } = hit.item;
				if ((best.get(row)?.score ?? -1) < hit.score) best.set(row, { score: hit.score, text });
			}
			for (const [row, { score, text }] of best) {
				const sofar = totals.get(row);
				if (w === 0) totals.set(row, { score, text, words: 1 });
				else if (sofar?.words === w) totals.set(row, { ...sofar, score: sofar.score + score, words: w + 1 });
			}
		}
		return [...totals]
			.filter(([, t]) => t.words === words.length)
			.sort(([a, x], [b, y]) => y.score - x.score || a - b)
			.map(([row, t]) => ({ row: this.rows[row] as T, text: t.text }));
	}
}
