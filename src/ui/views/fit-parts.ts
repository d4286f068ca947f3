import stringWidth from "../../term/string-width.js";

/**
 * Short texts joined by `sep` on as few rows of `width` columns as they take, each part whole (a part wider than a
 * row is cut with "…"): a hint ("Esc stops a run · Ctrl+D quits · …") is never cut in the middle of a key.
 */
export function packParts(parts: readonly string[], width: number, sep = " · "): string[] {
	const rows: string[] = [];
	let row = "";
	for (const part of parts) {
		const joined = row === "" ? part : `${row}${sep}${part}`;
		if (stringWidth(joined) <= width) row = joined;
		else {
			if (row !== "") rows.push(row);
			row = stringWidth(part) <= width ? part : cut(part, width);
		}
	}
	if (row !== "") rows.push(row);
	return rows;
}

/**
 * The parts that fit on one row of `width` columns when joined by `sep`, in their order. They are taken by `rank`
 * (lower first; default: their order), and one that does not fit is left out whole, never cut in the middle (a
 * later, shorter one may still fit).
 */
export function fitParts(parts: readonly string[], width: number, sep: string, rank?: readonly number[]): string[] {
	const order = parts.map((_, i) => i).sort((a, b) => (rank?.[a] ?? a) - (rank?.[b] ?? b));
	const kept = new Set<number>();
	let used = 0;
	for (const i of order) {
		const extra = stringWidth(parts[i] as string) + (kept.size > 0 ? stringWidth(sep) : 0);
		if (used + extra > width) continue;
		kept.add(i);
		used += extra;
	}
	return parts.filter((_, i) => kept.has(i));
}

/** `text` cut to `width` columns, ending in "…". */
function cut(text: string, width: number): string {
	let out = "";
	for (const char of text) {
		if (stringWidth(`${out}${char}…`) > width) break;
		out += char;
	}
	return `${out}…`;
}
