import type { RequestInfo, SystemPart } from "../agent/events.js";
import type { ErrorKind, StopReason, Usage } from "../llm/types.js";
import { jsonForTerminal } from "../term/sanitize.js";
import { formatCost, formatDuration, formatTokens, formatUsage } from "./format.js";

/**
 * How the body shown is known to be the one sent. `memory`: the request this gar made, kept in memory (exact).
 * `rebuilt`: rebuilt from the session, and its sha256 is the one recorded when it was sent (exact). `differs`:
 * rebuilt, but its hash is not the one sent. `unverified`: rebuilt, with no hash to check it against. `unknown`:
 * it cannot be rebuilt. The last three say why.
 */
export type BodyOrigin =
	| { kind: "memory" | "rebuilt" }
	| { kind: "differs" | "unverified" | "unknown"; reasons: string[] };

/** One message of a request, as the viewer lists it. */
export type MessageRow = {
	/** 1-based position in the request's messages. */
	index: number;
	role: "user" | "assistant" | "tool_result";
	/** What it is: "prompt", "summary", "text + 2 tool calls", "tool result read", "shell output"… */
	kind: string;
	/** The session entry it came from (null: a compaction summary, a synthetic result, or unknown). */
	entryId: string | null;
	tokens: number;
	/** Its first line, for a person to recognise it. */
	preview: string;
	/** A compaction summary: how many entries it stands for, and the first and last of them. */
	replaces?: { count: number; first: string | null; last: string | null };
};

/** The response of a call: how it ended, what it cost and how long it took (null: no record of it). */
export type ResponseFacts = {
	stopReason: StopReason | string;
	errorKind?: ErrorKind | string;
	error?: string;
	usage: Usage;
	costUsd: number | null;
	startedAt: number;
	ttftMs: number | null;
	durationMs: number;
	retries: number;
};

/**
 * Everything the request viewer, `gar request` and its `--json` show of one model call: what was asked (parameters,
 * system prompt parts, tools, messages, the body), how it went out (URL, masked headers, hash), and the response.
 * Plain data: built by inspect/request-report.ts (from memory or rebuilt from the session), drawn from here.
 */
export type RequestReport = {
	requestId: string;
	turn: number;
	provider: string;
	model: string;
	params: RequestInfo["params"];
	origin: BodyOrigin;
	/** The JSON body (undefined: unknown). */
	body: unknown;
	/** What went out: URL and masked headers are known only for a request kept in memory. */
	sent: { url?: string; headers?: Record<string, string>; bodySha256?: string; bodyBytes?: number };
	/** null: not recorded (an older session). */
	system: { tokens: number; parts: SystemPart[] } | null;
	tools: { tokens: number; items: { name: string; tokens: number }[] } | null;
	messages: { tokens: number; items: MessageRow[] } | null;
	response: ResponseFacts | null;
};

/** How a row is drawn: a section's title, plain text, dimmed, or coloured by what it says. */
export type Tone = "title" | "text" | "muted" | "accent" | "good" | "warning" | "error";
export type DocRow = { text: string; tone?: Tone };
/** A foldable section: its title row (with its size) and its rows, computed when first needed. */
export type DocSection = { id: string; title: string; rows: () => DocRow[] };

/** Estimated tokens of the whole request: system prompt, tools and messages. */
export function requestTokens(report: RequestReport): number {
	return (report.system?.tokens ?? 0) + (report.tools?.tokens ?? 0) + (report.messages?.tokens ?? 0);
}

/** "3.2k tok · 8%": a part's tokens and its share of the request. */
export function share(tokens: number, total: number): string {
	const percent = total > 0 ? (tokens / total) * 100 : 0;
	const shown = percent > 0 && percent < 1 ? "<1" : String(Math.round(percent));
	return `${formatTokens(tokens)} tok · ${shown}%`;
}

/** In words: whether the body shown is exact, and if not, why. */
export function originText(origin: BodyOrigin): string {
	switch (origin.kind) {
		case "memory":
			return "exact: the request as sent, kept in memory";
		case "rebuilt":
			return "exact: rebuilt from the session; its sha256 is the one recorded when it was sent";
		case "differs":
			return `rebuilt; differs from what was sent because ${origin.reasons.join("; ")}`;
		case "unverified":
			return `rebuilt; not checked against what was sent: ${origin.reasons.join("; ")}`;
		case "unknown":
			return `not rebuilt: ${origin.reasons.join("; ")}`;
	}
}

/** The header line: model, stop reason, tokens, cost, time to first token, duration, tokens/s, retries. */
export function headerLine(report: RequestReport): string {
	const r = report.response;
	const parts = [`${report.provider}/${report.model}`];
	if (!r) return `${parts[0]} · no response recorded`;
	const { usage } = r;
	parts.push(r.errorKind ? `${r.stopReason} (${r.errorKind})` : String(r.stopReason));
	parts.push(formatUsage(usage), `cache r ${formatTokens(usage.cacheRead)} w ${formatTokens(usage.cacheWrite)}`);
	parts.push(formatCost(r.costUsd, usage.estimated === true));
	parts.push(`TTFT ${r.ttftMs === null ? "–" : formatDuration(r.ttftMs)}`, formatDuration(r.durationMs));
	const streamMs = r.durationMs - (r.ttftMs ?? r.durationMs);
	parts.push(streamMs >= 200 && usage.output > 0 ? `${Math.round((usage.output * 1000) / streamMs)} tok/s` : "– tok/s");
	parts.push(`${r.retries} ${r.retries === 1 ? "retry" : "retries"}`);
	return parts.join(" · ");
}

/** The rows above the sections: the header line, the call's id, and whether the body is exact. */
export function requestHeader(report: RequestReport): DocRow[] {
	const exact = report.origin.kind === "memory" || report.origin.kind === "rebuilt";
	const params = [
		report.params.maxTokens === null ? "" : `max_tokens ${report.params.maxTokens}`,
		report.params.thinking === null ? "" : `thinking ${report.params.thinking}`,
		report.params.responseSchema ? `answer as JSON (${report.params.responseSchema.name})` : "",
	].filter(Boolean);
	return [
		{ text: headerLine(report), tone: "title" },
		{
			text: `request ${report.requestId} · turn ${report.turn} · ~${formatTokens(requestTokens(report))} tokens${params.length ? ` · ${params.join(" · ")}` : ""}`,
			tone: "muted",
		},
		{ text: originText(report.origin), tone: exact ? "good" : "warning" },
	];
}

function systemRows(report: RequestReport, total: number): DocRow[] {
	if (!report.system) return [{ text: "not recorded in this session (written by an older gar)", tone: "warning" }];
	return report.system.parts.map((part) => {
		const what =
			part.source === "context_file"
				? `context file ${part.path ?? ""}`
				: part.source === "append"
					? "appended"
					: part.source;
		return { text: `${what.padEnd(40)} ${share(part.tokens, total)}` };
	});
}

function toolRows(report: RequestReport, total: number): DocRow[] {
	if (!report.tools) return [{ text: "not recorded in this session (written by an older gar)", tone: "warning" }];
	if (report.tools.items.length === 0) return [{ text: "none", tone: "muted" }];
	return report.tools.items.map((tool) => ({ text: `${tool.name.padEnd(40)} ${share(tool.tokens, total)}` }));
}

/** One message as a row: number, role and kind, entry id, size, first line (a summary: what it replaced). */
export function messageRow(row: MessageRow, total: number): DocRow {
	const entry = row.entryId ? `entry ${row.entryId}` : "";
	const replaced = row.replaces
		? `replaces ${row.replaces.count} entr${row.replaces.count === 1 ? "y" : "ies"}${row.replaces.first ? ` (${row.replaces.first} … ${row.replaces.last})` : ""}`
		: "";
	const head = `${String(row.index).padStart(3)} ${row.role === "tool_result" ? "tool" : row.role} · ${row.kind}`;
	const text = `${head.padEnd(34)} ${(replaced || entry).padEnd(22)} ${share(row.tokens, total).padEnd(16)} ${row.preview}`;
	return { text, tone: row.replaces ? "accent" : "text" };
}

function messageRows(report: RequestReport, total: number): DocRow[] {
	if (!report.messages) return [{ text: "unknown: the session's tree does not say what was sent", tone: "warning" }];
	if (report.messages.items.length === 0) return [{ text: "none", tone: "muted" }];
	return report.messages.items.map((row) => messageRow(row, total));
}

function headerRows(report: RequestReport): DocRow[] {
	const { url, headers } = report.sent;
	if (!headers) {
		return [
			{ text: "not kept: headers are shown for the last 8 requests of a running gar (never saved)", tone: "muted" },
		];
	}
	return [
		...(url ? [{ text: `POST ${url}` }] : []),
		...Object.entries(headers).map(([name, value]) => ({ text: `${name}: ${value}` })),
	];
}

function responseRows(report: RequestReport): DocRow[] {
	const r = report.response;
	if (!r) return [{ text: "no record of the response (the call did not end, or an older gar)", tone: "warning" }];
	const { usage } = r;
	const rows: DocRow[] = [
		{ text: `stop reason  ${r.stopReason}${r.errorKind ? ` · error kind ${r.errorKind}` : ""}` },
		...(r.error ? [{ text: `error        ${r.error}`, tone: "error" as const }] : []),
		{
			text: `usage        input ${usage.input} · output ${usage.output} · cache read ${usage.cacheRead} · cache write ${usage.cacheWrite}${usage.estimated ? " (estimated: the reply was cut before its usage came)" : ""}`,
		},
		{ text: `cost         ${formatCost(r.costUsd, usage.estimated === true)}` },
		{ text: `started      ${new Date(r.startedAt).toISOString()}` },
		{
			text: `timing       TTFT ${r.ttftMs === null ? "–" : formatDuration(r.ttftMs)} · ${formatDuration(r.durationMs)} in all · ${r.retries} ${r.retries === 1 ? "retry" : "retries"}`,
		},
	];
	return rows;
}

/** The body as JSON lines a terminal cannot act on (indented; strings keep their escapes). */
export function bodyLines(body: unknown): string[] {
	if (body === undefined) return [];
	return jsonForTerminal(body, 2).split("\n");
}

/**
 * The viewer's sections, in order: system prompt, tools, messages (each with its size and share of the request),
 * headers, the raw JSON, the response. Rows are computed when a section is first opened (the raw JSON of a large
 * request is the only costly one).
 */
export function requestSections(report: RequestReport): DocSection[] {
	const total = requestTokens(report);
	const size = (tokens: number | undefined) => (tokens === undefined ? "unknown" : share(tokens, total));
	const count = report.messages ? ` · ${report.messages.items.length} messages` : "";
	const bytes = report.sent.bodyBytes ?? (report.body === undefined ? undefined : JSON.stringify(report.body).length);
	return [
		{ id: "system", title: `System prompt  ${size(report.system?.tokens)}`, rows: () => systemRows(report, total) },
		{
			id: "tools",
			title: `Tools  ${size(report.tools?.tokens)}${report.tools ? ` · ${report.tools.items.length}` : ""}`,
			rows: () => toolRows(report, total),
		},
		{
			id: "messages",
			title: `Messages  ${size(report.messages?.tokens)}${count}`,
			rows: () => messageRows(report, total),
		},
		{ id: "headers", title: "Headers", rows: () => headerRows(report) },
		{
			id: "raw",
			title: `Raw JSON${bytes === undefined ? "  unknown" : `  ${bytes.toLocaleString("en-US")} bytes`}${report.sent.bodySha256 ? ` · sha256 ${report.sent.bodySha256.slice(0, 16)}…` : ""}`,
			rows: () => {
				const lines = bodyLines(report.body);
				return lines.length > 0
					? lines.map((text) => ({ text }))
					: [{ text: "unknown: no body could be rebuilt", tone: "warning" as const }];
			},
		},
		{ id: "response", title: "Response", rows: () => responseRows(report) },
	];
}

/** The report as plain text: the header, then every section open except the raw JSON (`gar request`). */
export function requestText(report: RequestReport): string {
	const out = requestHeader(report).map((row) => row.text);
	for (const section of requestSections(report)) {
		out.push("", section.title);
		if (section.id === "raw") continue;
		for (const row of section.rows()) out.push(`  ${row.text}`);
	}
	return `${out.join("\n")}\n`;
}
