import { sanitizeForTerminal } from "../../term/sanitize.js";
import stringWidth from "../../term/string-width.js";
import { tildePath } from "../../text/paths.js";
import { formatCost } from "../../view/format.js";
import type { PickerHit } from "../state/picker.js";

/** A column of the picker's list: its header, width, and which side its text keeps to. */
export type PickerColumn = {
	key: "title" | "latest" | "age" | "entries" | "branches" | "model" | "cost" | "project";
	header: string;
	width: number;
	right?: boolean;
};

const GAP = 2;
/** The selection marker's columns. */
export const MARK = 2;

/**
 * The list's columns for `width` terminal columns: the fixed ones that fit (on a narrow terminal the model, the
 * branches, the entries and the project go first), the name and the latest prompt sharing the rest.
 */
export function pickerColumns(width: number, all: boolean): PickerColumn[] {
	const fixed: PickerColumn[] = [
		{ key: "age", header: "AGE", width: 4, right: true },
		{ key: "entries", header: "ENTRIES", width: 7, right: true },
		{ key: "branches", header: "BR", width: 3, right: true },
		{ key: "model", header: "MODEL", width: 18 },
		{ key: "cost", header: "COST", width: 8, right: true },
		...(all ? [{ key: "project", header: "PROJECT", width: 22 } as PickerColumn] : []),
	];
	// Dropped in this order while the name and the prompt would get less than 40 columns between them.
	const dropOrder: PickerColumn["key"][] = ["model", "branches", "project", "entries", "cost"];
	const used = () => fixed.reduce((sum, c) => sum + c.width + GAP, MARK);
	for (const key of dropOrder) {
		if (width - used() >= 40 + GAP) break;
		const at = fixed.findIndex((c) => c.key === key);
		if (at !== -1) fixed.splice(at, 1);
	}
	const rest = Math.max(8, width - used() - GAP);
	const title = Math.max(4, Math.round(rest * 0.45));
	return [
		{ key: "title", header: "NAME", width: title },
		{ key: "latest", header: "LATEST PROMPT", width: Math.max(4, rest - title) },
		...fixed,
	];
}

/** `text` in exactly `width` terminal columns: cut (ending in `more`, "…") when longer, padded when shorter. */
export function fitCell(text: string, width: number, right = false, more = "…"): string {
	let shown = text;
	if (stringWidth(shown) > width) {
		let out = "";
		for (const char of shown) {
			if (stringWidth(`${out}${char}${more}`) > width) break;
			out += char;
		}
		shown = `${out}${more}`;
	}
	const pad = " ".repeat(Math.max(0, width - stringWidth(shown)));
	return right ? `${pad}${shown}` : `${shown}${pad}`;
}

/** One line of text from a session file: controls shown inert, line breaks and tabs as spaces. */
export function flat(text: string): string {
	return sanitizeForTerminal(text).replace(/[\t\r\n]+/g, " ");
}

/** How long ago, in the fewest characters: "now", "5m", "3h", "2d", "5w", "4mo", "2y". */
export function formatAge(ms: number): string {
	const s = Math.max(0, ms) / 1000;
	if (s < 60) return "now";
	if (s < 3600) return `${Math.floor(s / 60)}m`;
	if (s < 86_400) return `${Math.floor(s / 3600)}h`;
	if (s < 14 * 86_400) return `${Math.floor(s / 86_400)}d`;
	if (s < 60 * 86_400) return `${Math.floor(s / (7 * 86_400))}w`;
	if (s < 365 * 86_400) return `${Math.floor(s / (30 * 86_400))}mo`;
	return `${Math.floor(s / (365 * 86_400))}y`;
}

/**
 * The cells of one row, by column key. The latest prompt's cell shows what the filter matched instead when that is
 * neither the name nor the latest prompt (a middle prompt, a label), marked "≈".
 */
export function rowCells(hit: PickerHit, now: number, home: string): Record<PickerColumn["key"], string> {
	const { row, matched } = hit;
	const other = matched !== "" && matched !== row.title && matched !== row.latestPrompt;
	return {
		title: flat(
			row.problem
				? `⚠ ${row.id}`
				: `${"  ".repeat(hit.depth ?? 0)}${row.forkOf ? "⑂ " : ""}${row.title || "(no prompt yet)"}`,
		),
		latest: flat(row.problem ?? (other ? `≈ ${matched}` : row.latestPrompt)),
		age: formatAge(now - row.modifiedMs),
		entries: row.problem ? "" : String(row.entries),
		branches: row.problem ? "" : String(row.branches),
		model: flat(row.model),
		cost: row.problem ? "" : formatCost(row.costUsd),
		project: flat(tildePath(row.cwd, home)),
	};
}
