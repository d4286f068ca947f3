// What an exported page may hold, checked on parse5's tree (the HTML standard's parser, as a browser builds it):
// gar's own elements and attributes only, links only to web and mail addresses.
import { type DefaultTreeAdapterMap, parse, parseFragment } from "parse5";

type Node = DefaultTreeAdapterMap["node"];
type Element = DefaultTreeAdapterMap["element"];

/** The elements an export is made of (the page's, and those a markdown renderer makes of the Markdown export). */
export const ALLOWED_ELEMENTS = new Set([
	"html",
	"head",
	"body",
	"meta",
	"title",
	"style",
	"header",
	"main",
	"section",
	"div",
	"p",
	"span",
	"h1",
	"h2",
	"h3",
	"h4",
	"h5",
	"h6",
	"dl",
	"dt",
	"dd",
	"details",
	"summary",
	"pre",
	"code",
	"strong",
	"em",
	"del",
	"sub",
	"a",
	"ul",
	"ol",
	"li",
	"input",
	"table",
	"thead",
	"tbody",
	"tr",
	"th",
	"td",
	"blockquote",
	"hr",
	"br",
]);

const ALLOWED_ATTRIBUTES = new Set([
	"class",
	"lang",
	"charset",
	"http-equiv",
	"content",
	"name",
	"href",
	"rel",
	"start",
	"data-lang",
	"align",
	// A task list item's checkbox, as a markdown renderer draws it.
	"type",
	"checked",
	"disabled",
]);

function* elements(node: Node): Generator<Element> {
	if ("tagName" in node) yield node;
	const children = "childNodes" in node ? node.childNodes : [];
	for (const child of children) yield* elements(child);
	if ("content" in node && node.content) yield* elements(node.content as Node);
}

/** The text a reader sees (text nodes, and the text of `<style>`, `<title>` and comments). */
export function textOf(node: Node): string {
	if ("value" in node && typeof node.value === "string") return node.value;
	if ("data" in node && typeof node.data === "string") return node.data;
	if ("tagName" in node && node.tagName === "br") return "\n";
	const children = "childNodes" in node ? node.childNodes : [];
	return children.map(textOf).join("");
}

/** Every element or attribute the page should not have: anything but gar's own, links but to http(s) and mailto. */
export function foreignMarkup(root: Node): string[] {
	const found: string[] = [];
	for (const element of elements(root)) {
		if (!ALLOWED_ELEMENTS.has(element.tagName)) found.push(`<${element.tagName}>`);
		for (const { name, value } of element.attrs) {
			if (!ALLOWED_ATTRIBUTES.has(name)) found.push(`<${element.tagName} ${name}>`);
			if (name === "href" && !/^(https?:\/\/|mailto:)/i.test(value)) found.push(`<a href="${value}">`);
			if (name === "type" && value !== "checkbox") found.push(`<${element.tagName} type="${value}">`);
		}
	}
	return found;
}

/** The elements of `root` named `tag` (with `className` among their classes, when given). */
export function findAll(root: Node, tag: string, className?: string): Element[] {
	return [...elements(root)].filter(
		(e) =>
			e.tagName === tag &&
			(className === undefined ||
				(e.attrs.find((a) => a.name === "class")?.value ?? "").split(" ").includes(className)),
	);
}

export const attr = (element: Element, name: string) => element.attrs.find((a) => a.name === name)?.value;

export { parse, parseFragment };
