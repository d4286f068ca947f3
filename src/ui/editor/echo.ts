/** Where the editor's rows are on screen, as Ink laid them out last: given by EditorBox, read at a typed key. */
export type EchoPlace = {
	/** The top-left cell (0-based) of the editor's first row; null once it is off the screen. */
	origin: () => { x: number; y: number } | null;
	/** The editor's width in columns, and the columns its text wraps at (the rows it drew). */
	width: number;
	textWidth: number;
	/** Columns of the prompt ("› "), on every row (later rows are indented as wide). */
	prompt: number;
	/** Columns of the hint and its space on the first row (" Enter send"). */
	hint: number;
};

/** A row the echo may draw: printable ASCII only. Ink measures anything else (wide, combining, tabs, placeholders). */
const PLAIN = /^[\x20-\x7e]*$/;

/**
 * The bytes that draw the body of the editor's row `index` (its `text`, the cursor at `cursor` columns into it, or -1
 * where it is on another row) as EditorBox draws it: the text, the cursor's cell inverse (a blank past the end), then
 * blanks to the hint. The cursor and the attributes are saved first and restored after, so Ink's next frame finds the
 * terminal as it left it. Null when the row is not plain ASCII.
 */
export function echoRow(
	place: EchoPlace,
	origin: { x: number; y: number },
	index: number,
	text: string,
	cursor: number,
): string | null {
	if (!PLAIN.test(text)) return null;
	const cells = place.width - place.prompt - (index === 0 ? place.hint : 0);
	let body = text;
	if (cursor >= 0) {
		const at = text[cursor] ?? " ";
		body = `${text.slice(0, cursor)}\x1b[7m${at}\x1b[27m${text.slice(cursor + 1)}`;
	}
	const used = text.length + (cursor >= text.length ? 1 : 0);
	if (used > cells) return null;
	const move = `\x1b[${origin.y + index + 1};${origin.x + place.prompt + 1}H`;
	return `\x1b7${move}\x1b[0m${body}${" ".repeat(cells - used)}\x1b8`;
}
