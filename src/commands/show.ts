import { rewindHistory } from "../rewind/report.js";
import {
	knownBlocks,
	loadSession,
	type NodeEntry,
	resolveSession,
	type Session,
	toolCallsOf,
} from "../session/index.js";
import { sanitizeForTerminal } from "../term/sanitize.js";
import { sessionTitle } from "../view/session-name.js";
import type { SessionsContext } from "./sessions.js";

const SUMMARY_CHARS = 72;

/** One tree node as `gar show --json` prints it, in depth-first order. */
export type ShownNode = {
	id: string;
	parentId: string | null;
	type: string;
	/** Branch depth: 0 on the main line, +1 inside each branch of a branch point. */
	depth: number;
	summary: string;
	label?: string;
	/** Set on nodes with more than one child. */
	branches?: number;
	/** Set on the current leaf (where the next message goes). */
	current?: true;
};

function firstLine(text: string): string {
	const line = (text.split("\n").find((l) => l.trim() !== "") ?? "").trim();
	return line.length > SUMMARY_CHARS ? `${line.slice(0, SUMMARY_CHARS - 1)}…` : line;
}

/** What a node is, in a few words: a prompt's first line (`$ cmd` for a !cmd), a reply's text or calls, a result's tool. */
function summary(node: NodeEntry): string {
	switch (node.type) {
		case "user": {
			// A !cmd's context text explains itself first; the command is the line that starts with "$ ".
			const command = node.source === "shell" ? node.content.split("\n").find((l) => l.startsWith("$ ")) : undefined;
			return firstLine(command ?? node.content);
		}
		case "assistant": {
			const calls = toolCallsOf(node).map((call) => call.name);
			const text = knownBlocks(node.content)
				.flatMap((b) => (b.type === "text" ? [b.text] : []))
				.join("");
			const said = firstLine(text);
			if (calls.length > 0) return `${said ? `${said} · ` : ""}calls ${calls.join(", ")}`;
			return said || (node.error ? `error: ${firstLine(node.error)}` : `(${node.stopReason})`);
		}
		case "tool_result":
			return `${node.name}${node.isError ? " (error)" : ""}`;
		case "model_change":
			return `${node.provider} ${node.model}`;
		case "compaction":
			return `compacted (${node.reason}): ${node.tokensBefore} → ${node.tokensAfter} tokens`;
		default:
			return "(an entry this gar cannot read: from a newer gar, or damaged)";
	}
}

/** A node and the tree guides drawn before it (`├─ `, `│  `, `└─ `): a chain keeps its column, siblings branch. */
type Drawn = { node: ShownNode; guide: string };

/** Walks the tree depth-first (iteratively), each branch of a branch point (or of several roots) one level in. */
function walk(session: Session): Drawn[] {
	const out: Drawn[] = [];
	type Item = { node: NodeEntry; depth: number; guide: string; rest: string };
	const stack: Item[] = [];
	/** Pushes children in reverse so they pop in file order; siblings get a branch guide each. */
	const push = (children: NodeEntry[], depth: number, rest: string) => {
		const branching = children.length > 1;
		for (const [i, child] of [...children.entries()].reverse()) {
			const last = i === children.length - 1;
			const guide = branching ? `${rest}${last ? "└─ " : "├─ "}` : rest;
			const next = branching ? `${rest}${last ? "   " : "│  "}` : rest;
			stack.push({ node: child, depth: branching ? depth + 1 : depth, guide, rest: next });
		}
	};
	const roots = session.roots();
	push(roots, roots.length > 1 ? -1 : 0, "");
	for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
		const { node, depth, guide, rest } = item;
		const children = session.children(node.id);
		const label = session.labels.get(node.id);
		const shown: ShownNode = {
			id: node.id,
			parentId: node.parentId,
			type: node.type === "unknown" ? String(node.raw.type) : node.type,
			depth,
			summary: summary(node),
			...(label === undefined ? {} : { label }),
			...(children.length > 1 ? { branches: children.length } : {}),
			...(node.id === session.leafId ? { current: true as const } : {}),
		};
		out.push({ node: shown, guide });
		push(children, depth, rest);
	}
	return out;
}

/** `gar show ID` (alias `gar tree`): the tree of a session with entry ids, for --at, fork --at and label. */
export function showCommand(ctx: SessionsContext, id: string, options: { json?: boolean }): number {
	const file = resolveSession(ctx.baseDir, id, ctx.cwd).file;
	const session = loadSession(file);
	const drawn = walk(session);
	const nodes = drawn.map((d) => d.node);
	const { header } = session;
	if (options.json) {
		const name = session.name;
		const forkOf = header.parent ? { forkOf: { session: header.parent.session, entry: header.parent.entry } } : {};
		const doc = {
			id: header.id,
			file,
			cwd: header.cwd,
			...(name ? { name } : {}),
			...forkOf,
			leafId: session.leafId,
			nodes,
			...(session.rewinds.length > 0 ? { rewinds: session.rewinds } : {}),
		};
		ctx.write(`${JSON.stringify(doc, null, 2)}\n`);
		return 0;
	}
	const fork = header.parent ? ` · fork of ${header.parent.session} at ${header.parent.entry}` : "";
	const firstPrompt = session.entries.find((entry) => entry.type === "user");
	const title = sessionTitle(session.name, firstPrompt?.type === "user" ? firstPrompt.content : undefined);
	const lines = [`session ${header.id}${title ? ` "${title}"` : ""} · ${header.cwd}${fork}`, file];
	for (const w of session.warnings) process.stderr.write(sanitizeForTerminal(`gar: warning: ${w}\n`));
	const width = Math.max(...nodes.map((n) => n.type.length), 4);
	for (const { node, guide } of drawn) {
		const marks = [
			node.label === undefined ? "" : `[${node.label}]`,
			node.branches ? `${node.branches} branches` : "",
			node.current ? "← current leaf" : "",
		].filter(Boolean);
		const text = `${node.summary}${marks.length > 0 ? `  ${marks.join("  ")}` : ""}`;
		const row = `${guide}${node.id}  ${node.type.padEnd(width)}  ${text}`;
		lines.push(row.replace(/[\t\r\n]+/g, " "));
	}
	if (nodes.length === 0) lines.push("(no entries yet)");
	const rewinds = rewindHistory(session);
	if (rewinds.length > 0) lines.push("", "rewinds:", ...rewinds.map((line) => `  ${line}`));
	ctx.write(`${sanitizeForTerminal(lines.join("\n"))}\n`);
	return 0;
}
