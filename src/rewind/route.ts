import { changesOf, type FileChangeRecord } from "../session/changes.js";
import { knownBlocks, type NodeEntry, type Session, type ToolResultEntry } from "../session/index.js";
import type { FileChange } from "../tools/file-change.js";

/** Whether a step takes a change back (the path up to the common ancestor) or makes it again (the path down). */
export type Direction = "undo" | "redo";

/** One write or edit on the way, in the order a move applies them: undone newest first, redone oldest first. */
export type Step = {
	dir: Direction;
	path: string;
	by: "write" | "edit";
	change: FileChange;
	/** The tool_result entry that recorded it. */
	entry: string;
	/** The call's arguments as the reply gave them (a redo makes the change again from them); absent if not found. */
	args?: Record<string, unknown>;
};

/** A file a bash command on the way created, changed or deleted: never restored, only reported. */
export type BashTouch = { path: string; entry: string; how: "created" | "changed" | "deleted" };

/**
 * The way between two points of the tree (null: before the first entry): the changes recorded from `from` up to the
 * common ancestor (to undo), then those from there down to `to` (to redo), and what bash did on the way.
 */
export type Route = {
	from: string | null;
	to: string | null;
	steps: Step[];
	bash: BashTouch[];
	/** Bash scans on the way that did not see the whole tree: where, and why. */
	cuts: { entry: string; note: string }[];
};

/** The arguments of every tool call in these replies, by call id. */
function callArgs(nodes: readonly NodeEntry[]): Map<string, Record<string, unknown>> {
	const args = new Map<string, Record<string, unknown>>();
	for (const node of nodes) {
		if (node.type !== "assistant") continue;
		for (const block of knownBlocks(node.content)) if (block.type === "tool_call") args.set(block.id, block.arguments);
	}
	return args;
}

/** The file changes one tool result recorded (a write or edit's, or the files a bash command changed). */
export function recordsOf(node: NodeEntry): FileChangeRecord[] {
	if (node.type !== "tool_result") return [];
	const result: ToolResultEntry = node;
	const { callId, name, isError, details, outcome } = result;
	return changesOf([{ callId, name, isError, details, ...(outcome === undefined ? {} : { outcome }) }]);
}

/**
 * The route from `from` to `to` (entry ids, or null for before the first entry). Throws SessionError (not_found)
 * for an id that is not a node of the session. O(length of the two paths).
 */
export function routeOf(session: Session, from: string | null, to: string | null): Route {
	const up = session.pathTo(from);
	const down = session.pathTo(to);
	let shared = 0;
	while (shared < up.length && shared < down.length && up[shared]?.id === down[shared]?.id) shared++;
	const args = callArgs([...up, ...down]);
	const route: Route = { from, to, steps: [], bash: [], cuts: [] };
	const visit = (node: NodeEntry, dir: Direction) => {
		const records = recordsOf(node);
		if (dir === "undo") records.reverse();
		for (const record of records) {
			if (record.by === "bash") route.bash.push({ path: record.path, entry: node.id, how: record.how ?? "changed" });
			else if (record.change) {
				const callArgs = node.type === "tool_result" ? args.get(node.callId) : undefined;
				route.steps.push({
					dir,
					path: record.path,
					by: record.by,
					change: record.change,
					entry: node.id,
					...(callArgs ? { args: callArgs } : {}),
				});
			}
		}
		const cut = cutNote(node);
		if (cut) route.cuts.push({ entry: node.id, note: cut });
	};
	for (let i = up.length - 1; i >= shared; i--) visit(up[i] as NodeEntry, "undo");
	for (let i = shared; i < down.length; i++) visit(down[i] as NodeEntry, "redo");
	return route;
}

/** A bash result's note that its scan did not see the whole tree. */
function cutNote(node: NodeEntry): string | undefined {
	if (node.type !== "tool_result" || node.name !== "bash") return undefined;
	const files = (node.details as { files?: { cut?: unknown } } | null | undefined)?.files;
	return typeof files?.cut === "string" ? files.cut : undefined;
}
