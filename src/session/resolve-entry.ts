import { knownBlocks } from "./context.js";
import { isNode, SessionError } from "./format.js";
import type { Session } from "./session.js";

/** A one-line description of an entry for error messages and pickers. */
function describe(session: Session, id: string): string {
	const entry = session.node(id);
	if (!entry) return id;
	const text =
		entry.type === "user"
			? entry.content
			: entry.type === "assistant"
				? knownBlocks(entry.content)
						.map((b) => (b.type === "text" ? b.text : ""))
						.join("")
				: "";
	const preview = text.replace(/\s+/g, " ").trim().slice(0, 40);
	return `${id} (${entry.type}${preview ? `: ${preview}` : ""})`;
}

/**
 * An entry id from a prefix of it: an exact id wins, else the single node whose id starts with `prefix`.
 * Throws SessionError "ambiguous" (listing the candidates) or "not_found".
 */
export function resolveEntry(session: Session, prefix: string): string {
	const wanted = prefix.trim().toLowerCase();
	if (wanted === "") throw new SessionError("an entry id is empty", "invalid");
	if (session.node(wanted)) return wanted;
	const ids = session.entries.filter((e) => isNode(e) && e.id.startsWith(wanted)).map((e) => e.id);
	const [only, ...others] = ids;
	if (only !== undefined && others.length === 0) return only;
	if (only === undefined) throw new SessionError(`no entry matches "${prefix}" in ${session.file}`, "not_found");
	const listed = ids.slice(0, 10).map((id) => `  ${describe(session, id)}`);
	throw new SessionError(
		`entry id "${prefix}" is ambiguous: ${ids.length} entries match — type more characters\n${listed.join("\n")}`,
		"ambiguous",
	);
}
