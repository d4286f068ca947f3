import type { Session } from "../../session/index.js";
import { sessionTitle } from "../../view/session-name.js";

// What the status bar shows of the session, read on every frame: each is cached on the session object and worked
// out again only after it grew (never a walk of the whole session per frame).

/** How far the search for the first prompt got: entries looked at, and the prompt once found. */
const firstPrompts = new WeakMap<Session, { scanned: number; prompt?: string }>();
const pathLabels = new WeakMap<Session, { entries: number; label: string | undefined }>();

/** The session's name, else a name made from its first prompt (view/session-name.ts; nothing is written). */
export function titleOf(session: Session): string | undefined {
	if (session.name !== undefined) return session.name;
	let found = firstPrompts.get(session);
	if (found === undefined) {
		found = { scanned: 0 };
		firstPrompts.set(session, found);
	}
	const { entries } = session;
	for (; found.prompt === undefined && found.scanned < entries.length; found.scanned++) {
		const entry = entries[found.scanned];
		if (entry?.type === "user") found.prompt = entry.content;
	}
	return sessionTitle(undefined, found.prompt);
}

/** The label nearest the current leaf on its path (the leaf's own first); undefined when none is. */
export function pathLabel(session: Session): string | undefined {
	const cached = pathLabels.get(session);
	if (cached?.entries === session.entries.length) return cached.label;
	let label: string | undefined;
	if (session.labels.size > 0) {
		for (let id = session.leafId; id !== null && label === undefined; id = session.node(id)?.parentId ?? null) {
			label = session.labels.get(id);
		}
	}
	pathLabels.set(session, { entries: session.entries.length, label });
	return label;
}
