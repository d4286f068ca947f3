import type { ChatItem } from "../../view/state.js";
import type { Theme } from "../theme/theme.js";
import { type Line, makeLine } from "./lines.js";

/** A message longer than this many rows can be folded (the transcript mode's Enter). */
export const LONG_MESSAGE_ROWS = 12;
/** Rows a folded message keeps before the line that counts the rest. */
export const FOLDED_MESSAGE_ROWS = 4;

/**
 * Whether `item` is shown folded until opened: a tool call (its output or diff), thinking, a message with pasted
 * blocks, a `!command`'s output, context a hook gave the model.
 */
export function startsFolded(item: ChatItem): boolean {
	if (item.kind === "tool" || item.kind === "thinking") return true;
	return item.kind === "user" && (item.pastes !== undefined || item.source === "shell" || item.source === "hook");
}

/** Whether `item` is a message shown whole until folded by hand: a reply, what the person typed, a notice. */
export function foldsWhenLong(item: ChatItem): boolean {
	return item.kind === "text" || item.kind === "notice" || (item.kind === "user" && !startsFolded(item));
}

/**
 * Whether `item` is drawn open: one that starts folded once its key is in `opened`, a message unless its key is in
 * `folded`. Anything else (a run's last line, an error) has nothing to fold and counts as open.
 */
export function isOpen(item: ChatItem, opened: ReadonlySet<string>, folded: ReadonlySet<string>): boolean {
	if (startsFolded(item)) return opened.has(item.key);
	return !folded.has(item.key);
}

/** A long message folded: its first rows, then one muted line that counts the rest. Short ones stay as they are. */
export function foldLong(lines: Line[], key: string, width: number, theme: Theme): Line[] {
	if (lines.length <= LONG_MESSAGE_ROWS) return lines;
	const rest = lines.length - FOLDED_MESSAGE_ROWS;
	const more = makeLine(`${key}:folded`, [{ text: `  … ${rest} more lines (folded)`, color: theme.muted }], width);
	return [...lines.slice(0, FOLDED_MESSAGE_ROWS), more];
}
