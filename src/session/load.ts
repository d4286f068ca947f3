import { nestsDeeperThan } from "../agent/depth.js";
import { plural } from "../text/plural.js";
import { SessionError, type SessionHeader } from "./format.js";
import {
	forEachLine,
	forEachLineSliced,
	isKnownType,
	MAX_ENTRY_DEPTH,
	parseEntry,
	parseHeader,
	parseJson,
} from "./lines.js";
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
	const loader = new Loader(file);
	try {
		forEachLine(file, loader.visit);
	} catch (error) {
		loader.failed(error);
	}
	return loader.finish();
}

/**
 * loadSession with the event loop let run (`pause` awaited) every few milliseconds (text/steps.ts SLICE_MS): the app
 * reads a large session while it keeps answering keys. The same Session, warnings and errors.
 */
export async function loadSessionSliced(file: string, pause: () => Promise<void>, sliceMs?: number): Promise<Session> {
	const loader = new Loader(file);
	try {
		await forEachLineSliced(file, loader.visit, pause, sliceMs);
	} catch (error) {
		loader.failed(error);
	}
	return loader.finish();
}

/** One load of `file`: its lines visited in order, then the Session with what was skipped put in its warnings. */
class Loader {
	private session: Session | undefined;
	private readonly malformed: number[] = [];
	private readonly tooDeep: number[] = [];
	private readonly orphans: string[] = [];
	private readonly duplicates: string[] = [];
	private readonly badTargets: string[] = [];
	private readonly misfits: string[] = [];
	private torn = false;

	constructor(private readonly file: string) {}

	/** A read that threw: a missing file becomes a SessionError; other errors go on as they are. */
	failed(error: unknown): never {
		if (error instanceof SessionError) throw error;
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT") throw new SessionError(`no session file ${this.file}`, "not_found");
		throw error;
	}

	readonly visit = (buf: Buffer, start: number, end: number, lineNo: number, complete: boolean): undefined => {
		const text = buf.toString("utf8", start, end);
		if (!this.session) {
			const header: SessionHeader = parseHeader(parseJson(text), this.file);
			this.session = new Session(this.file, header);
			return;
		}
		if (text.trim() === "") return;
		const value = parseJson(text);
		const entry = parseEntry(value);
		if (!entry) {
			if (nestsDeeperThan(value, MAX_ENTRY_DEPTH)) {
				this.tooDeep.push(lineNo);
				return;
			}
			this.malformed.push(lineNo);
			this.torn ||= !complete;
			return;
		}
		if (entry.type === "unknown" && isKnownType(entry.raw.type)) this.misfits.push(entry.id);
		const result = this.session.add(entry);
		if (result === "orphan") this.orphans.push(entry.id);
		else if (result === "duplicate") this.duplicates.push(`${entry.id} (line ${lineNo})`);
		else if (result === "bad_target") this.badTargets.push(entry.id);
		return;
	};

	finish(): Session {
		const { session, file, malformed, tooDeep, orphans, duplicates, misfits, badTargets } = this;
		if (!session) throw new SessionError(`${file} is empty: not a gar session`, "bad_header");
		const warnings = session.warnings;
		session.skippedLines.push(...[...malformed, ...tooDeep].sort((a, b) => a - b));
		if (malformed.length > 0) {
			const tail = this.torn ? "; the last line is incomplete (a crash while writing?)" : "";
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
}
