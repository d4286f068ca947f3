import { Lexer, type MarkedToken, type Token, type Tokens } from "marked";
import { decodeEntities, fenced, mdCode, mdHref, mdPlain, mdText, safeHref } from "./escape.js";

/**
 * The model's markdown, rebuilt for an export: read by marked into tokens, then written out again with every piece
 * of text escaped, code in fences and code spans of gar's own making, links only to web and mail addresses, images
 * and HTML as text. What a renderer then reads is gar's structure and the model's text, never the model's markup.
 */
export function exportMarkdown(text: string): string {
	return blocks(Lexer.lex(text, { gfm: true }));
}

function blocks(tokens: readonly Token[]): string {
	return tokens
		.map((token) => block(token as MarkedToken))
		.filter((part) => part !== "")
		.join("\n\n");
}

function block(token: MarkedToken): string {
	switch (token.type) {
		case "space":
		case "def":
			// A reference definition renders as nothing; the links that use it carry its target.
			return "";
		case "code":
			return fenced(token.text, token.lang ?? "");
		case "heading":
			return `${"#".repeat(token.depth)} ${inline(token.tokens)}`;
		case "paragraph":
			return inline(token.tokens);
		case "text":
			return token.tokens ? inline(token.tokens) : mdText(decodeEntities(token.text));
		case "blockquote":
			return blocks(token.tokens)
				.split("\n")
				.map((line) => (line === "" ? ">" : `> ${line}`))
				.join("\n");
		case "list":
			return list(token);
		case "table":
			return table(token);
		case "hr":
			return "---";
		case "html":
			return mdPlain(token.text);
		default:
			return mdPlain(token.raw);
	}
}

function list(token: Tokens.List): string {
	const start = typeof token.start === "number" ? token.start : 1;
	const items = token.items.map((item, i) => {
		const marker = token.ordered ? `${start + i}.` : "-";
		const box = item.task ? `[${item.checked ? "x" : " "}] ` : "";
		const body = blocks(item.tokens.filter((t) => t.type !== "checkbox"));
		const pad = " ".repeat(marker.length + 1);
		return `${marker} ${box}${body
			.split("\n")
			.join(`\n${pad}`)
			.replace(/\n +\n/g, "\n\n")}`;
	});
	return items.join(token.loose ? "\n\n" : "\n");
}

function table(token: Tokens.Table): string {
	const row = (cells: Tokens.TableCell[]) => `| ${cells.map((c) => inline(c.tokens, true) || " ").join(" | ")} |`;
	const align = token.align.map((a) => (a === "center" ? ":-:" : a === "right" ? "--:" : a === "left" ? ":--" : "---"));
	return [row(token.header), `| ${align.join(" | ")} |`, ...token.rows.map(row)].join("\n");
}

function inline(tokens: readonly Token[] | undefined, inTable = false): string {
	let out = "";
	for (const token of (tokens ?? []) as MarkedToken[]) out += span(token, inTable);
	// A cell is one line; a line break inside one would end the table.
	return inTable ? out.replace(/\\?\n/g, " ") : out;
}

function span(token: MarkedToken, inTable: boolean): string {
	switch (token.type) {
		case "text":
			return token.tokens ? inline(token.tokens, inTable) : mdText(decodeEntities(token.text));
		case "escape":
			return mdText(token.text);
		case "strong":
			return `**${inline(token.tokens, inTable)}**`;
		case "em":
			return `*${inline(token.tokens, inTable)}*`;
		case "del":
			return `~~${inline(token.tokens, inTable)}~~`;
		case "codespan":
			return mdCode(token.text, inTable);
		case "br":
			return "\\\n";
		case "link":
			return link(token, inTable);
		case "image":
			return mdText(`[image: ${token.text || token.href}]`);
		case "checkbox":
			return "";
		case "html":
			return mdText(token.text);
		default:
			return mdText(token.raw);
	}
}

/** A link to a web or mail address stays one; any other target (javascript:, data:, a file) is shown as text. */
function link(token: Tokens.Link, inTable: boolean): string {
	const label = inline(token.tokens, inTable);
	if (safeHref(token.href)) return `[${label}](${mdHref(token.href)})`;
	return token.text === token.href ? mdText(token.href) : `${label} (${mdText(token.href)})`;
}
