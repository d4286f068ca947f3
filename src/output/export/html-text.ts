import { Lexer, type MarkedToken, type Token, type Tokens } from "marked";
import { decodeEntities, escapeHtml, safeHref } from "./escape.js";

/**
 * The model's markdown as HTML for an export: read by marked into tokens and written out by gar, tag by tag, so the
 * only elements and attributes on the page are gar's. Text is escaped, HTML in the model's text shows as text,
 * images as their description (a page makes no requests), links only to web and mail addresses.
 */
export function exportHtml(text: string): string {
	return blocks(Lexer.lex(text, { gfm: true }));
}

function blocks(tokens: readonly Token[]): string {
	return tokens.map((token) => block(token as MarkedToken)).join("");
}

const text = (value: string) => escapeHtml(decodeEntities(value));
/** Text kept as written, line breaks included (HTML in the model's text, an unknown token). */
const shown = (value: string) => `<p class="raw">${escapeHtml(value)}</p>`;

function block(token: MarkedToken): string {
	switch (token.type) {
		case "space":
		case "def":
			return "";
		case "code": {
			const lang = token.lang && /^[\w+#.-]{1,30}$/.test(token.lang) ? ` data-lang="${escapeHtml(token.lang)}"` : "";
			return `<pre class="code"${lang}><code>${escapeHtml(token.text)}</code></pre>\n`;
		}
		case "heading": {
			// Below the page's own headings (the title, each message).
			const level = Math.min(6, token.depth + 2);
			return `<h${level}>${inline(token.tokens)}</h${level}>\n`;
		}
		case "paragraph":
			return `<p>${inline(token.tokens)}</p>\n`;
		case "text":
			return token.tokens ? inline(token.tokens) : text(token.text);
		case "blockquote":
			return `<blockquote>${blocks(token.tokens)}</blockquote>\n`;
		case "list":
			return list(token);
		case "table":
			return table(token);
		case "hr":
			return "<hr>\n";
		case "html":
			return shown(token.text);
		default:
			return shown(token.raw);
	}
}

function list(token: Tokens.List): string {
	const tag = token.ordered ? "ol" : "ul";
	const start = token.ordered && typeof token.start === "number" && token.start !== 1 ? ` start="${token.start}"` : "";
	const items = token.items.map((item) => {
		const box = item.task ? `<span class="task">${item.checked ? "☑" : "☐"}</span> ` : "";
		return `<li>${box}${blocks(item.tokens.filter((t) => t.type !== "checkbox"))}</li>`;
	});
	return `<${tag}${start}>${items.join("")}</${tag}>\n`;
}

function table(token: Tokens.Table): string {
	const cell = (tag: "th" | "td", c: Tokens.TableCell) => {
		const align = c.align ? ` class="align-${c.align}"` : "";
		return `<${tag}${align}>${inline(c.tokens)}</${tag}>`;
	};
	const head = `<tr>${token.header.map((c) => cell("th", c)).join("")}</tr>`;
	const rows = token.rows.map((r) => `<tr>${r.map((c) => cell("td", c)).join("")}</tr>`).join("");
	return `<table><thead>${head}</thead><tbody>${rows}</tbody></table>\n`;
}

function inline(tokens: readonly Token[] | undefined): string {
	let out = "";
	for (const token of (tokens ?? []) as MarkedToken[]) out += span(token);
	return out;
}

function span(token: MarkedToken): string {
	switch (token.type) {
		case "text":
			return token.tokens ? inline(token.tokens) : text(token.text);
		case "escape":
			return escapeHtml(token.text);
		case "strong":
			return `<strong>${inline(token.tokens)}</strong>`;
		case "em":
			return `<em>${inline(token.tokens)}</em>`;
		case "del":
			return `<del>${inline(token.tokens)}</del>`;
		case "codespan":
			return `<code>${escapeHtml(token.text)}</code>`;
		case "br":
			return "<br>";
		case "link": {
			const label = inline(token.tokens);
			if (safeHref(token.href))
				return `<a href="${escapeHtml(token.href.trim())}" rel="noopener noreferrer">${label}</a>`;
			return token.text === token.href ? escapeHtml(token.href) : `${label} (${escapeHtml(token.href)})`;
		}
		case "image":
			return `<span class="image">[image: ${escapeHtml(token.text || token.href)}]</span>`;
		case "checkbox":
			return "";
		case "html":
			return escapeHtml(token.text);
		default:
			return escapeHtml(token.raw);
	}
}
