import { formatTokens } from "./format.js";

/** One kind of thing in the context and its size (estimated tokens). */
export type ContextGroup = {
	label: string;
	tokens: number /** Nested under the one before it (system prompt parts). */;
	sub?: boolean;
};

/** One item of the context: a message (with its entry), a context file, the tools. */
export type ContextItem = { label: string; entryId: string | null; tokens: number; preview: string };

/**
 * What fills the context of the next request (`/context`, `gar context`): every part by kind, the free space, the
 * largest items with their entry ids, and warnings. Tokens are estimates (characters / 4), except `reported`.
 */
export type ContextReport = {
	provider: string;
	model: string;
	/** The model's window in tokens (null: unknown). */
	window: number | null;
	/** Estimated tokens of the whole next request. */
	total: number;
	/** The size the compaction accounting uses: the last reply's reported tokens plus an estimate of what came after. */
	reported: number | null;
	groups: ContextGroup[];
	largest: ContextItem[];
	warnings: string[];
};

/** A share as a person reads it: "21%", "<1%". */
function percent(part: number, whole: number): string {
	if (whole <= 0) return "–";
	const value = (part / whole) * 100;
	return value > 0 && value < 1 ? "<1%" : `${Math.round(value)}%`;
}

/** `text` in `width` columns: cut from the left (a path's end names it), padded on the right. */
function column(text: string, width: number): string {
	return (text.length > width ? `…${text.slice(text.length - width + 1)}` : text).padEnd(width);
}

/** The report as lines: the total against the window, each group with its share, the free space, the largest items. */
export function contextLines(report: ContextReport): string[] {
	const { window, total } = report;
	const base = window ?? total;
	const of = window
		? `of ${formatTokens(window)} (${percent(total, window)}) · ${formatTokens(Math.max(0, window - total))} free`
		: "(window unknown)";
	const reported = report.reported === null ? "" : ` · the last reply's count: ${formatTokens(report.reported)}`;
	const lines = [
		`Context of the next request · ${report.provider}/${report.model}`,
		`~${formatTokens(total)} tokens ${of}${reported}`,
		`(estimates: characters / 4; shares are of the ${window ? "window" : "request"})`,
		"",
	];
	for (const group of report.groups) {
		const label = group.sub ? `  ${group.label}` : group.label;
		lines.push(
			`  ${column(label, 32)} ${formatTokens(group.tokens).padStart(6)} ${percent(group.tokens, base).padStart(4)}`,
		);
	}
	if (window) {
		const free = Math.max(0, window - total);
		lines.push(`  ${column("free", 32)} ${formatTokens(free).padStart(6)} ${percent(free, window).padStart(4)}`);
	}
	if (report.largest.length > 0) {
		lines.push("", `The ${report.largest.length} largest items`);
		for (const [i, item] of report.largest.entries()) {
			const entry = item.entryId ? `entry ${item.entryId}` : "";
			lines.push(
				`  ${String(i + 1).padStart(2)}. ${column(item.label, 18)} ${entry.padEnd(16)} ${formatTokens(item.tokens).padStart(6)}  ${item.preview}`,
			);
		}
	}
	for (const warning of report.warnings) lines.push("", `⚠ ${warning}`);
	return lines;
}
