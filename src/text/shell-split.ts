/**
 * A bash command split into its simple commands ("parts"), for permission rules. The splitter is deliberately
 * small: what it cannot be sure of, it refuses (`ok: false`) rather than guess, since a wrong split could allow a
 * command nobody allowed.
 *
 * Parts are the simple commands joined by `&&`, `||`, `;`, `&`, `|`, `|&` and newlines, plus every command inside a
 * subshell `( … )`, a command substitution `$( … )` or `` ` … ` `` (also inside double quotes) and a process
 * substitution `<( … )` / `>( … )`. Refused: unbalanced quotes or parentheses, here-documents (`<<`), comments,
 * arithmetic (`$((`, `$[`), `${…}` holding quotes or substitutions, nested backticks, backslashes inside backticks,
 * reserved words at a command's start (`if`, `for`, `while`, `case`, `{`, `[[`, `!`, `function`, `time`, …), an
 * operator with no command on one side, and a `(` inside a word.
 */

/** One word after quote removal; `literal`: nothing in it is expanded by the shell (no `$`, glob, `~`, braces). */
export type ShellWord = { text: string; literal: boolean };

/** One simple command: its words (redirections left out), and whether it writes a file by redirection. */
export type ShellPart = {
	words: ShellWord[];
	/** The targets of output redirections other than /dev/null and other descriptors (`> out.txt`). */
	writes: string[];
	/** The part as written in the command (trimmed). */
	source: string;
};

export type ShellSplit = { ok: true; parts: ShellPart[] } | { ok: false; reason: string };

/** Words that start a compound command or change how the next command runs: their commands are not split. */
const RESERVED = new Set([
	"if",
	"then",
	"elif",
	"else",
	"fi",
	"for",
	"in",
	"while",
	"until",
	"do",
	"done",
	"case",
	"esac",
	"select",
	"function",
	"time",
	"coproc",
	"{",
	"}",
	"[[",
	"]]",
	"!",
]);

/** Characters that end an unquoted word. */
const BREAK = new Set([" ", "\t", "\n", "|", "&", ";", "<", ">", "(", ")"]);
/** Unquoted characters that make a word expand (globs, braces; `~` too, wherever it is). */
const EXPANDING = new Set(["*", "?", "[", "]", "{", "}"]);
/** A variable's name after `$` (sticky: read where the cursor is, without copying the rest of the text). */
const NAME = /[A-Za-z_][A-Za-z0-9_]*|[0-9#?$!@*-]/y;
/** Nesting deeper than this is refused (a real command is not that deep). */
const MAX_DEPTH = 16;

class Unsure extends Error {}

/** Splits `command` into its parts, or says why it cannot be split with certainty. */
export function splitCommand(command: string): ShellSplit {
	try {
		const parser = new Parser(command, 0);
		const parts = parser.list(null);
		return { ok: true, parts };
	} catch (error) {
		if (error instanceof Unsure) return { ok: false, reason: error.message };
		throw error;
	}
}

class Parser {
	private i = 0;
	private readonly parts: ShellPart[] = [];

	constructor(
		private readonly s: string,
		private readonly depth: number,
	) {
		if (depth > MAX_DEPTH) throw new Unsure("it is nested too deeply");
	}

	/**
	 * A list of commands up to `end` (")" for a subshell or a substitution; null: the end of the text); returns every
	 * part found, nested ones included, in order.
	 */
	list(end: ")" | null): ShellPart[] {
		let needCommand = false;
		let any = false;
		for (;;) {
			this.blanks();
			const c = this.s[this.i];
			if (c === undefined) {
				if (end !== null) throw new Unsure("a parenthesis is not closed");
				if (needCommand) throw new Unsure("an operator has no command after it");
				return this.parts;
			}
			if (c === ")") {
				if (end === null) throw new Unsure("a closing parenthesis has no opening one");
				if (needCommand || !any) throw new Unsure("an operator has no command after it");
				this.i++;
				return this.parts;
			}
			if (c === "\n") {
				this.i++;
				// A new line starts afresh: an operator at its start has no command before it (`a\n&& b`).
				if (!needCommand) any = false;
				continue;
			}
			const op = this.operator();
			if (op !== null) {
				if (!any || needCommand) throw new Unsure(`"${op}" has no command before it`);
				if (op === ";;" || op === ";&" || op === ";;&") throw new Unsure(`"${op}" belongs to a case statement`);
				needCommand = op !== ";" && op !== "&";
				continue;
			}
			this.command();
			any = true;
			needCommand = false;
		}
	}

	/** `&&`, `||`, `|&`, `|`, `;;`, `;`, `&` at the cursor (consumed), or null. `&>` is a redirection, not one. */
	private operator(): string | null {
		const rest = this.s.slice(this.i, this.i + 3);
		for (const op of [";;&", "&&", "||", "|&", ";;", ";&", "|", ";", "&"]) {
			if (!rest.startsWith(op)) continue;
			if (op === "&" && this.s[this.i + 1] === ">") return null;
			this.i += op.length;
			return op;
		}
		return null;
	}

	private blanks(): void {
		for (;;) {
			const c = this.s[this.i];
			if (c === " " || c === "\t") this.i++;
			else if (c === "\\" && this.s[this.i + 1] === "\n") this.i += 2;
			else return;
		}
	}

	/** One simple command or a subshell, with its redirections, up to the next operator. */
	private command(): void {
		const start = this.i;
		if (this.s[this.i] === "(") {
			if (this.s[this.i + 1] === "(") throw new Unsure("it has arithmetic ((( … )))");
			this.i++;
			this.nested(")");
			this.redirections();
			return;
		}
		const part: ShellPart = { words: [], writes: [], source: "" };
		// Reserved before the nested parts it holds, so parts stay in the order they are written.
		const at = this.parts.length;
		for (;;) {
			this.blanks();
			const c = this.s[this.i];
			if (c === undefined || c === "\n" || c === ")" || c === "|" || c === ";") break;
			if (c === "&" && this.s[this.i + 1] !== ">") break;
			if (c === "(") throw new Unsure("a parenthesis is where a word should be");
			if (c === "#") throw new Unsure("it has a comment");
			if (this.redirection(part)) continue;
			const word = this.word();
			if (part.words.length === 0 && RESERVED.has(word.text)) {
				throw new Unsure(`"${word.text}" starts a compound command`);
			}
			// A word of digits right before < or > is a file descriptor: `2>/dev/null`.
			if (/^\d+$/.test(word.text) && word.literal && (this.s[this.i] === ">" || this.s[this.i] === "<")) {
				this.redirection(part);
				continue;
			}
			part.words.push(word);
		}
		if (this.i === start) throw new Unsure("a command is empty");
		part.source = this.s.slice(start, this.i).trim();
		this.parts.splice(at, 0, part);
	}

	/** Redirections after a subshell's closing parenthesis, counted on a part of their own when they write. */
	private redirections(): void {
		const part: ShellPart = { words: [], writes: [], source: "" };
		const start = this.i;
		for (;;) {
			this.blanks();
			if (!this.redirection(part)) break;
		}
		const c = this.s[this.i];
		if (c !== undefined && c !== "\n" && c !== ")" && c !== "|" && c !== ";" && c !== "&") {
			throw new Unsure("a word follows a subshell");
		}
		if (part.writes.length > 0) {
			part.source = this.s.slice(start, this.i).trim();
			this.parts.push(part);
		}
	}

	/** A redirection at the cursor (consumed; a write's target noted on `part`), or false when there is none. */
	private redirection(part: ShellPart): boolean {
		const m = /^(&>>|&>|>>|>\||>&|<<<|<<-|<<|<>|<&|>|<)/.exec(this.s.slice(this.i, this.i + 3));
		if (!m) return false;
		const op = m[1] as string;
		if ((op === "<" || op === ">") && this.s[this.i + 1] === "(") {
			// A process substitution is a word, not a redirection.
			return false;
		}
		if (op === "<<" || op === "<<-") throw new Unsure("it has a here-document");
		this.i += op.length;
		this.blanks();
		const c = this.s[this.i];
		if (c === undefined || BREAK.has(c)) throw new Unsure(`"${op}" has no target`);
		const target = this.word();
		if (op === "<" || op === "<<<") return true;
		if (op === ">&" || op === "<&") {
			if (target.literal && /^(\d+-?|-)$/.test(target.text)) return true;
			if (op === "<&") throw new Unsure(`"<&" is followed by ${target.text}`);
		}
		if (!(target.literal && target.text === "/dev/null")) part.writes.push(target.literal ? target.text : "(a file)");
		return true;
	}

	/** One word: quotes removed, substitutions parsed into parts of their own. */
	private word(): ShellWord {
		let text = "";
		let literal = true;
		for (;;) {
			const c = this.s[this.i];
			if (c === undefined || c === "\n" || c === " " || c === "\t") break;
			if (c === "(") throw new Unsure("a parenthesis is inside a word");
			if ((c === "<" || c === ">") && this.s[this.i + 1] === "(") {
				this.i += 2;
				this.nested(")");
				literal = false;
				continue;
			}
			if (BREAK.has(c)) break;
			if (c === "\\") {
				const next = this.s[this.i + 1];
				if (next === undefined) throw new Unsure("it ends with a backslash");
				if (next !== "\n") text += next;
				this.i += 2;
				continue;
			}
			if (c === "'") {
				const close = this.s.indexOf("'", this.i + 1);
				if (close < 0) throw new Unsure("a single quote is not closed");
				text += this.s.slice(this.i + 1, close);
				this.i = close + 1;
				continue;
			}
			if (c === '"') {
				const inner = this.doubleQuoted();
				text += inner.text;
				literal &&= inner.literal;
				continue;
			}
			if (c === "`") {
				this.backticks();
				literal = false;
				continue;
			}
			if (c === "$") {
				literal = false;
				this.dollar(false);
				continue;
			}
			if (EXPANDING.has(c) || c === "~") literal = false;
			text += c;
			this.i++;
		}
		return { text, literal };
	}

	/** A double-quoted string from its opening quote: its text, and whether nothing in it expands. */
	private doubleQuoted(): ShellWord {
		this.i++;
		let text = "";
		let literal = true;
		for (;;) {
			const c = this.s[this.i];
			if (c === undefined) throw new Unsure("a double quote is not closed");
			if (c === '"') {
				this.i++;
				return { text, literal };
			}
			if (c === "\\") {
				const next = this.s[this.i + 1];
				if (next === undefined) throw new Unsure("a double quote is not closed");
				if (next === "$" || next === "`" || next === '"' || next === "\\") text += next;
				else if (next !== "\n") text += `\\${next}`;
				this.i += 2;
				continue;
			}
			if (c === "`") {
				this.backticks();
				literal = false;
				continue;
			}
			if (c === "$") {
				literal = false;
				this.dollar(true);
				continue;
			}
			text += c;
			this.i++;
		}
	}

	/** What follows a `$`: a substitution (parsed), `${…}` (checked), a name, `$'…'` or `$"…"`. */
	private dollar(quoted: boolean): void {
		const next = this.s[this.i + 1];
		if (next === "(") {
			if (this.s[this.i + 2] === "(") throw new Unsure("it has arithmetic ($(( … )))");
			this.i += 2;
			this.nested(")");
			return;
		}
		if (next === "[") throw new Unsure("it has arithmetic ($[ … ])");
		if (next === "{") {
			const close = this.s.indexOf("}", this.i + 2);
			if (close < 0) throw new Unsure("a parameter expansion is not closed");
			// Only a plain name: `${x:y}` evaluates y as arithmetic and `${x@P}` as a prompt, both able to run commands.
			if (!/^#?([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[#?$!@*-])$/.test(this.s.slice(this.i + 2, close))) {
				throw new Unsure("a parameter expansion does more than name a variable");
			}
			this.i = close + 1;
			return;
		}
		if (!quoted && next === "'") {
			// ANSI-C quoting: escapes end at the closing quote that is not escaped.
			let j = this.i + 2;
			for (; j < this.s.length && this.s[j] !== "'"; j++) if (this.s[j] === "\\") j++;
			if (j >= this.s.length) throw new Unsure("a $' quote is not closed");
			this.i = j + 1;
			return;
		}
		if (!quoted && next === '"') {
			this.i++;
			this.doubleQuoted();
			return;
		}
		this.i++;
		NAME.lastIndex = this.i;
		const name = NAME.exec(this.s);
		if (name) this.i += name[0].length;
	}

	/** `` `…` ``: its text parsed as a command of its own (backslashes and nested backticks refused). */
	private backticks(): void {
		const close = this.s.indexOf("`", this.i + 1);
		if (close < 0) throw new Unsure("a backtick is not closed");
		const inner = this.s.slice(this.i + 1, close);
		if (inner.includes("\\")) throw new Unsure("a backslash is inside backticks");
		const nested = new Parser(inner, this.depth + 1);
		this.parts.push(...nested.list(null));
		this.i = close + 1;
	}

	/** A nested list up to `end`, parsed by a parser of its own over the rest of the text; its parts join ours. */
	private nested(end: ")"): void {
		const nested = new Parser(this.s, this.depth + 1);
		nested.i = this.i;
		this.parts.push(...nested.list(end));
		this.i = nested.i;
	}
}
