import type { Session } from "../../session/index.js";
import { type BuiltTree, buildTree, type Segment, type TreeRow } from "./tree-build.js";
import { rowMatches, rowSummary } from "./tree-text.js";

export type { TreeRow } from "./tree-build.js";

/** Which rows the tree shows: every row, the user prompts only, or the labelled ones only. */
export type TreeFilter = "all" | "prompts" | "labelled";
export const TREE_FILTERS: readonly TreeFilter[] = ["all", "prompts", "labelled"];

/** A segment as laid out now: the rows it shows (one when folded) and where the first one is among all shown. */
type Shown = { segment: Segment; rows: readonly TreeRow[]; start: number; folded: boolean };

/** One row as the screen draws it. */
export type RowView = {
	row: TreeRow;
	/** The tree guides before it. */
	guide: string;
	/** Its one line (not yet sanitized or cut to the width). */
	text: string;
	/** On the path from the root to the current leaf. */
	onPath: boolean;
	/** Holds the current leaf. */
	leaf: boolean;
	labels: string[];
	/** Set on a branch point's row: the number of branches after it. */
	branches?: number;
	/** Set on a folded branch's row: the rows hidden under it. */
	hidden?: number;
};

/**
 * The tree screen's state, outside React: the session as segments (tree-build.ts), which are folded, the filter, the
 * selected row and the first row on screen. The rows shown are laid out per segment, never per row: moving is
 * O(1), a row is found in O(log segments), and folding or switching the filter costs O(segments shown) — a
 * 10,000-entry session with a few branches has a few dozen. Only the rows on screen get their text (cached).
 */
export class TreeModel {
	private built: BuiltTree;
	private entries: number;
	private filterName: TreeFilter = "all";
	private readonly folded = new Set<string>();
	private shown: Shown[] = [];
	private readonly shownAt = new Map<Segment, number>();
	private total = 0;
	private readonly texts = new WeakMap<TreeRow, string>();
	/** The entry selected when a filter showed nothing: the next filter selects it again. */
	private kept: TreeRow | undefined;
	/** The selected row, an index into the rows shown. */
	cursor = 0;
	/** The first row on screen; -1 until the first frame centres the current leaf. */
	top = -1;

	constructor(private session: Session) {
		this.built = buildTree(session);
		this.entries = session.entries.length;
		this.layout();
		this.focusLeaf();
	}

	/** Selects the current leaf's row (or the nearest shown), centred in the next window. */
	focusLeaf(): void {
		const leaf = this.built.leaf === null ? undefined : this.built.rowOf.get(this.built.leaf);
		this.cursor = leaf ? this.nearestIndex(leaf) : Math.max(0, this.total - 1);
		this.top = -1;
	}

	/**
	 * Rebuilds after the session changed (an entry appended, the leaf moved, a label set): the folds, the filter and
	 * the selected entry stay. O(entries), once per change; a no-op otherwise.
	 */
	sync(session: Session): void {
		if (session === this.session && session.entries.length === this.entries) return;
		const selected = this.selected?.nodes[0]?.id;
		this.session = session;
		this.built = buildTree(session);
		this.entries = session.entries.length;
		this.layout();
		const row = selected === undefined ? undefined : this.built.rowOf.get(selected);
		this.cursor = row ? this.nearestIndex(row) : Math.min(this.cursor, Math.max(0, this.total - 1));
	}

	/** Rows shown (under the filter and the folds). */
	get count(): number {
		return this.total;
	}

	/** Tree nodes in the session, and those with more than one child. */
	get size(): { entries: number; branchPoints: number } {
		return { entries: this.built.rowOf.size, branchPoints: this.built.branchPoints };
	}

	get filter(): TreeFilter {
		return this.filterName;
	}

	get selected(): TreeRow | undefined {
		return this.rowAt(this.cursor);
	}

	/** The row shown at `index`: O(log segments shown). */
	rowAt(index: number): TreeRow | undefined {
		const at = this.shownFor(index);
		return at?.rows[index - at.start];
	}

	/** The rows on screen for a window `height` rows tall, scrolled so the selected row is in it. */
	window(height: number): RowView[] {
		const rows = Math.max(1, height);
		if (this.top < 0) this.top = Math.max(0, this.cursor - Math.floor(rows / 2));
		if (this.cursor < this.top) this.top = this.cursor;
		if (this.cursor >= this.top + rows) this.top = this.cursor - rows + 1;
		this.top = Math.max(0, Math.min(this.top, this.total - rows));
		const out: RowView[] = [];
		for (let i = this.top; i < Math.min(this.total, this.top + rows); i++) {
			const at = this.shownFor(i) as Shown;
			out.push(this.viewOf(at, i - at.start));
		}
		return out;
	}

	move(delta: number): void {
		this.cursor = Math.max(0, Math.min(this.total - 1, this.cursor + delta));
	}

	toEdge(end: boolean): void {
		this.cursor = end ? Math.max(0, this.total - 1) : 0;
	}

	/**
	 * ←: folds the selected row's branch to its first row (its branches hidden too); on a folded or unfoldable one,
	 * selects the branch point above it instead. False when there is nothing to do.
	 */
	fold(): boolean {
		const row = this.selected;
		if (!row) return false;
		const shown = this.shown[this.shownAt.get(row.segment) ?? -1];
		const foldable = shown && !shown.folded && (shown.rows.length > 1 || row.segment.children.length > 0);
		if (foldable) {
			this.folded.add(row.segment.id);
			this.layout();
			this.cursor = this.nearestIndex(row.segment.rows[0] as TreeRow);
			return true;
		}
		const parent = row.segment.parent;
		if (!parent) return false;
		this.cursor = this.nearestIndex(parent.rows.at(-1) as TreeRow);
		return true;
	}

	/** →: unfolds the selected branch; on a branch point, selects its first branch. False when there is nothing to do. */
	unfold(): boolean {
		const row = this.selected;
		if (!row) return false;
		if (this.folded.delete(row.segment.id)) {
			this.layout();
			this.cursor = this.nearestIndex(row);
			return true;
		}
		const at = this.shown[this.shownAt.get(row.segment) ?? -1];
		const first = row.segment.children[0];
		if (!at || !first || at.rows.at(-1) !== row) return false;
		this.cursor = this.nearestIndex(first.rows[0] as TreeRow);
		return true;
	}

	/** Tab / Shift+Tab: the next (`dir` 1) or previous (-1) branch point's row. False when there is none that way. */
	jumpBranch(dir: 1 | -1): boolean {
		const from = this.shownAt.get(this.selected?.segment as Segment) ?? 0;
		for (let i = from; i >= 0 && i < this.shown.length; i += dir) {
			const at = this.shown[i] as Shown;
			if (at.folded || at.rows.length === 0 || at.segment.children.length < 2) continue;
			const index = at.start + at.rows.length - 1;
			if (dir > 0 ? index > this.cursor : index < this.cursor) {
				this.cursor = index;
				return true;
			}
		}
		return false;
	}

	/** Switches to the next filter; the selection stays on its entry, or the nearest row the filter shows. */
	cycleFilter(): TreeFilter {
		const row = this.selected ?? this.kept;
		this.kept = row;
		this.filterName = TREE_FILTERS[(TREE_FILTERS.indexOf(this.filterName) + 1) % TREE_FILTERS.length] as TreeFilter;
		this.layout();
		this.cursor = row ? this.nearestIndex(row) : 0;
		return this.filterName;
	}

	/**
	 * Selects the next (`dir` 1) or previous row the filter shows that holds `query` (any case), after the selected
	 * one and wrapping around, unfolding what hides it. O(entries) at worst, once per search. False when none does.
	 */
	search(query: string, dir: 1 | -1): boolean {
		const wanted = query.trim().toLowerCase();
		const { rows } = this.built;
		if (wanted === "" || rows.length === 0) return false;
		const from = this.selected?.seq ?? (dir > 0 ? -1 : 0);
		for (let step = 1; step <= rows.length; step++) {
			const row = rows[(((from + dir * step) % rows.length) + rows.length) % rows.length] as TreeRow;
			if (this.passes(row) && rowMatches(row, wanted)) {
				this.reveal(row);
				return true;
			}
		}
		return false;
	}

	/** Shows `row` (unfolding its branch and those above it) and selects it. */
	private reveal(row: TreeRow): void {
		for (let segment: Segment | null = row.segment; segment; segment = segment.parent) {
			if (segment !== row.segment || row.index > 0) this.folded.delete(segment.id);
		}
		this.layout();
		this.cursor = this.nearestIndex(row);
	}

	private passes(row: TreeRow): boolean {
		if (this.filterName === "prompts") return row.kind === "prompt";
		if (this.filterName === "labelled") return row.nodes.some((node) => this.session.labels.has(node.id));
		return true;
	}

	private rowsFor(segment: Segment): readonly TreeRow[] {
		if (this.filterName === "prompts") return segment.prompts;
		if (this.filterName === "labelled") return segment.labelled;
		return segment.rows;
	}

	/** Lays out the segments shown, depth first: O(segments shown). A folded segment shows its first row only. */
	private layout(): void {
		this.shown = [];
		this.shownAt.clear();
		let start = 0;
		const stack = [...this.built.roots].reverse();
		for (let segment = stack.pop(); segment !== undefined; segment = stack.pop()) {
			const rows = this.rowsFor(segment);
			// A segment the filter leaves empty cannot show that it is folded: its branches stay in sight.
			const folded = this.folded.has(segment.id) && rows.length > 0;
			this.shownAt.set(segment, this.shown.length);
			this.shown.push({ segment, rows: folded ? rows.slice(0, 1) : rows, start, folded });
			start += folded ? 1 : rows.length;
			if (!folded) for (let i = segment.children.length - 1; i >= 0; i--) stack.push(segment.children[i] as Segment);
		}
		this.total = start;
	}

	/** The segment shown that holds row `index`: the last whose start is at or before it (binary search). */
	private shownFor(index: number): Shown | undefined {
		if (index < 0 || index >= this.total) return undefined;
		let lo = 0;
		let hi = this.shown.length - 1;
		while (lo < hi) {
			const mid = (lo + hi + 1) >> 1;
			if ((this.shown[mid] as Shown).start <= index) lo = mid;
			else hi = mid - 1;
		}
		return this.shown[lo];
	}

	/**
	 * Where `row` is shown, or the nearest row that is: its folded branch's first row, or (filtered out) the row the
	 * filter shows before it in its segment, else its segment's first shown row.
	 */
	private nearestIndex(row: TreeRow): number {
		let segment: Segment | null = row.segment;
		while (segment && !this.shownAt.has(segment)) segment = segment.parent;
		const at = segment ? this.shown[this.shownAt.get(segment) as number] : undefined;
		if (!at) return 0;
		let index = at.start;
		if (segment === row.segment) {
			// Rows are in segment order: the last one at or before `row`.
			for (let lo = 0, hi = at.rows.length - 1; lo <= hi; ) {
				const mid = (lo + hi) >> 1;
				if ((at.rows[mid] as TreeRow).index <= row.index) {
					index = at.start + mid;
					lo = mid + 1;
				} else hi = mid - 1;
			}
		}
		return Math.min(index, Math.max(0, this.total - 1));
	}

	private viewOf(at: Shown, offset: number): RowView {
		const row = at.rows[offset] as TreeRow;
		let text = this.texts.get(row);
		if (text === undefined) {
			text = rowSummary(row);
			this.texts.set(row, text);
		}
		const { segment } = row;
		const labels = row.nodes.flatMap((node) => this.session.labels.get(node.id) ?? []);
		const last = offset === at.rows.length - 1;
		const { leaf, path } = this.built;
		return {
			row,
			guide: offset === 0 ? segment.guide : segment.rest,
			text,
			onPath: path.has(row.nodes[0]?.id ?? ""),
			leaf: leaf !== null && row.nodes.some((node) => node.id === leaf),
			labels,
			...(last && !at.folded && segment.children.length > 1 ? { branches: segment.children.length } : {}),
			...(at.folded ? { hidden: segment.size - 1 } : {}),
		};
	}
}

/** Each session's tree model, kept while the session is: opening the tree again costs no rebuild. */
const models = new WeakMap<Session, TreeModel>();

/**
 * The tree model of `session`, brought up to date with it (a rebuild only after it changed). The app builds it once
 * while idle after start-up, so the first /tree does not pay for a 10,000-entry session's first build.
 */
export function treeModelOf(session: Session): TreeModel {
	let model = models.get(session);
	if (model) model.sync(session);
	else {
		model = new TreeModel(session);
		models.set(session, model);
	}
	return model;
}
