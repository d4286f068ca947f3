import { clean, type Line, makeLine, type Span } from "../chat/lines.js";
import type { RowView } from "../state/tree-model.js";
import type { Theme } from "../theme/theme.js";

/** Guides deeper than this share of the width are cut from the left ("…" first): the text must stay readable. */
const MAX_GUIDE_SHARE = 0.4;

const KIND_MARK: Readonly<Record<RowView["row"]["kind"], string>> = {
	prompt: "you › ",
	reply: "  ",
	compaction: "⟳ ",
	model: "» ",
	other: "? ",
};

function guideSpan(guide: string, width: number, theme: Theme): Span {
	const max = Math.floor(width * MAX_GUIDE_SHARE);
	const text = guide.length > max ? `…${guide.slice(guide.length - max + 1)}` : guide;
	return { text, color: theme.border };
}

/** The colour of a row's text: the current path's in full colour, the other branches muted. */
function textColor(view: RowView, theme: Theme): string {
	if (!view.onPath) return theme.muted;
	if (view.row.kind === "prompt") return theme.user;
	if (view.row.kind === "reply") return theme.assistant;
	return theme.warning;
}

/**
 * One row of the session tree as a chat line (chat/ChatPane draws it): the selection mark, the tree guides, what
 * the row is and its one line, then its labels, its branches (or what its fold hides) and the current leaf. Every
 * text from the session is sanitized; the line is cut to `width`.
 */
export function treeLine(view: RowView, selected: boolean, theme: Theme, width: number): Line {
	const color = textColor(view, theme);
	const mark: Span = selected ? { text: "› ", color: theme.accent, bold: true } : { text: "  " };
	const spans: Span[] = [
		mark,
		guideSpan(view.guide, width, theme),
		{ text: KIND_MARK[view.row.kind], color, bold: view.row.kind === "prompt" && view.onPath },
		{ text: clean(view.text).replace(/\n/g, " "), color },
	];
	for (const label of view.labels) spans.push({ text: ` [${clean(label).replace(/\n/g, " ")}]`, color: theme.warning });
	if (view.branches) spans.push({ text: ` ◆ ${view.branches} branches`, color: theme.accent });
	if (view.hidden !== undefined) spans.push({ text: ` ▸ folded: ${view.hidden} more`, color: theme.muted });
	if (view.leaf) spans.push({ text: " ← current", color: theme.accent, bold: true });
	if (selected) for (let i = 1; i < spans.length; i++) spans[i] = { ...(spans[i] as Span), inverse: true };
	return makeLine(`tree:${view.row.seq}:${selected ? 1 : 0}`, spans, width);
}

/**
 * The lines of the rows on screen, kept per row while what they show is the same: a key that moves the selection
 * makes two lines anew, and the chat pane redraws only those (its rows are memoized by line).
 */
export class TreeLines {
	private readonly kept = new WeakMap<RowView["row"], { shape: string; line: Line }>();

	line(view: RowView, selected: boolean, theme: Theme, width: number): Line {
		const shape = `${selected}|${width}|${theme.name}|${view.guide}|${view.branches}|${view.hidden}`;
		const kept = this.kept.get(view.row);
		if (kept?.shape === shape) return kept.line;
		const line = treeLine(view, selected, theme, width);
		this.kept.set(view.row, { shape, line });
		return line;
	}
}
