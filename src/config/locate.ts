/**
 * Finds the line of a key in TOML text without a full parse, for messages about values that parsed but failed
 * validation. It follows `[table]` headers and dotted keys; inline tables resolve to the line of their key.
 */

type Line = { line: number; path: string[] };

/** Reads a dotted key (`a."b c".d`) starting at `pos`; returns its segments and the index after it. */
function readKey(text: string, pos: number): { segments: string[]; end: number } | undefined {
	const segments: string[] = [];
	let i = pos;
	for (;;) {
		while (text[i] === " " || text[i] === "\t") i++;
		const quote = text[i];
		if (quote === '"' || quote === "'") {
			const close = findClose(text, i + 1, quote);
			if (close < 0) return undefined;
			const raw = text.slice(i + 1, close);
			segments.push(quote === '"' ? unescapeBasic(raw) : raw);
			i = close + 1;
		} else {
			const match = /^[A-Za-z0-9_-]+/.exec(text.slice(i));
			if (!match) return undefined;
			segments.push(match[0]);
			i += match[0].length;
		}
		while (text[i] === " " || text[i] === "\t") i++;
		if (text[i] !== ".") return { segments, end: i };
		i++;
	}
}

function findClose(text: string, from: number, quote: string): number {
	for (let i = from; i < text.length; i++) {
		if (quote === '"' && text[i] === "\\") i++;
		else if (text[i] === quote) return i;
	}
	return -1;
}

function unescapeBasic(raw: string): string {
	try {
		return JSON.parse(`"${raw}"`) as string;
	} catch {
		return raw;
	}
}

/** Every header and key line with its full dotted path. Lines inside multi-line strings are skipped. */
export function keyLines(text: string): Line[] {
	const out: Line[] = [];
	let table: string[] = [];
	let inString: string | undefined;
	text.split(/\r?\n/).forEach((content, index) => {
		const line = index + 1;
		if (inString !== undefined) {
			if (content.includes(inString)) inString = undefined;
			return;
		}
		const header = /^\s*\[\[?/.exec(content);
		if (header) {
			const key = readKey(content, header[0].length);
			if (key && content[key.end] === "]") {
				table = key.segments;
				out.push({ line, path: table });
			}
			return;
		}
		const key = readKey(content, 0);
		if (!key || content[key.end] !== "=") return;
		out.push({ line, path: [...table, ...key.segments] });
		const value = content.slice(key.end + 1);
		for (const delimiter of ['"""', "'''"]) {
			if (value.split(delimiter).length === 2) inString = delimiter;
		}
	});
	return out;
}

/**
 * The 1-based line where `path` is defined (array indices are ignored): the exact key or header, else the
 * line of the nearest enclosing key (an inline table), else the first line inside that table.
 */
export function findLine(text: string, path: readonly PropertyKey[]): number | undefined {
	const target = path.filter((part): part is string => typeof part === "string");
	let enclosing: Line | undefined;
	let inside: Line | undefined;
	for (const entry of keyLines(text)) {
		if (isPrefix(entry.path, target)) {
			if (entry.path.length === target.length) return entry.line;
			if (!enclosing || entry.path.length > enclosing.path.length) enclosing = entry;
		} else if (!inside && isPrefix(target, entry.path)) inside = entry;
	}
	return (enclosing ?? inside)?.line;
}

function isPrefix(prefix: readonly string[], of: readonly string[]): boolean {
	return prefix.length <= of.length && prefix.every((part, i) => part === of[i]);
}

/**
 * The line of the `index`-th `[[hooks.EVENT]]` table (0-based), or of `key` inside it; undefined when the hooks
 * are not written as such headers (an inline array under [hooks]), where findLine gives the array's line.
 */
export function hookLine(text: string, event: string, index: number, key?: string): number | undefined {
	const lines = text.split(/\r?\n/);
	let seen = -1;
	for (let i = 0; i < lines.length; i++) {
		const header = /^\s*\[\[\s*(?:hooks|"hooks")\s*\.\s*"?([A-Za-z]+)"?\s*\]\]/.exec(lines[i] ?? "");
		if (!header || header[1] !== event || ++seen !== index) continue;
		if (key === undefined) return i + 1;
		for (let j = i + 1; j < lines.length && !/^\s*\[/.test(lines[j] ?? ""); j++) {
			if (readKey(lines[j] ?? "", 0)?.segments[0] === key) return j + 1;
		}
		return i + 1;
	}
	return undefined;
}

/**
 * The line of the `index`-th `[[A.B]]` table (0-based) for `header` = ["A", "B"]; undefined when the tables are not
 * written as such headers (an inline array), where findLine gives the array's line.
 */
export function arrayTableLine(text: string, header: readonly string[], index: number): number | undefined {
	let seen = -1;
	const lines = text.split(/\r?\n/);
	for (let i = 0; i < lines.length; i++) {
		const open = /^\s*\[\[/.exec(lines[i] ?? "");
		if (!open) continue;
		const key = readKey(lines[i] ?? "", open[0].length);
		if (!key || !(lines[i] ?? "").slice(key.end).startsWith("]]")) continue;
		if (key.segments.length !== header.length || key.segments.some((part, j) => part !== header[j])) continue;
		if (++seen === index) return i + 1;
	}
	return undefined;
}
