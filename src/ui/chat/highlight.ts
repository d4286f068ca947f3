import type { createLowlight } from "lowlight";
import type { Theme } from "../theme/theme.js";
import { expandTabs, type Span } from "./lines.js";

type Lowlight = ReturnType<typeof createLowlight>;
type Root = ReturnType<Lowlight["highlight"]>;
type Node = Root | Root["children"][number];

/** Above this size a block is shown plain: highlighting is the costliest part of a frame that shows it. */
const MAX_HIGHLIGHT_CHARS = 64 * 1024;

let lowlight: Lowlight | undefined;

/** Loads lowlight and its common languages (~20 ms): after the first frame, before any reply is drawn. */
export async function loadHighlighter(): Promise<void> {
	if (lowlight) return;
	const { common, createLowlight } = await import("./lowlight-common.js");
	lowlight ??= createLowlight(common);
}

/** highlight.js scope → theme token (the first class that maps wins; nested scopes override outer ones). */
const SCOPES: Record<string, keyof Theme["code"]> = {
	keyword: "keyword",
	tag: "keyword",
	name: "keyword",
	"selector-tag": "keyword",
	operator: "keyword",
	built_in: "builtin",
	type: "type",
	class_: "type",
	literal: "literal",
	symbol: "literal",
	bullet: "literal",
	number: "number",
	string: "string",
	regexp: "string",
	char: "string",
	quote: "comment",
	comment: "comment",
	doc: "comment",
	function_: "function",
	title: "title",
	section: "title",
	attr: "attr",
	attribute: "attr",
	property: "attr",
	"selector-attr": "attr",
	"selector-class": "attr",
	"selector-id": "attr",
	variable: "variable",
	params: "variable",
	"template-variable": "variable",
	meta: "meta",
	"meta-keyword": "meta",
	link: "string",
};

function scopeOf(classes: unknown): keyof Theme["code"] | undefined {
	if (!Array.isArray(classes)) return undefined;
	// "hljs-title function_" is a function name: the sub-scope is more specific than the scope.
	for (const name of [...classes].reverse()) {
		const scope = SCOPES[String(name).replace(/^hljs-/, "")];
		if (scope) return scope;
	}
	return undefined;
}

/** The language lowlight knows for a fence's info string ("ts", "TypeScript {title}"), or undefined. */
export function knownLanguage(info: string | undefined): string | undefined {
	const lang = info?.trim().split(/\s+/, 1)[0]?.toLowerCase();
	if (!lang || !lowlight) return undefined;
	return lowlight.registered(lang) ? lang : undefined;
}

/**
 * A code block as rows of coloured spans, one per source line (tabs expanded). Unknown languages and very
 * large blocks are plain `theme.code.default`. Never throws.
 */
export function highlightCode(code: string, info: string | undefined, theme: Theme): Span[][] {
	const lang = code.length <= MAX_HIGHLIGHT_CHARS ? knownLanguage(info) : undefined;
	const rows: Span[][] = [[]];
	const add = (text: string, color: string) => {
		const parts = text.split("\n");
		for (let i = 0; i < parts.length; i++) {
			if (i > 0) rows.push([]);
			const part = parts[i] as string;
			if (part !== "") (rows[rows.length - 1] as Span[]).push({ text: part, color });
		}
	};
	let tree: Root | undefined;
	try {
		tree = lang && lowlight ? lowlight.highlight(lang, code) : undefined;
	} catch {
		tree = undefined;
	}
	if (!tree) add(code, theme.code.default);
	else {
		const walk = (node: Node, color: string) => {
			if (node.type === "text") add(node.value, color);
			else if (node.type === "element" || node.type === "root") {
				const scope = node.type === "element" ? scopeOf(node.properties.className) : undefined;
				const inner = scope ? theme.code[scope] : color;
				for (const child of node.children) walk(child, inner);
			}
		};
		walk(tree, theme.code.default);
	}
	return rows.map((row) => expandRow(row));
}

/** Tabs expanded across the spans of one row (a tab stop depends on the columns before it). */
function expandRow(row: Span[]): Span[] {
	if (!row.some((span) => span.text.includes("\t"))) return row;
	let column = "";
	return row.map((span) => {
		const expanded = expandTabs(column + span.text).slice(column.length);
		column += expanded;
		return { ...span, text: expanded };
	});
}
