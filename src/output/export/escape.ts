// The escaping every export goes through: session text (prompts, model text, file contents, command output, paths,
// model names) never becomes markup in Markdown or in HTML. Markdown is escaped for CommonMark and GitHub's GFM.

const HTML: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text as HTML text or as an attribute value in double quotes: `& < > " '` as entities. */
export function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (c) => HTML[c] ?? c);
}

/** The entities marked leaves in text as the model wrote them, decoded as the app's chat decodes them. */
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", nbsp: "\u00a0" };

/** `&amp;`, `&lt;`… in markdown text as the characters they stand for. */
export function decodeEntities(text: string): string {
	return text.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ENTITIES[name] ?? "");
}

/** The longest run of `char` (one UTF-16 unit) in `text`. O(text), and a single search when there is none. */
function longestRun(text: string, char: string): number {
	let longest = 0;
	for (let at = text.indexOf(char); at !== -1; ) {
		let end = at + 1;
		while (text[end] === char) end++;
		longest = Math.max(longest, end - at);
		at = text.indexOf(char, end);
	}
	return longest;
}

/**
 * `content` as a fenced code block whose fence is one backtick longer than any run of backticks in it (at least
 * three), so no line of the content can close it; `lang` is kept only when it is a plain word.
 */
export function fenced(content: string, lang = ""): string {
	const fence = "`".repeat(Math.max(3, longestRun(content, "`") + 1));
	const info = /^[\w+#.-]{1,30}$/.test(lang) ? lang : "";
	const body = content.endsWith("\n") ? content : `${content}\n`;
	return `${fence}${info}\n${content === "" ? "" : body}${fence}`;
}

/**
 * Characters markdown may read as syntax anywhere in a line: `[` a link, `*` emphasis… are backslash-escaped; `< > &`
 * become entities, which are text in markdown and in an HTML block alike (where a backslash would not stop a tag).
 */
const INLINE_SYNTAX = /[\\`*_[\]|~]|[<>&]/g;
/** What starts a block at the beginning of a line: a heading, quote, list item, setext underline or ordered item. */
const LINE_START = /^( {0,3})([#>+=-]|\d{1,9}(?=[.)]))/;

/** One line of text as markdown that renders as exactly that text (leading indentation kept under code's four). */
function mdLine(line: string): string {
	const indent = /^[ \t]*/.exec(line)?.[0] ?? "";
	// Four spaces would make an indented code block, where the escapes below would show.
	const rest = `${" ".repeat(Math.min(3, indent.length))}${line.slice(indent.length)}`;
	return rest
		.replace(INLINE_SYNTAX, (c) => HTML[c] ?? `\\${c}`)
		.replace(LINE_START, (_, space: string, mark: string) => {
			return /^\d/.test(mark) ? `${space}${mark}\\` : `${space}\\${mark}`;
		});
}

/** Text inside a markdown paragraph that renders as exactly that text: no HTML, link, emphasis or block syntax. */
export function mdText(text: string): string {
	return text.split("\n").map(mdLine).join("\n");
}

/**
 * Plain text (a prompt, thinking) as markdown paragraphs that render as that text: each line break kept (a hard
 * break), blank lines between paragraphs.
 */
export function mdPlain(text: string): string {
	return text
		.replace(/\r\n?/g, "\n")
		.split(/\n[ \t]*\n/)
		.map((paragraph) => paragraph.split("\n").map(mdLine).join("\\\n"))
		.filter((paragraph) => paragraph.trim() !== "")
		.join("\n\n");
}

/**
 * `text` as a markdown code span: delimited by one backtick more than its longest run (padded where it must be); in a
 * table cell `|` is escaped (GFM splits cells before it reads code spans). Line breaks become spaces.
 */
export function mdCode(text: string, inTable = false): string {
	const content = text.replace(/\r?\n/g, " ");
	if (content === "") return "";
	const ticks = "`".repeat(longestRun(content, "`") + 1);
	// A backtick or a space at either end needs a space between it and the delimiter (one is dropped each side).
	const pad = /^[` ]|[` ]$/.test(content) ? " " : "";
	return `${ticks}${pad}${inTable ? content.replaceAll("|", "\\|") : content}${pad}${ticks}`;
}

/** Whether a link target may stay a link in an export: web and mail addresses only (never javascript:, data:…). */
export function safeHref(href: string): boolean {
	// biome-ignore lint/suspicious/noControlCharactersInRegex: a control character in a link target is refused.
	return /^(https?:\/\/|mailto:)[^\s\x00-\x1f\x7f]*$/i.test(href.trim());
}

/** A safe href as a markdown link destination: characters that would end or change it percent-encoded. */
export function mdHref(href: string): string {
	return href.trim().replace(/[\s<>()\\`"']/g, (c) => encodeURIComponent(c));
}
