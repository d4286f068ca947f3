import { tildePath } from "../text/paths.js";
import { splitCommand } from "../text/shell-split.js";
import { arrayTableLine } from "./locate.js";
import type { FileConfig } from "./schema.js";

/** Which list a rule is in: `[[permissions.allow]]` or `[[permissions.deny]]`. */
export type RuleList = "allow" | "deny";

/**
 * One permission rule: a tool, and for bash the words a command must start with (`prefix`; absent: every call of
 * the tool). `file` and `line` say where it is written; no file: it was allowed for this session only (saving failed).
 */
export type PermissionRule = {
	list: RuleList;
	tool: string;
	prefix?: string;
	/** The prefix as words (`npm test` → ["npm", "test"]); absent with the prefix. */
	words?: readonly string[];
	file?: string;
	line?: number;
};

/** Why a prefix cannot be a rule's, or its words. */
export function prefixWords(prefix: string, list: RuleList): { words: string[] } | { problem: string } {
	if (prefix.trim() === "") {
		const verb = list === "allow" ? "allow" : "deny";
		return {
			problem: `an empty prefix would ${verb} every command: write tool = "bash" without a prefix to ${verb} every bash command`,
		};
	}
	const split = splitCommand(prefix);
	if (!split.ok) return { problem: `prefix ${JSON.stringify(prefix)} cannot be read as words: ${split.reason}` };
	const [part, ...more] = split.parts;
	if (!part || more.length > 0 || part.writes.length > 0) {
		return { problem: `a prefix is the first words of one command: no ;, &&, |, redirections or substitutions` };
	}
	if (part.words.some((word) => !word.literal)) {
		return { problem: `a prefix is plain words: no $, *, ?, [ ], { }, ~ (quote them to mean them as written)` };
	}
	return { words: part.words.map((word) => word.text) };
}

/**
 * The rules of one validated file with their lines; a prefix that cannot be a rule's is an error (a rule that
 * meant less than it allows must never load).
 */
export function readRules(
	table: FileConfig["permissions"],
	text: string,
	file: string,
	shown: string,
): { rules: PermissionRule[]; errors: string[] } {
	const rules: PermissionRule[] = [];
	const errors: string[] = [];
	for (const list of ["allow", "deny"] as const) {
		(table?.[list] ?? []).forEach((entry, index) => {
			const line = arrayTableLine(text, ["permissions", list], index);
			const where = line === undefined ? shown : `${shown}:${line}`;
			const rule: PermissionRule = { list, tool: entry.tool, file, ...(line === undefined ? {} : { line }) };
			if (entry.prefix !== undefined) {
				if (entry.tool !== "bash") {
					errors.push(`${where}: permissions.${list}: a prefix applies to bash commands only (tool = "bash")`);
					return;
				}
				const words = prefixWords(entry.prefix, list);
				if ("problem" in words) {
					errors.push(`${where}: permissions.${list}: ${words.problem}`);
					return;
				}
				rule.prefix = entry.prefix;
				rule.words = words.words;
			}
			rules.push(rule);
		});
	}
	return { rules, errors };
}

/** A rule as TOML: `{ tool = "bash", prefix = "npm test" }`. */
export function ruleToml(rule: Pick<PermissionRule, "tool" | "prefix">): string {
	const prefix = rule.prefix === undefined ? "" : `, prefix = ${JSON.stringify(rule.prefix)}`;
	return `{ tool = ${JSON.stringify(rule.tool)}${prefix} }`;
}

/** Where a rule is written: `~/.config/gar/config.toml:12`, or "this session" for one that could not be saved. */
export function ruleSource(rule: PermissionRule, home: string): string {
	if (rule.file === undefined) return "this session only";
	return `${tildePath(rule.file, home)}${rule.line === undefined ? "" : `:${rule.line}`}`;
}

/** A rule in words, for the dialog and the chat: `bash "npm test" (~/.config/gar/config.toml:12)`. */
export function describeRule(rule: PermissionRule, home: string): string {
	const what = rule.prefix === undefined ? `every ${rule.tool} call` : `${rule.tool} ${JSON.stringify(rule.prefix)}`;
	return `${what} (${ruleSource(rule, home)})`;
}
