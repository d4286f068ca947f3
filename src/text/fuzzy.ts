import uFuzzy from "@leeoniya/ufuzzy";

/** A match: the row and the text of it that matched the query's first word best. */
export type FuzzyHit<T> = { row: T; text: string };

/**
 * The letters of a word: Latin (with accents), Greek, Cyrillic, Hebrew, Arabic, kana, CJK and Hangul. Named as ranges
 * rather than with the regular expressions' /u flag and \p{L}, which makes uFuzzy's expressions ten times slower.
 */
const ALPHA =
	"a-z\\u00c0-\\u024f\\u0370-\\u03ff\\u0400-\\u04ff\\u0590-\\u06ff\\u3040-\\u30ff\\u3400-\\u9fff\\uac00-\\ud7af";

/**
 * The matcher: a word's letters in order, case-insensitive, at most two other letters between two of them
 * ("parsr" finds "parser", "tokenzr" "tokenizer"; a short word is not found scattered over a long prompt).
 */
const matcher = () => new uFuzzy({ alpha: ALPHA, intraMode: 0, intraIns: 2 });

/** Text compared without accents ("arger" finds "Ärger"). */
const plain = (text: string): string => uFuzzy.latinize(text);

/**
 * Fuzzy search over rows that each have several texts (a session's name, labels and prompts), with uFuzzy
 * (@leeoniya/ufuzzy: one regular expression per word over all the texts, about 10 ms for 40,000 prompts). The words of a
 * query must all match, each in some text of the row; rows where the rarest word is found as written come first,
 * then those where it is found fuzzily (then by the next rarest word), ties in the order given (newest first). A word that extends the same word of the last query (a key typed after
 * it) is searched only among the texts that word matched.
 */
export class FuzzyRows<T> {
	private readonly uf = matcher();
	private haystack: string[] | undefined;
	private owner: number[] = [];
	/** The texts as given (the haystack has them without accents). */
	private shown: string[] = [];
	/** The last query's words and the texts each matched. */
	private last: { word: string; items: number[] }[] = [];

	constructor(
		private readonly rows: readonly T[],
		private readonly texts: (row: T) => readonly string[],
	) {}

	/** Gathers the texts now (the first search would): a caller may do it before anyone types. */
	prepare(): string[] {
		if (!this.haystack) {
			const haystack: string[] = [];
			for (const [index, row] of this.rows.entries()) {
				for (const text of this.texts(row)) {
					haystack.push(plain(text));
					this.shown.push(text);
					this.owner.push(index);
				}
			}
			this.haystack = haystack;
		}
		return this.haystack;
	}

	/** The rows matching `query`, best first; every row, in order, for a blank query. */
	find(query: string): FuzzyHit<T>[] {
		const words = plain(query).trim().split(/\s+/).filter(Boolean);
		if (words.length === 0) return this.rows.map((row) => ({ row, text: "" }));
		const haystack = this.prepare();
		const found = new Map<number, { ranks: number[]; text: string }>();
		const matched: { word: string; items: number[] }[] = [];
		for (const [w, word] of words.entries()) {
			const items = this.search(haystack, word, this.last[w]);
			matched.push({ word, items });
			for (const [row, best] of this.bestPerRow(haystack, word, items)) {
				const sofar = found.get(row);
				if (w === 0) found.set(row, { ranks: [best.rank], text: best.text });
				else if (sofar?.ranks.length === w) sofar.ranks.push(best.rank);
			}
		}
		this.last = matched;
		// The word that matched fewest texts says most: rows compare by its rank first, then the next rarest word's.
		const byRarity = matched.map((m, w) => ({ w, n: m.items.length })).sort((a, b) => a.n - b.n);
		const compare = (x: number[], y: number[]) => {
			for (const { w } of byRarity) if ((x[w] ?? 0) !== (y[w] ?? 0)) return (x[w] ?? 0) - (y[w] ?? 0);
			return 0;
		};
		return [...found]
			.filter(([, f]) => f.ranks.length === words.length)
			.sort(([a, x], [b, y]) => compare(x.ranks, y.ranks) || a - b)
			.map(([row, f]) => ({ row: this.rows[row] as T, text: f.text }));
	}

	/** The texts `word` matches: among those the same word of the last query matched when this one extends it. */
	private search(haystack: string[], word: string, before: { word: string; items: number[] } | undefined): number[] {
		const within = before && word.startsWith(before.word) ? before.items : undefined;
		return this.uf.filter(haystack, word, within) ?? [];
	}

	/**
	 * Each row's best text among `items`, ranked 0 where the word is in it as written (case aside), 1 where only its
	 * letters are (a text's exact match beats a fuzzy one). uFuzzy's own ranking costs a regular expression per text.
	 */
	private bestPerRow(haystack: string[], word: string, items: number[]): Map<number, { rank: number; text: string }> {
		const lower = word.toLowerCase();
		const best = new Map<number, { rank: number; text: string }>();
		for (const item of items) {
			const row = this.owner[item] as number;
			const rank = (haystack[item] ?? "").toLowerCase().includes(lower) ? 0 : 1;
			const sofar = best.get(row);
			if (!sofar || rank < sofar.rank) best.set(row, { rank, text: this.shown[item] ?? "" });
		}
		return best;
	}
}
