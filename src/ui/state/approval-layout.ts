import type { ApprovalRequest } from "../../agent/loop.js";
import { revealHidden } from "../../term/sanitize.js";
import { plural } from "../../text/plural.js";
import { APPROVAL_WARNING, approvalFlagged, approvalKeys, previewBody, previewHeadline } from "../../view/format.js";
import { expandTabs, graphemes, textWidth } from "../chat/lines.js";
import type { PendingApproval } from "./store.js";

/** How a preview row is coloured: a diff's added / removed / hunk / context line, a command, a failing call. */
export type RowTone = "added" | "removed" | "hunk" | "context" | "plain" | "error";

/** One screen row of a preview; `lead` is "↪" (muted) on a row that continues a wrapped line. */
export type PreviewRow = { lead: string; text: string; tone: RowTone };

/** What the approval panel draws, row by row, fitted to its width: nothing in it is ever cut. */
export type ApprovalLayout = {
	/** The headline (what the call does, where), wrapped. */
	header: string[];
	/** The warning about hidden characters, wrapped; empty when there are none. */
	warning: string[];
	/** Why gar asks, when a PreToolUse hook asked it to: at most REASON_ROWS rows; empty otherwise. */
	reason: string[];
	/** What the permission rules said (which parts they allow, why no prefix is offered): at most REASON_ROWS rows. */
	rules: string[];
	/** Every row of the preview; `rows` of them from `start` are on screen. */
	body: readonly PreviewRow[];
	start: number;
	rows: number;
	/** The line under the preview when it does not fit ("12 more lines — ↓ to read"); null when it fits. */
	status: string | null;
	/** Whether the status asks to read on (rows below), or is only the end's note. */
	urgent: boolean;
	/** The keys, wrapped between items. */
	keys: string[];
	/** Rows of the panel, borders included. */
	height: number;
};

/** Rows a hook's reason may take in the panel (the hook's line in the chat has the rest). */
const REASON_ROWS = 3;

/** Border and padding: the panel's text is this many columns narrower than the panel. */
const FRAME_COLUMNS = 4;
/** Marks that stand for something else (`␣×300`, `⟨U+200B⟩`): wrapped as one piece, never split across rows. */
const MARK = /[␣⇥]×\d+|⟨U\+[0-9A-F]+⟩/g;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** The pieces a row may break between: graphemes, and marks kept whole. */
function pieces(text: string): string[] {
	const out: string[] = [];
	let at = 0;
	for (const match of text.matchAll(MARK)) {
		out.push(...graphemes(text.slice(at, match.index)), match[0]);
		at = match.index + match[0].length;
	}
	out.push(...graphemes(text.slice(at)));
	return out;
}

/**
 * `text` in rows of `first` columns, then `rest`, broken between characters (not words): no character is dropped
 * or replaced. Spaces before a break move to the next row, where they show as a gap after its "↪" (at the end of
 * a row they could not be seen). An empty text is one empty row.
 */
export function wrapExact(text: string, first: number, rest = first): string[] {
	if (PRINTABLE_ASCII.test(text)) return wrapAscii(text, Math.max(1, first), Math.max(1, rest));
	const rows: string[] = [];
	let row = "";
	let used = 0;
	let avail = Math.max(1, first);
	for (const piece of pieces(text)) {
		const w = textWidth(piece);
		if (used + w > avail && row !== "") {
			const kept = row.trimEnd() || row;
			rows.push(kept);
			row = row.slice(kept.length);
			used = row.length;
			avail = Math.max(1, rest);
		}
		row += piece;
		used += w;
	}
	rows.push(row);
	return rows;
}

/** `wrapExact` for printable ASCII (one column a character, no marks): slices, no grapheme walk. */
function wrapAscii(text: string, first: number, rest: number): string[] {
	const rows: string[] = [];
	let at = 0;
	let width = first;
	while (text.length - at > width) {
		const row = text.slice(at, at + width);
		const kept = row.trimEnd() || row;
		rows.push(kept);
		at += kept.length;
		width = rest;
	}
	rows.push(text.slice(at));
	return rows;
}

function tone(line: string, request: ApprovalRequest): RowTone {
	const { kind } = request.preview;
	if (kind === "invalid") return "error";
	if (kind === "bash") return "plain";
	if (line.startsWith("+")) return "added";
	if (line.startsWith("-")) return "removed";
	if (line.startsWith("@@")) return "hunk";
	return "context";
}

/** Columns of a line's own lead ("$ ", "> ", a diff's "+"), under which a wrapped line continues. */
function leadWidth(line: string, request: ApprovalRequest): number {
	if (request.preview.kind === "bash") return 2;
	if (request.preview.kind !== "invalid" && /^[+\- ]/.test(line)) return 1;
	return 2;
}

const wrapped = new WeakMap<ApprovalRequest, { width: number; rows: PreviewRow[] }>();
const flagged = new WeakMap<ApprovalRequest, boolean>();

/** `approvalFlagged` once per question (it reads the whole diff). */
function isFlagged(request: ApprovalRequest): boolean {
	let hit = flagged.get(request);
	if (hit === undefined) {
		hit = approvalFlagged(request.preview);
		flagged.set(request, hit);
	}
	return hit;
}

/** A hook's reason for asking, or the rules' note, on one line wrapped to at most REASON_ROWS rows (" …" where cut). */
function reasonRows(text: string | undefined, width: number): string[] {
	if (!text) return [];
	const rows = wrapExact(revealHidden(text.replace(/\s*\n\s*/g, " ")), width);
	if (rows.length <= REASON_ROWS) return rows;
	const kept = rows.slice(0, REASON_ROWS);
	kept[REASON_ROWS - 1] = `${wrapExact(kept[REASON_ROWS - 1] ?? "", width - 2)[0]} …`;
	return kept;
}

/** Every row of the preview at `width` columns; wrapped once per question and width. */
function previewRows(request: ApprovalRequest, width: number): PreviewRow[] {
	const hit = wrapped.get(request);
	if (hit && hit.width === width) return hit.rows;
	const rows: PreviewRow[] = [];
	for (const raw of previewBody(request.preview)) {
		const line = expandTabs(raw);
		const lead = leadWidth(line, request);
		const cont = lead === 1 ? "↪" : "↪ ";
		const t = tone(line, request);
		wrapExact(line, width, width - lead).forEach((text, i) => {
			rows.push({ lead: i === 0 ? "" : cont, text, tone: t });
		});
	}
	wrapped.set(request, { width, rows });
	return rows;
}

/** Key items packed into rows of `width` columns, " · " between items on a row. */
function packKeys(items: readonly string[], width: number): string[] {
	const rows: string[] = [];
	let row = "";
	for (const item of items) {
		const joined = row === "" ? item : `${row} · ${item}`;
		if (textWidth(joined) <= width || row === "") row = joined;
		else {
			rows.push(row);
			row = item;
		}
	}
	rows.push(row);
	return rows.flatMap((r) => wrapExact(r, width));
}

/** Whether y and a must wait until the whole preview was on screen: a command runs at once, as the person. */
export function mustReadAll(pending: PendingApproval): boolean {
	return pending.request.preview.kind === "bash";
}

/** The preview's rows on screen and in all, as drawn (ApprovalLayout's `rows` and `body.length`). */
export type PreviewFit = { rows: number; total: number };

/** The rows from the top that scrolling showed in the wrapping `fit` is of (none in another wrapping). */
export function seenBefore(pending: PendingApproval, fit: PreviewFit): number {
	return pending.seen?.total === fit.total ? pending.seen.rows : 0;
}

/** Whether every row of the preview has been on screen (`fit`: as drawn; null: not drawn yet, nothing to hold). */
export function readAll(pending: PendingApproval, fit: PreviewFit | null): boolean {
	if (!fit) return true;
	const start = Math.min(pending.scroll, Math.max(0, fit.total - fit.rows));
	return Math.max(seenBefore(pending, fit), start + fit.rows) >= fit.total;
}

/**
 * The approval panel at `width` columns and at most `maxHeight` rows (less when the preview is short): the
 * headline and the keys always whole and on screen; the preview wrapped (never cut) and scrolled from
 * `pending.scroll`, with a line saying how much is below when it does not fit.
 */
export function layoutApproval(pending: PendingApproval, width: number, maxHeight: number): ApprovalLayout {
	const { request } = pending;
	const inner = Math.max(1, width - FRAME_COLUMNS);
	let header = wrapExact(previewHeadline(request.name, request.preview), inner);
	const warning = isFlagged(request) ? wrapExact(APPROVAL_WARNING, inner) : [];
	const reason = reasonRows(request.reason, inner);
	const rules = reasonRows(request.ruleNote && `rules: ${request.ruleNote}`, inner);
	const keyItems =
		pending.stage === "reason"
			? ["type why (optional)", "Enter deny with this reason", "Esc deny"]
			: approvalKeys(request.name, request.prefixes);
	const keys = packKeys(keyItems, inner);
	let body: readonly PreviewRow[] = previewRows(request, inner);
	const frame = () => 2 + header.length + warning.length + reason.length + rules.length + keys.length;
	// A headline taking more than a third of the panel: its first rows stay, and all of it leads the preview.
	const headerRoom = Math.min(
		Math.floor(maxHeight / 3),
		maxHeight - 2 - warning.length - reason.length - rules.length - keys.length - 2,
	);
	if (header.length > Math.max(1, headerRoom)) {
		const all = header.map((text): PreviewRow => ({ lead: "", text, tone: "plain" }));
		header = header.slice(0, Math.max(1, headerRoom));
		header[header.length - 1] = `${wrapExact(header.at(-1) ?? "", inner - 2)[0]} …`;
		body = [...all, ...body];
	}
	if (frame() + body.length <= maxHeight) {
		return {
			header,
			warning,
			reason,
			rules,
			body,
			start: 0,
			rows: body.length,
			status: null,
			urgent: false,
			keys,
			height: frame() + body.length,
		};
	}
	const rows = Math.max(1, maxHeight - frame() - 1);
	const start = Math.max(0, Math.min(pending.scroll, body.length - rows));
	const more = body.length - start - rows;
	let status = `${plural(more, "more line")} — ↓ to read${start > 0 ? ` · ${start} above` : ""}`;
	if (more === 0) status = `end of the preview · ${plural(start, "line")} above — ↑ to scroll back`;
	else if (mustReadAll(pending)) {
		status = pending.early ? `read the whole command first: ${status}` : `${status} (all of it before y)`;
	}
	const [shown] = wrapExact(status, inner);
	return {
		header,
		warning,
		reason,
		rules,
		body,
		start,
		rows,
		status: shown ?? status,
		urgent: more > 0,
		keys,
		height: frame() + 1 + rows,
	};
}
