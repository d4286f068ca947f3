import {
	isConversation,
	isNode,
	type NodeEntry,
	type RewindEntry,
	type SessionEntry,
	SessionError,
	type SessionHeader,
} from "./format.js";

/** What `Session.add` did with an entry. */
export type AddResult = "ok" | "duplicate" | "orphan" | "bad_target";

/**
 * A session in memory: its entries in file order, indexed as a tree. Nodes are conversation entries (and unknown
 * ones without `meta`); metadata entries (label, name, leaf, and records such as request and run) annotate nodes
 * and move the leaf but are never part of a path.
 *
 * The leaf is computed by applying entries in file order: a conversation entry becomes the leaf; a `leaf` record
 * moves it to its target. So the leaf is the target of the last leaf record when that record comes after the last
 * conversation entry, else the last conversation entry (which, appended after a leaf record, is its child).
 */
export class Session {
	/** Problems met while loading (skipped lines, orphans); empty for a clean file. */
	readonly warnings: string[] = [];
	/** Lines of the file that could not be read as entries (the loader skipped them), in file order. */
	readonly skippedLines: number[] = [];
	/** Nodes made roots because their parent was missing, with the parent id they named. */
	readonly orphans = new Map<string, string>();
	private readonly list: SessionEntry[] = [];
	private readonly byId = new Map<string, SessionEntry>();
	private readonly childIds = new Map<string | null, string[]>();
	private readonly labelMap = new Map<string, string>();
	private sessionName: string | undefined;
	private readonly started = new Set<string>();
	private readonly rewindList: RewindEntry[] = [];
	private leaf: string | null = null;

	constructor(
		readonly file: string,
		readonly header: SessionHeader,
	) {}

	/** Every valid entry, in file order. */
	get entries(): readonly SessionEntry[] {
		return this.list;
	}

	/** The current leaf: where the next conversation entry will hang (null: it will be a new root). */
	get leafId(): string | null {
		return this.leaf;
	}

	/** The latest `name` entry's name. */
	get name(): string | undefined {
		return this.sessionName;
	}

	/** Ids of tool calls whose start was recorded (a `tool_start` record). */
	get startedCalls(): ReadonlySet<string> {
		return this.started;
	}

	/** The rewind records (started and done), in file order. */
	get rewinds(): readonly RewindEntry[] {
		return this.rewindList;
	}

	/** Current labels by entry id (a `label` entry with `label: null` removed its target's label). */
	get labels(): ReadonlyMap<string, string> {
		return this.labelMap;
	}

	get(id: string): SessionEntry | undefined {
		return this.byId.get(id);
	}

	/** The tree node with this id; undefined for metadata entries and unknown ids. */
	node(id: string): NodeEntry | undefined {
		const entry = this.byId.get(id);
		return entry && isNode(entry) ? entry : undefined;
	}

	/**
	 * In memory only (the loader and the writer call it). A node whose parent is not an earlier node becomes a
	 * root ("orphan": its in-memory parentId is set to null); a duplicate id is ignored.
	 */
	add(entry: SessionEntry): AddResult {
		if (this.byId.has(entry.id)) return "duplicate";
		let result: AddResult = "ok";
		// Checked before the entry is indexed, so an entry naming itself as its parent becomes a root, not a cycle.
		if (isNode(entry) && entry.parentId !== null && !this.node(entry.parentId)) {
			this.orphans.set(entry.id, entry.parentId);
			entry.parentId = null;
			result = "orphan";
		}
		this.byId.set(entry.id, entry);
		this.list.push(entry);
		if (isNode(entry)) {
			const siblings = this.childIds.get(entry.parentId);
			if (siblings) siblings.push(entry.id);
			else this.childIds.set(entry.parentId, [entry.id]);
			if (isConversation(entry)) this.leaf = entry.id;
			return result;
		}
		switch (entry.type) {
			case "leaf":
				if (entry.target !== null && !this.node(entry.target)) return "bad_target";
				this.leaf = entry.target;
				break;
			case "label":
				if (entry.label === null) this.labelMap.delete(entry.target);
				else this.labelMap.set(entry.target, entry.label);
				break;
			case "name":
				this.sessionName = entry.name;
				break;
			case "tool_start":
				this.started.add(entry.callId);
				break;
			case "rewind":
				this.rewindList.push(entry);
				break;
		}
		return result;
	}

	/** Children of a node in file order; `null` gives the roots. */
	children(id: string | null): NodeEntry[] {
		const ids = this.childIds.get(id) ?? [];
		return ids.map((childId) => this.node(childId)).filter((n): n is NodeEntry => n !== undefined);
	}

	roots(): NodeEntry[] {
		return this.children(null);
	}

	/** The nodes from the root to `id`, root first; `null` gives an empty path. Throws for an unknown node. */
	pathTo(id: string | null): NodeEntry[] {
		const path: NodeEntry[] = [];
		let cursor = id;
		while (cursor !== null) {
			const node = this.node(cursor);
			if (!node) throw new SessionError(`no entry ${cursor} in ${this.file}`, "not_found");
			path.push(node);
			cursor = node.parentId;
		}
		return path.reverse();
	}

	/** Nodes without children (the ends of all branches), in file order. */
	leaves(): NodeEntry[] {
		return this.nodes().filter((n) => !this.childIds.has(n.id));
	}

	/** Nodes with more than one child: where the conversation branched. */
	branchPoints(): NodeEntry[] {
		return this.nodes().filter((n) => (this.childIds.get(n.id)?.length ?? 0) > 1);
	}

	private nodes(): NodeEntry[] {
		return this.list.filter(isNode);
	}
}
