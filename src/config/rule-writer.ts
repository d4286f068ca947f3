import {
	closeSync,
	fchmodSync,
	fsyncSync,
	mkdirSync,
	openSync,
	readFileSync,
	realpathSync,
	renameSync,
	statSync,
	unlinkSync,
	writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { parse, TomlError } from "smol-toml";
import { randomHex } from "../text/digest.js";
import { tildePath } from "../text/paths.js";
import { ConfigError } from "./errors.js";
import { withFileLock } from "./file-lock.js";
import { arrayTableLine } from "./locate.js";
import type { PermissionRule, RuleList } from "./permissions.js";

/** What a new rule is: its list, tool and prefix. */
export type NewRule = Pick<PermissionRule, "list" | "tool" | "prefix">;

/**
 * Adds `rule` to the config file `file` as a `[[permissions.LIST]]` table appended at its end, so every comment and
 * every line the person wrote stays as it was; returns the line of the table. The file is replaced atomically (a temp
 * file renamed over it, its mode kept; a symlink's target is written) under the file's lock. A rule already there is
 * not added twice. Throws ConfigError (nothing written) when the file does not parse, or when the result would not
 * read back with the rule last in its list (the list written as an inline array).
 */
export function saveRule(file: string, rule: NewRule, home: string): { file: string; line: number } {
	const target = realTarget(file);
	const shown = tildePath(file, home);
	return withFileLock(target, () => {
		const text = readText(target);
		const before = parseToml(text, shown);
		const list = permissionList(before, rule.list);
		const same = list.findIndex((entry) => entry.tool === rule.tool && entry.prefix === rule.prefix);
		if (same >= 0) return { file, line: arrayTableLine(text, ["permissions", rule.list], same) ?? 1 };
		const eol = text.includes("\r\n") ? "\r\n" : "\n";
		const gap = text === "" ? "" : text.endsWith("\n") ? eol : eol + eol;
		const lines = [`[[permissions.${rule.list}]]`, `tool = ${JSON.stringify(rule.tool)}`];
		if (rule.prefix !== undefined) lines.push(`prefix = ${JSON.stringify(rule.prefix)}`);
		const next = `${text}${gap}${lines.join(eol)}${eol}`;
		const after = permissionList(parseToml(next, shown, lines.join("\n")), rule.list).at(-1);
		if (after?.tool !== rule.tool || after.prefix !== rule.prefix) {
			throw new ConfigError(
				`${shown} writes permissions.${rule.list} in a way gar cannot add a table to: add this to it by hand:\n${lines.join("\n")}`,
			);
		}
		writeAtomic(target, next);
		return { file, line: `${text}${gap}`.split(/\r?\n/).length };
	});
}

/** The file a write replaces: a symlink's target (dotfile managers link the config), else the path itself. */
function realTarget(file: string): string {
	try {
		return realpathSync(file);
	} catch {
		return file;
	}
}

function readText(file: string): string {
	try {
		return readFileSync(file, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return "";
		throw new ConfigError(`cannot read ${file}: ${(error as Error).message}`);
	}
}

/** The parsed file; a file that does not parse is never rewritten (`adding`: what was being added, for the message). */
function parseToml(text: string, shown: string, adding?: string): Record<string, unknown> {
	try {
		return parse(text);
	} catch (error) {
		if (!(error instanceof TomlError)) throw error;
		const reason = (error.message.split("\n")[0] ?? "").replace(/^Invalid TOML document: /, "");
		if (adding !== undefined) {
			throw new ConfigError(`${shown} would not parse with the rule added (${reason}); add it by hand:\n${adding}`);
		}
		throw new ConfigError(`${shown}:${error.line} does not parse (${reason}): fix it, and gar can save rules there`);
	}
}

function permissionList(data: Record<string, unknown>, list: RuleList): { tool?: unknown; prefix?: unknown }[] {
	const permissions = data.permissions;
	if (typeof permissions !== "object" || permissions === null) return [];
	const entries = (permissions as Record<string, unknown>)[list];
	return Array.isArray(entries) ? (entries as { tool?: unknown; prefix?: unknown }[]) : [];
}

/** Writes `text` to a temp file beside `file`, synced, then renames it over `file`; keeps the old file's mode. */
function writeAtomic(file: string, text: string): void {
	const dir = dirname(file);
	mkdirSync(dir, { recursive: true, mode: 0o700 });
	let mode = 0o600;
	try {
		mode = statSync(file).mode & 0o7777;
	} catch {
		// A new file: readable by its owner only (it may hold keys later).
	}
	const temp = join(dir, `.${basename(file)}.${process.pid}.${randomHex(4)}.tmp`);
	const fd = openSync(temp, "wx", mode);
	try {
		fchmodSync(fd, mode);
		writeSync(fd, text);
		fsyncSync(fd);
		closeSync(fd);
		renameSync(temp, file);
	} catch (error) {
		try {
			closeSync(fd);
		} catch {
			// Closed already.
		}
		try {
			unlinkSync(temp);
		} catch {
			// Never made, or renamed.
		}
		throw new ConfigError(`could not save the rule to ${file}: ${(error as Error).message}`);
	}
}
