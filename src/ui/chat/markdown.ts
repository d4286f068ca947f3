import type { MarkedToken, marked, Token, Tokens } from "marked";
import type { Theme } from "../theme/theme.js";
import { highlightCode, loadHighlighter } from "./highlight.js";
import { type Span, type Style, spansWidth, textWidth, wrapSpans } from "./lines.js";

type Rows = Span[][];

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", nbsp: " " };
const decode = (text: string) =>
	text.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ENTITIES[name] ?? "");

/** Inline tokens as styled spans; a soft line break is a space, a hard one (`br`) a newline. */
function inline(tokens: Token[] | undefined, style: Style, theme: Theme): Span[] {
	const out: Span[] = [];
	for (const token of (tokens ?? []) as MarkedToken[]) {
		switch (token.type) {
			case "text":
				if (token.tokens) out.push(...inline(token.tokens, style, theme));
				else out.push({ ...style, text: decode(token.text).replace(/[\t\n]/g, " ") });
				break;
			case "escape":
				out.push({ ...style, text: token.text });
				break;
			case "strong":
				out.push(...inline(token.tokens, { ...style, bold: true }, theme));
				break;
			case "em":
				out.push(...inline(token.tokens, { ...style, italic: true }, theme));
				break;
			case "del":
				out.push(...inline(token.tokens, { ...style, dim: true }, theme));
				break;
			case "codespan":
				out.push({ ...style, text: token.text.replace(/\n/g, " "), color: theme.code.default });
				break;
			case "link":
				out.push(...inline(token.tokens, { ...style, color: theme.accent, underline: true }, theme));
				if (token.text !== token.href && `mailto:${token.text}` !== token.href) {
					out.push({ text: ` (${token.href})`, color: theme.muted });
				}
				break;
			case "image":
				out.push({ text: `[image: ${token.text || token.href}]`, color: theme.muted });
				break;
			case "br":
				out.push({ text: "\n" });
				break;
			case "checkbox":
				break;
			case "html":
				out.push({ ...style, text: token.text.replace(/\n/g, " "), color: theme.muted });
				break;
			default:
				out.push({ ...style, text: token.raw });
		}
	}
	return out;
}

const BULLETS = ["•", "◦", "▪"];

function list(token: Tokens.List, width: number, depth: number, theme: Theme): Rows {
	const start = typeof token.start === "number" ? token.start : 1;
	const numberWidth = String(start + token.items.length - 1).length + 1;
	const rows: Rows = [];
	token.items.forEach((item, i) => {
		let marker: Span;
		if (item.task) marker = item.checked ? { text: "☑", color: theme.success } : { text: "☐", color: theme.muted };
		else if (token.ordered) marker = { text: `${start + i}.`.padStart(numberWidth), color: theme.accent };
		else marker = { text: BULLETS[depth % BULLETS.length] as string, color: theme.accent };
		const indent = textWidth(marker.text) + 1;
		const body = blocks(item.tokens, width - indent, depth + 1, theme, item.loose);
		if (body.length === 0) body.push([]);
		body.forEach((row, j) => {
			rows.push([j === 0 ? { ...marker, text: `${marker.text} ` } : { text: " ".repeat(indent) }, ...row]);
		});
	});
	return rows;
}

type Align = "center" | "left" | "right" | null;

function pad(cell: Span[], width: number, align: Align): Span[] {
	const room = width - spansWidth(cell);
	if (room <= 0) return cell;
	const left = align === "right" ? room : align === "center" ? Math.floor(room / 2) : 0;
	return [{ text: " ".repeat(left) }, ...cell, { text: " ".repeat(room - left) }];
}

/** A table with aligned columns when it fits; otherwise one wrapped "header: cell · …" line per row. */
function table(token: Tokens.Table, width: number, theme: Theme): Rows {
	const head = token.header.map((cell) => inline(cell.tokens, { bold: true }, theme));
	const body = token.rows.map((row) => row.map((cell) => inline(cell.tokens, {}, theme)));
	const widths = head.map((cell, c) => Math.max(spansWidth(cell), ...body.map((row) => spansWidth(row[c] ?? []))));
	const total = widths.reduce((sum, w) => sum + w, 0) + 3 * (widths.length - 1);
	const separator = { text: " │ ", color: theme.border };
	if (total <= width) {
		const line = (cells: Span[][]) =>
			cells.flatMap((cell, c) => [...(c > 0 ? [separator] : []), ...pad(cell, widths[c] ?? 0, token.align[c] ?? null)]);
		const rule = widths.map((w) => "─".repeat(w)).join("─┼─");
		return [line(head), [{ text: rule, color: theme.border }], ...body.map((row) => line(row))];
	}
	const rows: Rows = [];
	for (const row of body) {
		const spans = row.flatMap((cell, c) => [
			...(c > 0 ? [{ text: " · ", color: theme.border }] : []),
			{ text: `${token.header[c]?.text ?? ""}: `, color: theme.muted },
			...cell,
		]);
		rows.push(...wrapSpans(spans, width, width - 2).map((r, i) => (i === 0 ? r : [{ text: "  " }, ...r])));
	}
	return rows;
}

/** A fenced or indented code block: highlighted, indented two columns; long lines wrap at spaces behind "↪". */
function code(token: Tokens.Code, width: number, theme: Theme): Rows {
	const rows: Rows = [];
	const text = token.text.replace(/\n$/, "");
	for (const row of highlightCode(text, token.lang, theme)) {
		const wrapped = wrapSpans(row, width - 2);
		wrapped.forEach((part, i) => {
			rows.push([i === 0 ? { text: "  " } : { text: "↪ ", color: theme.muted }, ...part]);
		});
	}
	return rows;
}

function block(token: MarkedToken, width: number, depth: number, theme: Theme): Rows {
	switch (token.type) {
		case "heading": {
			const style: Style = { bold: true, color: theme.accent, ...(token.depth === 1 ? { underline: true } : {}) };
			return wrapSpans(inline(token.tokens, style, theme), width);
		}
		case "paragraph":
			return wrapSpans(inline(token.tokens, {}, theme), width);
		case "text":
			return wrapSpans(token.tokens ? inline(token.tokens, {}, theme) : [{ text: decode(token.text) }], width);
		case "code":
			return code(token, width, theme);
		case "list":
			return list(token, width, depth, theme);
		case "blockquote":
			return blocks(token.tokens, width - 2, depth, theme, true).map((row) => [
				{ text: "│ ", color: theme.muted },
				...row.map((span) => ({ ...span, italic: true })),
			]);
		case "table":
			return table(token, width, theme);
		case "hr":
			return [[{ text: "─".repeat(Math.max(1, width)), color: theme.border }]];
		case "html":
			return wrapSpans([{ text: token.text.replace(/\n+$/, ""), color: theme.muted }], width);
		case "space":
		case "def":
		case "checkbox":
			return [];
		default:
			return wrapSpans([{ text: token.raw.replace(/\n+$/, "") }], width);
	}
}

/** Block tokens as rows; `loose` puts a blank row between blocks (top level, loose list items, quotes). */
function blocks(tokens: Token[], width: number, depth: number, theme: Theme, loose: boolean): Rows {
	const rows: Rows = [];
	for (const token of tokens) {
		const part = block(token as MarkedToken, Math.max(1, width), depth, theme);
		if (part.length === 0) continue;
		if (loose && rows.length > 0) rows.push([]);
		rows.push(...part);
	}
	return rows;
}

/**
 * Markdown as rows of styled spans at most `width` columns wide (give it sanitized text). Uses marked's lexer
 * only: nothing is rendered as HTML.
 */
export function renderMarkdown(text: string, width: number, theme: Theme): Span[][] {
	if (!lexer) return text.split("\n").flatMap((line) => wrapSpans([{ text: line, color: theme.assistant }], width));
	return blocks(lexer(text), width, 0, theme, true);
}

let lexer: typeof marked.lexer | undefined;

/**
 * Loads marked and lowlight (~30 ms of start-up): the app starts it after its first frame and awaits it before it
 * shows a reply. Until then `renderMarkdown` shows text as plain wrapped lines.
 */
export async function loadMarkdown(): Promise<void> {
	await Promise.all([loadMarked(), loadHighlighter()]);
}

/**
 * Loads marked alone: replies are laid out as markdown, code blocks in one colour until lowlight loads (their rows do
 * not move when it colours them). A resumed session's last screen is drawn so, before lowlight's ~20 ms.
 */
export async function loadMarked(): Promise<void> {
	if (lexer) return;
	const { marked: loaded } = await import("marked");
	lexer ??= loaded.lexer.bind(loaded);
}
