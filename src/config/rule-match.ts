import { type ShellPart, type ShellWord, splitCommand } from "../text/shell-split.js";
import { type PermissionRule, prefixWords } from "./permissions.js";

/**
 * What the rules say of one call. "deny": a deny rule matches (deny wins). "allow": allow rules cover the whole call.
 * "none": no rule decides; `mustAsk` when a deny rule might match a command gar cannot split (a person must look),
 * `matched` the parts rules already allow, `offer` the prefixes the dialog may save (null: none, `why` says why).
 */
export type RuleReview =
	| { verdict: "deny"; rule: PermissionRule; part?: string }
	| { verdict: "allow"; rules: PermissionRule[] }
	| {
			verdict: "none";
			mustAsk: boolean;
			unsure: string | null;
			matched: { part: string; rule: PermissionRule }[];
			offer: string[] | null;
			why: string | null;
	  };

/** Commands that run the command in their arguments: a prefix of theirs would allow anything, so none is offered. */
const WRAPPERS = new Set([
	"sudo",
	"doas",
	"su",
	"env",
	"eval",
	"exec",
	"command",
	"builtin",
	"xargs",
	"nohup",
	"timeout",
	"nice",
	"ionice",
	"watch",
	"sh",
	"bash",
	"zsh",
	"dash",
	"ksh",
	"fish",
	"source",
	".",
	"ssh",
	"chroot",
	"unshare",
	"nsenter",
	"strace",
	"parallel",
]);
/** Commands whose arguments are data, never subcommands: their prefix is the command alone (`grep`, not `grep x`). */
const PLAIN = new Set(
	"grep rg ag cat head tail less wc ls echo printf pwd which sort uniq cut tr diff stat file du df tree date basename dirname realpath readlink".split(
		" ",
	),
);
/** Second words after which a third word still names what runs: `npm run build`, `docker compose up`. */
const RUNNERS = new Set(["run", "exec", "x", "dlx", "compose"]);
/** A word that reads as a subcommand (`test`, `commit`, `run:all`), not a path, an option or a value. */
const SUBCOMMAND = /^[a-z][a-z0-9_:-]*$/;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;

/**
 * Matches an allow rule: the part writes no file by redirection and its first words are the rule's, literally
 * (no expansion can make them something else). A rule without a prefix matches every call of its tool.
 */
export function allowMatches(part: ShellPart, rule: PermissionRule): boolean {
	const words = rule.words;
	if (!words) return true;
	if (part.writes.length > 0 || words.length > part.words.length) return false;
	return words.every((word, i) => {
		const have = part.words[i];
		return have?.literal === true && have.text === word;
	});
}

/**
 * Matches a deny rule, more broadly than an allow rule: after any `VAR=value` words, and with a command named by
 * its path (`/bin/rm` for `rm`). Redirections do not matter.
 */
export function denyMatches(part: ShellPart, rule: PermissionRule): boolean {
	const words = rule.words;
	if (!words) return true;
	let from = 0;
	while (from < part.words.length && ASSIGNMENT.test(part.words[from]?.text ?? "")) from++;
	if (words.length > part.words.length - from) return false;
	return words.every((word, i) => {
		const have = part.words[from + i];
		if (!have?.literal) return false;
		return have.text === word || (i === 0 && !word.includes("/") && have.text.endsWith(`/${word}`));
	});
}

/** What `rules` say of a call of tool `name` with `args`. */
export function reviewCall(rules: readonly PermissionRule[], name: string, args: Record<string, unknown>): RuleReview {
	const own = rules.filter((rule) => rule.tool === name);
	const denyAll = own.find((rule) => rule.list === "deny" && !rule.words);
	if (denyAll) return { verdict: "deny", rule: denyAll };
	const allowAll = own.find((rule) => rule.list === "allow" && !rule.words);
	if (name !== "bash") {
		if (allowAll) return { verdict: "allow", rules: [allowAll] };
		return { verdict: "none", mustAsk: false, unsure: null, matched: [], offer: null, why: null };
	}
	const command = typeof args.command === "string" ? args.command : "";
	const split = splitCommand(command);
	const denies = own.filter((rule) => rule.list === "deny");
	if (!split.ok) {
		// A deny rule might match a part gar cannot see: only a person can tell.
		const mustAsk = denies.length > 0;
		if (allowAll && !mustAsk) return { verdict: "allow", rules: [allowAll] };
		const why = `gar cannot split this command with certainty (${split.reason}), so no rule applies to it`;
		return { verdict: "none", mustAsk, unsure: split.reason, matched: [], offer: null, why };
	}
	for (const part of split.parts) {
		const rule = denies.find((deny) => denyMatches(part, deny));
		if (rule) return { verdict: "deny", rule, part: part.source };
	}
	if (allowAll) return { verdict: "allow", rules: [allowAll] };
	if (split.parts.length === 0)
		return { verdict: "none", mustAsk: false, unsure: null, matched: [], offer: null, why: null };
	return reviewParts(
		split.parts,
		own.filter((rule) => rule.list === "allow"),
	);
}

/** Allowed when every part is; else which parts are, and the prefixes that would allow the others. */
function reviewParts(parts: readonly ShellPart[], allows: readonly PermissionRule[]): RuleReview {
	const matched: { part: string; rule: PermissionRule }[] = [];
	const offer: string[] = [];
	let why: string | null = null;
	for (const part of parts) {
		const rule = allows.find((allow) => allowMatches(part, allow));
		if (rule) {
			matched.push({ part: part.source, rule });
			continue;
		}
		const suggested = suggestPrefix(part);
		if ("why" in suggested) why ??= suggested.why;
		else if (!offer.includes(suggested.prefix)) offer.push(suggested.prefix);
	}
	if (matched.length === parts.length) return { verdict: "allow", rules: [...new Set(matched.map((m) => m.rule))] };
	return { verdict: "none", mustAsk: false, unsure: null, matched, offer: why ? null : offer, why };
}

/**
 * The prefix the dialog offers for a part: its command and the words after it that read as subcommands (two words,
 * three after `run`, `exec`, `compose`…), stopping at the first option, path or value: `npm test`, `git commit`,
 * `npm run build`; the command alone for those whose arguments are data (`grep`, `ls`, `cat`). None for a part that writes a file, sets variables, runs other commands or is not plain text.
 */
export function suggestPrefix(part: ShellPart): { prefix: string } | { why: string } {
	const [first, ...rest] = part.words;
	const shown = `\`${part.source}\``;
	if (part.writes.length > 0) return { why: `${shown} writes a file (> ${part.writes[0]}): no rule allows that` };
	if (!first) return { why: `${shown} has no command` };
	if (!first.literal) return { why: `the command's name in ${shown} is not plain text` };
	if (ASSIGNMENT.test(first.text)) return { why: `${shown} sets variables for its command: no rule allows that` };
	const base = first.text.slice(first.text.lastIndexOf("/") + 1);
	if (WRAPPERS.has(base)) return { why: `${base} runs other commands: no rule is offered for it` };
	const words: ShellWord[] = [first];
	for (const word of PLAIN.has(base) ? [] : rest) {
		const room = words.length === 1 || (words.length === 2 && RUNNERS.has(words[1]?.text ?? ""));
		if (!room || !word.literal || !SUBCOMMAND.test(word.text)) break;
		words.push(word);
	}
	const prefix = words.map((word) => shellQuote(word.text)).join(" ");
	// The prefix must read back as the same words, or it would not be the rule the person saw.
	const back = prefixWords(prefix, "allow");
	if ("problem" in back || back.words.join("\0") !== words.map((w) => w.text).join("\0")) {
		return { why: `the command's name in ${shown} cannot be written as a rule` };
	}
	return { prefix };
}

/** A word as the shell reads it back: bare when safe, else in single quotes. */
function shellQuote(word: string): string {
	if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
	return `'${word.replace(/'/g, `'\\''`)}'`;
}
