import type { NodeEntry, Session } from "../../session/index.js";

// Types only from session/: the tree screen is drawn by the app's first-frame bundle, which never loads session/'s
// code (zod); the Session object it reads is the conversation's own, already in memory.

/** What a row of the tree stands for. */
export type RowKind = "prompt" | "reply" | "compaction" | "model" | "other";

/**
 * One row of the session tree: a user prompt, a reply (the model's steps and the tool results up to the next prompt,
 * branch point or the current leaf, as one line), a compaction, a model change, or an entry this gar cannot read.
 */
export type TreeRow = {
	kind: RowKind;
	/** The entries it stands for, in path order; what Enter, l and f act on is the last one. */
	nodes: readonly NodeEntry[];
	segment: Segment;
	/** Its index in `segment.rows`. */
	index: number;
	/** Its index in the whole tree, depth first (what search walks). */
	seq: number;
};

/**
 * A chain of the tree: from a branch (or a root) down to the next branch point or the end of a branch. Its rows
 * keep one column; its children are the branches after its last entry (none, or two or more).
 */
export type Segment = {
	/** Its first entry's id: what folding remembers it by across rebuilds. */
	id: string;
	rows: TreeRow[];
	parent: Segment | null;
	children: Segment[];
	/** The tree guides before its first row ("├─ ", "└─ ") and before its other rows ("│  "). */
	guide: string;
	rest: string;
	/** Rows of its own and of every branch below it. */
	size: number;
	/** Its rows that are user prompts, and those with a label (the filters). */
	prompts: TreeRow[];
	labelled: TreeRow[];
};

/** The session as segments, built in one pass over its tree. */
export type BuiltTree = {
	/** The top segments: one root, or several when the session has several roots (each drawn as a branch). */
	roots: Segment[];
	/** Every segment, depth first. */
	segments: Segment[];
	/** Every row, depth first (`row.seq` is its index). */
	rows: TreeRow[];
	/** The row each node is in. */
	rowOf: Map<string, TreeRow>;
	/** Ids on the path from the root to the current leaf. */
	path: Set<string>;
	leaf: string | null;
	/** Nodes with more than one child. */
	branchPoints: number;
};

const isReplyStep = (node: NodeEntry) => node.type === "assistant" || node.type === "tool_result";

function kindOf(node: NodeEntry): RowKind {
	switch (node.type) {
		case "user":
			return "prompt";
		case "assistant":
		case "tool_result":
			return "reply";
		case "compaction":
			return "compaction";
		case "model_change":
			return "model";
		default:
			return "other";
	}
}

/** The rows of one chain: a reply's steps join into one row, which ends at the current leaf. */
function chainRows(segment: Segment, chain: readonly NodeEntry[], leaf: string | null, built: BuiltTree): void {
	let open: { nodes: NodeEntry[] } | null = null;
	for (const node of chain) {
		let row: TreeRow;
		const last = open?.nodes.at(-1);
		if (open && isReplyStep(node) && last && last.id !== leaf) {
			open.nodes.push(node);
			row = segment.rows.at(-1) as TreeRow;
		} else {
			const nodes = [node];
			row = { kind: kindOf(node), nodes, segment, index: segment.rows.length, seq: built.rows.length };
			segment.rows.push(row);
			built.rows.push(row);
			open = isReplyStep(node) ? { nodes } : null;
		}
		built.rowOf.set(node.id, row);
	}
}

/** Follows single children from `start`: the chain up to a branch point or a branch's end, and what comes after. */
function chainFrom(session: Session, start: NodeEntry): { chain: NodeEntry[]; after: NodeEntry[] } {
	const chain: NodeEntry[] = [];
	let node = start;
	for (;;) {
		chain.push(node);
		const children = session.children(node.id);
		if (children.length !== 1) return { chain, after: children };
		node = children[0] as NodeEntry;
	}
}

function labelledRows(rows: readonly TreeRow[], labels: ReadonlyMap<string, string>): TreeRow[] {
	return rows.filter((row) => row.nodes.some((node) => labels.has(node.id)));
}

/**
 * Builds the tree of `session` as segments and rows: O(entries), once per change of the session (never per key).
 * Iterative, so a 10,000-entry chain cannot overflow the stack.
 */
export function buildTree(session: Session): BuiltTree {
	const leaf = session.leafId;
	const built: BuiltTree = {
		roots: [],
		segments: [],
		rows: [],
		rowOf: new Map(),
		path: new Set(),
		leaf,
		branchPoints: 0,
	};
	type Pending = { node: NodeEntry; parent: Segment | null; guide: string; rest: string };
	const stack: Pending[] = [];
	/** Branches in reverse, so they pop in file order; each gets a guide of its own. */
	const push = (children: readonly NodeEntry[], parent: Segment | null, rest: string) => {
		const branching = children.length > 1;
		for (let i = children.length - 1; i >= 0; i--) {
			const last = i === children.length - 1;
			const guide = branching ? `${rest}${last ? "└─ " : "├─ "}` : rest;
			const next = branching ? `${rest}${last ? "   " : "│  "}` : rest;
			stack.push({ node: children[i] as NodeEntry, parent, guide, rest: next });
		}
	};
	push(session.roots(), null, "");
	for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
		const { chain, after } = chainFrom(session, item.node);
		const segment: Segment = {
			id: item.node.id,
			rows: [],
			parent: item.parent,
			children: [],
			guide: item.guide,
			rest: item.rest,
			size: 0,
			prompts: [],
			labelled: [],
		};
		if (item.parent) item.parent.children.push(segment);
		else built.roots.push(segment);
		built.segments.push(segment);
		chainRows(segment, chain, leaf, built);
		segment.prompts = segment.rows.filter((row) => row.kind === "prompt");
		segment.labelled = labelledRows(segment.rows, session.labels);
		if (after.length > 1) built.branchPoints++;
		push(after, segment, item.rest);
	}
	// Sizes bottom up: a child segment always comes after its parent in depth-first order.
	for (let i = built.segments.length - 1; i >= 0; i--) {
		const segment = built.segments[i] as Segment;
		segment.size += segment.rows.length;
		if (segment.parent) segment.parent.size += segment.size;
	}
	for (let id = leaf; id !== null; id = session.node(id)?.parentId ?? null) built.path.add(id);
	return built;
}
