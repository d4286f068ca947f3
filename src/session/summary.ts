import type { UserSource } from "../agent/events.js";
import { SessionError } from "./format.js";
import { forEachLine, parseEntry, parseHeader, parseJson } from "./lines.js";

/**
 * What a listing knows of one session file, gathered line by line in file order; plain data (JSON), so the index
 * (catalog.ts) can keep it and go on from where it stopped when the file grows.
 */
export type SessionSummary = {
	id: string;
	cwd: string;
	createdAt: string;
	/** Set on a fork: the session and entry it was copied from. */
	forkOf?: { session: string; entry: string };
	/** Entry lines (all types). */
	entries: number;
	/** User and assistant entries. */
	messages: number;
	/** Lines that are not entries (damaged, torn by a crash), blank ones aside. */
	damaged: number;
	/** The latest `name` entry's name. */
	name?: string;
	/** Current labels by entry id. */
	labels: Record<string, string>;
	/** The first and the latest prompt the person typed, whitespace collapsed, at most ~80 characters. */
	firstPrompt?: string;
	latestPrompt?: string;
	/** Where the latest user entry's line starts in the file: the last exchange is read from there. */
	latestUserOffset?: number;
	/** The ids of the nodes without children: one per branch. */
	leaves: string[];
	/** The current leaf, as Session computes it (the last conversation entry, or a later leaf record's target). */
	leaf: string | null;
	/** The provider and model of the latest reply or model change. */
	provider?: string;
	model?: string;
	/** What the replies and summaries recorded in the file cost; null once one of them had no known price. */
	costUsd: number | null;
	/** Tokens of the context as of the last request (or of the last compaction after it). */
	contextTokens?: number;
	/** The model's context window in the last run (null: unknown). */
	contextWindow?: number | null;
	/**
	 * The prompts' text a filter searches, the start of each: the first prompts (`firstPrompts` of them, up to
	 * SEARCH_FIRST characters), then the latest ones (up to SEARCH_RECENT characters; older ones leave).
	 */
	prompts: string[];
	firstPrompts: number;
	/** Characters of the first prompts kept. */
	promptChars: number;
};

const PREFIX = Buffer.from('{"type":"');
const QUOTE = 34;
const CLOSE_BRACE = 125;
const PROMPT_CHARS = 80;
/** Of each prompt, this much is searchable; of a session's first prompts and of its latest, these many. */
const SEARCH_PROMPT_CHARS = 200;
const SEARCH_FIRST = 4000;
const SEARCH_RECENT = 4000;
/** Lines longer than this are counted but not parsed (a pasted megabyte is no prompt to list). */
const MAX_PARSED_LINE = 4 << 20;
/** A reply's provider, model and cost are written after its content: they are found in its line's last bytes. */
const TAIL_BYTES = 600;
const FAILED_REQUEST = Buffer.from('"stopReason":"error"');
const NODE_TYPES = new Set(["user", "assistant", "tool_result", "model_change", "compaction"]);
const META_TYPES = new Set(["label", "name", "leaf", "system_prompt", "request", "run", "tool_start"]);
/** The sources of what the person typed (not gar's own messages such as a command's output). */
const TYPED: ReadonlySet<string> = new Set<UserSource>(["prompt", "steer", "follow_up"]);
const IDS = /^\{"type":"[^"\\]*","id":"([^"\\]+)","parentId":(?:null|"([^"\\]+)")/;
const MODEL = /"provider":"([^"\\]*)","model":"([^"\\]*)"/g;
const COST = /"costUsd":(null|-?[0-9.eE+-]+)\}$/;

/** A prompt as one line of at most `max` characters. */
export function oneLine(text: string, max = PROMPT_CHARS): string {
	const flat = text.replace(/\s+/g, " ").trim();
	return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * An entry line's type without parsing the line when it starts the way gar writes it (`{"type":"…"` first and
 * `}` last); otherwise the line is parsed. Undefined for a line that is not an entry.
 */
export function sniffType(buf: Buffer, start: number, end: number): string | undefined {
	const head = start + PREFIX.length;
	if (end > head && buf[end - 1] === CLOSE_BRACE && buf.compare(PREFIX, 0, PREFIX.length, start, head) === 0) {
		const quote = buf.indexOf(QUOTE, head);
		if (quote !== -1 && quote < end && quote - head <= 32) return buf.toString("latin1", head, quote);
	}
	if (end - start > MAX_PARSED_LINE) return undefined;
	return parseEntry(parseJson(buf.toString("utf8", start, end)))?.type;
}

/** The summary of a file whose first line is `header`; throws SessionError for a line 1 that is no session header. */
export function startSummary(headerLine: string, file: string): SessionSummary {
	const header = parseHeader(parseJson(headerLine), file);
	return {
		id: header.id,
		cwd: header.cwd,
		createdAt: header.createdAt,
		...(header.parent ? { forkOf: { session: header.parent.session, entry: header.parent.entry } } : {}),
		entries: 0,
		messages: 0,
		damaged: 0,
		labels: {},
		leaves: [],
		leaf: null,
		costUsd: 0,
		prompts: [],
		firstPrompts: 0,
		promptChars: 0,
	};
}

/** A copy that can go on taking lines without changing `summary` (the index keeps the one it read). */
export function copySummary(summary: SessionSummary): SessionSummary {
	return { ...summary, labels: { ...summary.labels }, leaves: [...summary.leaves], prompts: [...summary.prompts] };
}

type Line = { buf: Buffer; start: number; end: number; offset: number };

const record = (line: Line): Record<string, unknown> | undefined => {
	if (line.end - line.start > MAX_PARSED_LINE) return undefined;
	const value = parseJson(line.buf.toString("utf8", line.start, line.end));
	return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
};

/**
 * Adds one line (after the header) to `summary`, in file order. Only the lines a listing needs are parsed (name,
 * label, user, request, run, compaction and model change lines, all small); a reply's model and cost come from its
 * last bytes. The branch count follows the rule of Session.add: a node whose parent already has a child starts a
 * branch.
 */
export function addLine(summary: SessionSummary, line: Line): void {
	const { buf, start, end } = line;
	const type = sniffType(buf, start, end);
	if (type === undefined) {
		if (buf.subarray(start, end).toString("latin1").trim() !== "") summary.damaged++;
		return;
	}
	summary.entries++;
	if (type === "user" || type === "assistant") summary.messages++;
	if (NODE_TYPES.has(type)) summary.leaf = addNode(summary, line) ?? summary.leaf;
	else if (!META_TYPES.has(type) && record(line)?.meta !== true) addNode(summary, line);
	const handle = HANDLERS[type];
	if (handle) handle(summary, line);
}

/**
 * Adds a node to the branch count, its id and parent read from the start of its line (where gar writes them), else
 * from the parsed line. Returns its id.
 */
function addNode(summary: SessionSummary, line: Line): string | undefined {
	const head = IDS.exec(line.buf.toString("latin1", line.start, Math.min(line.end, line.start + 160)));
	let id = head?.[1];
	let parent = head ? (head[2] ?? null) : undefined;
	if (!head) {
		const value = record(line);
		id = typeof value?.id === "string" ? value.id : undefined;
		parent = typeof value?.parentId === "string" ? value.parentId : null;
	}
	if (id === undefined) return undefined;
	const at = parent === null || parent === undefined ? -1 : summary.leaves.indexOf(parent);
	if (at === -1) summary.leaves.push(id);
	else summary.leaves[at] = id;
	return id;
}

const HANDLERS: Readonly<Record<string, (summary: SessionSummary, line: Line) => void>> = {
	user: (summary, line) => {
		const value = record(line);
		if (typeof value?.content !== "string") return;
		const source = typeof value.source === "string" ? value.source : "prompt";
		if (!TYPED.has(source)) return;
		const text = value.content;
		summary.firstPrompt ??= oneLine(text);
		summary.latestPrompt = oneLine(text);
		summary.latestUserOffset = line.offset;
		addSearchText(summary, oneLine(text, SEARCH_PROMPT_CHARS));
	},
	assistant: (summary, line) => {
		const tail = line.buf.toString("latin1", Math.max(line.start, line.end - TAIL_BYTES), line.end);
		const models = [...tail.matchAll(MODEL)];
		const cost = COST.exec(tail);
		const last = models.at(-1);
		// A cost written anywhere but last (not by gar) is read from the parsed line.
		if (last && (cost || !tail.includes('"costUsd":'))) {
			summary.provider = last[1];
			summary.model = last[2];
			if (cost) addCost(summary, cost[1] === "null" ? null : Number(cost[1]));
			return;
		}
		const value = record(line);
		if (typeof value?.model === "string") summary.model = value.model;
		if (typeof value?.provider === "string") summary.provider = value.provider;
		const costUsd = value?.costUsd;
		if (costUsd === null || typeof costUsd === "number") addCost(summary, costUsd);
	},
	model_change: (summary, line) => {
		const value = record(line);
		if (typeof value?.model === "string") summary.model = value.model;
		if (typeof value?.provider === "string") summary.provider = value.provider;
	},
	compaction: (summary, line) => {
		const value = record(line);
		if (typeof value?.tokensAfter === "number") summary.contextTokens = value.tokensAfter;
		const costUsd = value?.costUsd;
		if (costUsd === null || typeof costUsd === "number") addCost(summary, costUsd);
	},
	request: (summary, line) => {
		// A failed request reports no usage: the context is then the one before it.
		if (line.buf.subarray(line.start, line.end).includes(FAILED_REQUEST)) return;
		const usage = record(line)?.usage as Record<string, unknown> | undefined;
		const figures = [usage?.input, usage?.output, usage?.cacheRead, usage?.cacheWrite];
		if (figures.every((n) => typeof n === "number")) {
			summary.contextTokens = (figures as number[]).reduce((a, b) => a + b, 0);
		}
	},
	run: (summary, line) => {
		const window = record(line)?.contextWindow;
		if (window === null || typeof window === "number") summary.contextWindow = window;
	},
	leaf: (summary, line) => {
		const target = record(line)?.target;
		if (target === null || typeof target === "string") summary.leaf = target;
	},
	name: (summary, line) => {
		const name = record(line)?.name;
		if (typeof name === "string") summary.name = name;
	},
	label: (summary, line) => {
		const value = record(line);
		if (typeof value?.target !== "string") return;
		if (typeof value.label === "string") summary.labels[value.target] = value.label;
		else if (value.label === null) delete summary.labels[value.target];
	},
};

/** Keeps a prompt's start for the filter: among the first prompts while they fit, else among the latest. */
function addSearchText(summary: SessionSummary, part: string): void {
	const { prompts } = summary;
	if (prompts.length === summary.firstPrompts && summary.promptChars + part.length <= SEARCH_FIRST) {
		prompts.push(part);
		summary.firstPrompts++;
		summary.promptChars += part.length;
		return;
	}
	prompts.push(part);
	let recent = prompts.slice(summary.firstPrompts).reduce((sum, text) => sum + text.length, 0);
	while (recent > SEARCH_RECENT && prompts.length > summary.firstPrompts + 1) {
		recent -= prompts[summary.firstPrompts]?.length ?? 0;
		prompts.splice(summary.firstPrompts, 1);
	}
}

function addCost(summary: SessionSummary, cost: number | null): void {
	summary.costUsd = summary.costUsd === null || cost === null || !Number.isFinite(cost) ? null : summary.costUsd + cost;
}

/**
 * Reads a session file into a summary: from the start, or from `resume` (where an earlier scan stopped, with what it
 * had gathered, which is not changed; an offset after line 1). Returns the summary and where its last whole line ends;
 * an unfinished last line (torn by a crash, or being written) is left for the next scan. Read-only. Throws SessionError for a file
 * whose line 1 is no session header (or one of a newer major format), and the file system's errors.
 */
export function summarize(
	file: string,
	resume?: { summary: SessionSummary; offset: number },
): { summary: SessionSummary; offset: number } {
	let summary = resume ? copySummary(resume.summary) : undefined;
	let failure: unknown;
	const scan = forEachLine(
		file,
		(buf, start, end, _lineNo, complete, offset) => {
			if (summary) {
				if (complete) addLine(summary, { buf, start, end, offset });
				return;
			}
			try {
				summary = startSummary(buf.toString("utf8", start, end), file);
			} catch (error) {
				failure = error;
				return false;
			}
			return;
		},
		resume?.offset ?? 0,
	);
	if (failure) throw failure;
	if (!summary) throw new SessionError(`${file} is empty: not a gar session`, "bad_header");
	return { summary, offset: scan.lineEnd };
}

/** Whether a SessionError says the file is not one this gar can list (its reason goes on the row). */
export function isUnreadable(error: unknown): error is SessionError {
	return error instanceof SessionError && (error.code === "bad_header" || error.code === "newer_format");
}
