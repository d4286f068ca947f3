import { nestsDeeperThan } from "../agent/depth.js";
import { plural } from "../text/plural.js";
import { SessionError, type SessionHeader } from "./format.js";
import { forEachLine, isKnownType, MAX_ENTRY_DEPTH, parseEntry, parseHeader, parseJson } from "./lines.js";
import { Session } from "./session.js";

const MAX_LISTED = 20;

function listed(items: (string | number)[]): string {
	const shown = items.slice(0, MAX_LISTED).join(", ");
	return items.length > MAX_LISTED ? `${shown}, …` : shown;
}

/**
 * Reads a session file into memory. Opens it read-only and never modifies it: a torn last line or a malformed
 * line is skipped and reported in `warnings`, never repaired. Unknown entry types are kept (not sent to a model);
 * a node whose parent is missing becomes a root. Throws SessionError for a missing or invalid header and for a
 * file written in a newer major format. Reads in chunks, one line at a time.
 */
export function loadSession(file: string): Session {
	let session: Session | undefined;
	const malformed: number[] = [];
	const tooDeep: number[] = [];
	const orphans: string[] = [];
	const duplicates: string[] = [];
	const badTargets: string[] = [];
	const misfits: string[] = [];
	let torn = false;
	try {
		forEachLine(file, (buf, start, end, lineNo, complete) => {
			const text = buf.toString("utf8", start, end);
			if (!session) {
				const header: SessionHeader = parseHeader(parseJson(text), file);
				session = new Session(file, header);
				return;
			}
			if (text.trim() === "") return;
			const value = parseJson(text);
			const entry = parseEntry(value);
			if (!entry) {
				if (nestsDeeperThan(value, MAX_ENTRY_DEPTH)) {
					tooDeep.push(lineNo);
					return;
				}
				malformed.push(lineNo);
				torn ||= !complete;
				return;
			}
			if (entry.type === "unknown" && isKnownType(entry.raw.type)) misfits.push(entry.id);
			const result = session.add(entry);
			if (result === "orphan") orphans.push(entry.id);
			else if (result === "duplicate") duplicates.push(`${entry.id} (line ${lineNo})`);
			else if (result === "bad_target") badTargets.push(entry.id);
			return;
		});
	} catch (error) {
		if (error instanceof SessionError) throw error;
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT") throw new SessionError(`no session file ${file}`, "not_found");
		throw error;
	}
	if (!session) throw new SessionError(`${file} is empty: not a gar session`, "bad_header");
	const warnings = session.warnings;
	session.skippedLines.push(...[...malformed, ...tooDeep].sort((a, b) => a - b));
	if (malformed.length > 0) {
		const tail = torn ? "; the last line is incomplete (a crash while writing?)" : "";
		warnings.push(`skipped ${plural(malformed.length, "malformed line")} (${listed(malformed)}) in ${file}${tail}`);
	}
	if (tooDeep.length > 0) {
		const which = `${plural(tooDeep.length, "line")} (${listed(tooDeep)})`;
		warnings.push(`skipped ${which} in ${file} nested deeper than ${MAX_ENTRY_DEPTH} levels`);
	}
	if (orphans.length > 0) {
		const which =
			orphans.length === 1
				? "1 entry whose parent is missing became a root"
				: `${orphans.length} entries whose parent is missing became roots`;
		warnings.push(`${which} (${listed(orphans)})`);
	}
	if (duplicates.length > 0) warnings.push(`ignored entries with duplicate ids: ${listed(duplicates)}`);
	if (misfits.length > 0) {
		const which =
			misfits.length === 1
				? "1 entry does not match the fields of its type and was kept as an unknown entry"
				: `${misfits.length} entries do not match the fields of their types and were kept as unknown entries`;
		warnings.push(`${which} (${listed(misfits)})`);
	}
	if (badTargets.length > 0) {
		warnings.push(`ignored leaf records pointing at missing entries (${listed(badTargets)})`);
	}
	return session;
}
