import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gitRoot } from "../text/paths.js";
import type { ContextFile } from "./context-files.js";

const TOOL_LINES: Record<string, string> = {
	read: "read: read a text file with line numbers; use offset/limit to page through large files.",
	write: "write: create or overwrite a file (parent folders are created).",
	edit: "edit: replace exact text in a file; each oldText must match exactly once.",
	bash: "bash: run a shell command in the working directory (explore, build, test, git).",
};

const GUIDELINES = [
	"Read a file before you edit it; prefer edit over write for changes to existing files.",
	"Keep changes small and focused on the task; follow the conventions already in the code.",
	"Explore with bash (ls, find, grep or rg); run the tests or the build to check your work.",
	"Never start commands that wait for input or never exit (servers, watchers) in the foreground.",
	"If a tool fails, read the error, fix the cause and try again; do not repeat a failing call unchanged.",
	"When done, answer briefly: what you changed and anything the user must know. No filler.",
];

export type SystemPromptOptions = {
	cwd: string;
	tools: string[];
	date: Date;
	contextFiles: ContextFile[];
	/** Replaces the built-in prompt (identity, tools, guidelines); environment and context files still follow. */
	replace?: string;
	append?: string;
};

/** The branch checked out in the repository at `cwd`, read from .git/HEAD without spawning git. */
export function gitBranch(cwd: string): string | null {
	const root = gitRoot(cwd);
	if (!root) return null;
	try {
		let gitDir = join(root, ".git");
		const pointer = readFileSync(gitDir, "utf8").match(/^gitdir: (.+)$/m);
		if (pointer?.[1]) gitDir = pointer[1].trim();
		return headName(gitDir);
	} catch {
		return headName(join(root, ".git"));
	}
}

function headName(gitDir: string): string | null {
	try {
		const head = readFileSync(join(gitDir, "HEAD"), "utf8").trim();
		const ref = /^ref: refs\/heads\/(.+)$/.exec(head);
		return ref?.[1] ?? `detached at ${head.slice(0, 8)}`;
	} catch {
		return null;
	}
}

/** A flag value that names an existing file means the file's text; anything else is the text itself. */
export function textOrFile(value: string, cwd: string): string {
	const path = value.startsWith("/") ? value : join(cwd, value);
	if (value.length < 4096 && !value.includes("\n") && existsSync(path)) return readFileSync(path, "utf8");
	return value;
}

/** One piece of the system prompt, in order: the text and where it came from. */
export type PromptPart = { source: "base" | "context_file" | "append" | "environment"; path?: string; text: string };

/** The system prompt as sent (`text`: the parts joined by blank lines) and its parts. */
export type SystemPrompt = { text: string; parts: PromptPart[] };

/** Builds the system prompt and its parts. Without context files it stays well under 1,000 tokens. */
export function buildSystemPrompt(options: SystemPromptOptions): SystemPrompt {
	const parts: PromptPart[] = [];
	const base: string[] = [];
	if (options.replace !== undefined) {
		base.push(options.replace.trim());
	} else {
		base.push(
			"You are gar, a coding agent in the user's terminal. You complete software tasks by reading files, " +
				"editing them and running commands until the task is done.",
		);
		const tools = options.tools.filter((t) => t in TOOL_LINES).map((t) => `- ${TOOL_LINES[t]}`);
		if (tools.length) base.push(`Tools:\n${tools.join("\n")}`);
		base.push(`Guidelines:\n${GUIDELINES.map((g) => `- ${g}`).join("\n")}`);
	}
	parts.push({ source: "base", text: base.join("\n\n") });
	const branch = gitBranch(options.cwd);
	parts.push({
		source: "environment",
		text: [
			"Environment:",
			`- Working directory: ${options.cwd}`,
			`- Date: ${options.date.toISOString().slice(0, 10)}`,
			`- Git branch: ${branch ?? "(not a git repository)"}`,
			`- Platform: ${process.platform}`,
		].join("\n"),
	});
	for (const file of options.contextFiles) {
		const note = file.truncated ? "\n[truncated: the file is larger than 64 KB]" : "";
		parts.push({
			source: "context_file",
			path: file.path,
			text: `Context from ${file.path}:\n${file.content.trim()}${note}`,
		});
	}
	if (options.append?.trim()) parts.push({ source: "append", text: options.append.trim() });
	const kept = parts.filter((p) => p.text !== "");
	return { text: kept.map((p) => p.text).join("\n\n"), parts: kept };
}
