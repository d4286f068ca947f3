import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { readRegularFile } from "../text/regular-file.js";

/** Where a template comes from: gar itself, the user's prompts folder, or a trusted project's. */
export type TemplateSource = "built-in" | "user" | "project";

/**
 * A prompt template: a Markdown file whose text, its arguments filled in, is sent as the person's message. `problem`
 * says why it cannot run (its front matter is malformed, its name cannot be a command, a built-in has its name).
 */
export type PromptTemplate = {
	name: string;
	description: string | null;
	/** What the arguments are, for completion (`argument-hint`): "FILE [FOCUS]". */
	argumentHint: string | null;
	body: string;
	source: TemplateSource;
	file: string | null;
	problem?: string;
};

/** A template file larger than this is not read: a prompt is a page, not a book. */
const MAX_TEMPLATE_BYTES = 256 * 1024;
/** A command name: letters, digits, `-` and `_`, starting with a letter or a digit. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
/** Front matter keys gar reads; others (Claude Code's `allowed-tools`, `model`, …) are ignored. */
const DESCRIPTION = new Set(["description"]);
const HINT = new Set(["argument-hint", "argument_hint", "args"]);

/** The built-in templates. `/init` asks the model to write or update the project's AGENTS.md. */
export const BUILT_IN_TEMPLATES: readonly PromptTemplate[] = [
	{
		name: "init",
		description: "write or update AGENTS.md for this project",
		argumentHint: "[focus]",
		source: "built-in",
		file: null,
		body: [
			"Write or update AGENTS.md at the root of this project: the notes a coding agent (and a new contributor) needs",
			"before changing anything here.",
			"",
			"First read what the project already says about itself: README, AGENTS.md or CLAUDE.md if present, the",
			"package or build files, the CI configuration, and the layout of the source and test folders. Then write, in",
			"short plain sections:",
			"- what the project is and how it is built, run and tested (the exact commands; how to run one test);",
			"- the map of the code: the main folders and files and what each is for, and how data flows through them;",
			"- the conventions to keep: style, naming, error handling, tests, commit messages;",
			"- the gotchas: what is easy to get wrong here, and why.",
			"",
			"If AGENTS.md exists, keep what is still true, fix what is not, and add what is missing; do not pad it. Every",
			"command you write down must be one you have seen in the project's own files. $ARGUMENTS",
		].join("\n"),
	},
];

/**
 * The templates of the user's folder and, when given (a trusted project), the project's: one per name, the
 * project's winning over the user's; after gar's built-in ones, which no file can shadow (`reserved`: the names of
 * the built-in commands, also not to be shadowed). Files that cannot run are kept with their `problem`.
 */
export function loadTemplates(
	dirs: { user: string; project?: string | null },
	reserved: readonly string[],
): PromptTemplate[] {
	const byName = new Map<string, PromptTemplate>();
	for (const [dir, source] of [
		[dirs.user, "user"],
		[dirs.project, "project"],
	] as const) {
		if (!dir) continue;
		for (const template of readFolder(dir, source)) byName.set(template.name.toLowerCase(), template);
	}
	const builtIn = new Set([...reserved, ...BUILT_IN_TEMPLATES.map((t) => t.name)]);
	const files = [...byName.values()].map((template) =>
		builtIn.has(template.name.toLowerCase())
			? {
					...template,
					problem: `/${template.name} is a built-in command: a template cannot replace it (rename the file)`,
				}
			: template,
	);
	files.sort((a, b) => a.name.localeCompare(b.name));
	return [...BUILT_IN_TEMPLATES, ...files];
}

/** The `.md` files of a folder as templates, by name; a missing folder has none. */
function readFolder(dir: string, source: TemplateSource): PromptTemplate[] {
	let names: string[];
	try {
		names = readdirSync(dir).filter((name) => name.toLowerCase().endsWith(".md"));
	} catch {
		return [];
	}
	names.sort();
	return names.flatMap((entry) => {
		const file = join(dir, entry);
		try {
			if (!statSync(file).isFile()) return [];
		} catch {
			return [];
		}
		return [readTemplate(file, entry.slice(0, -3), source)];
	});
}

/** One template file: its front matter read, or the reason it cannot run. */
export function readTemplate(file: string, name: string, source: TemplateSource): PromptTemplate {
	const base = { name, description: null, argumentHint: null, body: "", source, file };
	if (!NAME.test(name)) {
		return { ...base, problem: `"${name}" cannot be a command name (letters, digits, - and _ only): rename the file` };
	}
	let text: string;
	try {
		const bytes = readRegularFile(file, MAX_TEMPLATE_BYTES);
		if (bytes === null) return { ...base, problem: `larger than ${MAX_TEMPLATE_BYTES / 1024} KB` };
		text = bytes.toString("utf8");
	} catch (error) {
		return { ...base, problem: `cannot be read: ${error instanceof Error ? error.message : String(error)}` };
	}
	const parsed = parseTemplate(text);
	if ("problem" in parsed) return { ...base, problem: parsed.problem };
	return { ...base, ...parsed };
}

/**
 * A template's text: an optional front matter (`---` lines around `key: value` lines; `description` and
 * `argument-hint` are read, values may be quoted), then the body. Malformed front matter is a problem, in words.
 */
export function parseTemplate(
	text: string,
): { description: string | null; argumentHint: string | null; body: string } | { problem: string } {
	const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
	if (lines[0]?.trim() !== "---") return { description: null, argumentHint: null, body: text.trim() };
	const end = lines.findIndex((line, i) => i > 0 && line.trim() === "---");
	if (end < 0) return { problem: "its front matter has no closing --- line" };
	let description: string | null = null;
	let argumentHint: string | null = null;
	for (let i = 1; i < end; i++) {
		const line = lines[i] ?? "";
		if (line.trim() === "" || line.trim().startsWith("#")) continue;
		const match = /^([A-Za-z][A-Za-z0-9_-]*)\s*:(.*)$/.exec(line);
		if (!match) return { problem: `front matter line ${i + 1} is not "key: value": ${line.trim().slice(0, 60)}` };
		const key = (match[1] ?? "").toLowerCase();
		const value = unquote((match[2] ?? "").trim());
		if (value === null) return { problem: `front matter line ${i + 1}: a quote is not closed` };
		if (/^[|>][-+]?$/.test(value))
			return { problem: `front matter line ${i + 1}: multi-line values are not supported` };
		if (DESCRIPTION.has(key)) description = value;
		else if (HINT.has(key)) argumentHint = value;
	}
	const body = lines
		.slice(end + 1)
		.join("\n")
		.trim();
	if (body === "") return { problem: "it has no text after its front matter" };
	return { description, argumentHint, body };
}

/** A value without its quotes ("a", 'b'); null when a quote opens and does not close. */
function unquote(value: string): string | null {
	const quote = value[0];
	if (quote !== '"' && quote !== "'") return value;
	if (value.length < 2 || value.at(-1) !== quote) return null;
	return value.slice(1, -1);
}

/** The arguments as words: spaces separate them, "double" or 'single' quotes keep a phrase together. */
export function templateArgs(args: string): string[] {
	const words: string[] = [];
	for (const match of args.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(match[1] ?? match[2] ?? match[3] ?? "");
	return words;
}

/**
 * The message a template sends: `$ARGUMENTS` and `{{args}}` become all the arguments, `$1` … `$9` each one (empty
 * when not given). A template that uses none of them gets the arguments after its text, as a paragraph of their own.
 */
export function expandTemplate(template: Pick<PromptTemplate, "body">, args: string): string {
	const all = args.trim();
	const words = templateArgs(all);
	let used = false;
	const body = template.body.replace(/\$ARGUMENTS|\{\{\s*args\s*\}\}|\$([1-9])/g, (_match, digit?: string) => {
		used = true;
		return digit === undefined ? all : (words[Number(digit) - 1] ?? "");
	});
	if (used || all === "") return body.trim();
	return `${body.trim()}\n\n${all}`;
}
