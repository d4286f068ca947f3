/** A name made from a prompt is cut near this many characters, at a word. */
const MAX_CHARS = 48;

/**
 * The name of a session nobody named, made from its first prompt without asking a model: the prompt's first line
 * that says something, whitespace collapsed, cut at a word near 48 characters ("…" after). Derived where it is
 * shown, never written: a `name` entry (/name, gar name) always wins, and a session keeps no name it did not get
 * from a person. Undefined for no prompt (or only blank lines).
 */
export function autoName(firstPrompt: string | undefined): string | undefined {
	if (firstPrompt === undefined) return undefined;
	const line = firstPrompt
		.slice(0, 4096)
		.split("\n")
		.map((l) => l.replace(/\s+/g, " ").trim())
		.find((l) => l !== "");
	if (line === undefined) return undefined;
	if (line.length <= MAX_CHARS) return line;
	const cut = line.slice(0, MAX_CHARS);
	const space = cut.lastIndexOf(" ");
	return `${space > MAX_CHARS / 2 ? cut.slice(0, space) : cut}…`;
}

/** What a session is called: its name, else the name made from its first prompt (autoName). */
export function sessionTitle(name: string | undefined, firstPrompt: string | undefined): string | undefined {
	return name ?? autoName(firstPrompt);
}
