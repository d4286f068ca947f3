import type { Usage } from "../../llm/types.js";
import { replayEvents } from "../../session/replay.js";
import type { Session } from "../../session/session.js";
import { reduce } from "../../view/reducer.js";
import { type ChatItem, initialView, type Totals } from "../../view/state.js";

/** What one model call used: after each reply, an export shows the turn's tokens, cost and time. */
export type TurnFacts = {
	kind: "turn";
	turn: number;
	provider: string;
	model: string;
	usage: Usage;
	costUsd: number | null;
	durationMs: number;
};

/** One part of an exported path, in order: a chat item as the app shows it, or a turn's figures. */
export type ExportPart = { kind: "item"; item: ChatItem; summary?: string } | TurnFacts;

/** A path of a session, ready to be written as Markdown or HTML. */
export type ExportDocument = {
	title: string;
	sessionId: string;
	name: string | undefined;
	cwd: string;
	createdAt: string;
	/** The last entry of the path exported (null: an empty session). */
	leafId: string | null;
	/** Entries on the path. */
	entries: number;
	/** `provider/model` of each model that answered, in the order they first did. */
	models: string[];
	totals: Totals;
	parts: ExportPart[];
};

const TITLE_MAX = 80;

/**
 * The path to `leafId` as the app would show it: the session's recorded events (replayEvents) folded through the
 * view reducer, so an export says of each call what the chat says, with each reply's usage and cost and each
 * compaction's summary kept beside the items. O(entries).
 */
export function exportDocument(session: Session, leafId: string | null): ExportDocument {
	let view = initialView({ provider: "", model: "" });
	const order: (number | TurnFacts)[] = [];
	const summaries = new Map<number, string>();
	const models = new Set<string>();
	let seen = 0;
	const flush = () => {
		while (seen < view.items.length) order.push(seen++);
	};
	for (const { event, ts } of replayEvents(session, leafId)) {
		view = reduce(view, event, Date.parse(ts) || 0);
		if (event.type === "message_end") {
			flush();
			const { provider, model, usage } = event.message;
			models.add(`${provider}/${model}`);
			const durationMs = event.timing.durationMs;
			order.push({ kind: "turn", turn: event.turn, provider, model, usage, costUsd: event.costUsd, durationMs });
		} else if (event.type === "compaction_end" && event.ok && event.summary !== undefined) {
			summaries.set(view.items.length - 1, event.summary);
		}
	}
	flush();
	const parts = order.map((part): ExportPart => {
		if (typeof part !== "number") return part;
		const summary = summaries.get(part);
		return { kind: "item", item: view.items[part] as ChatItem, ...(summary === undefined ? {} : { summary }) };
	});
	const { header } = session;
	return {
		title: titleOf(session.name, view.items, header.id),
		sessionId: header.id,
		name: session.name,
		cwd: header.cwd,
		createdAt: header.createdAt,
		leafId,
		entries: leafId === null ? 0 : session.pathTo(leafId).length,
		models: [...models],
		totals: view.session,
		parts,
	};
}

/** The session's name, else its first prompt's first line, else its id. */
function titleOf(name: string | undefined, items: readonly ChatItem[], id: string): string {
	if (name?.trim()) return name.trim();
	const first = items.find((item) => item.kind === "user");
	const line = first?.kind === "user" ? (first.text.trim().split("\n", 1)[0] ?? "") : "";
	if (!line) return `gar session ${id}`;
	return line.length > TITLE_MAX ? `${line.slice(0, TITLE_MAX - 1)}…` : line;
}
