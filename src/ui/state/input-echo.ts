import { type EchoPlace, echoRow } from "../editor/echo.js";
import type { InputModel } from "./input-model.js";

/** The editor as on screen before an edit: its height, its rows' texts, the cursor's row, the prompt on its first. */
export type Shown = { height: number; texts: string[]; cursor: number; prompted: boolean };

/**
 * A typed key's row (an edit, or a move along the row) drawn at once, before React and Ink draw its frame (which
 * comes about a millisecond later and writes the same row): the key is on the screen sooner. Only for an edit that
 * changes nothing on the screen but the cursor's row: the same height (no popup, note or row added or gone), the same
 * first row, the other rows unchanged, plain ASCII. Anything else waits for the frame, as every key did before. Set by
 * the app in a terminal only.
 */
export class InputEcho {
	/** Where the editor was last laid out (EditorBox); null while it is not on the screen. */
	place: EchoPlace | null = null;

	constructor(private readonly write: (bytes: string) => void) {}

	/** What the echo compares an edit against; null when it cannot draw now (no place, a search, another width). */
	before(model: InputModel): Shown | null {
		if (!this.place || model.search || model.width !== this.place.textWidth) return null;
		return this.shown(model);
	}

	/** Draws the cursor's row if the edit since `before` changed nothing else on the screen. */
	after(model: InputModel, before: Shown): void {
		const place = this.place;
		if (!place || model.search) return;
		const now = this.shown(model);
		if (now.height !== before.height || now.cursor !== before.cursor || now.prompted !== before.prompted) return;
		if (now.texts.length !== before.texts.length) return;
		if (now.texts.some((text, i) => i !== now.cursor && text !== before.texts[i])) return;
		const origin = place.origin();
		if (!origin) return;
		const { rows, cursor } = model.view();
		const row = rows[cursor.row];
		if (!row) return;
		const col = Math.min(Math.max(model.buffer.col, row.start), row.end);
		const bytes = echoRow(place, origin, cursor.row, now.texts[cursor.row] ?? "", col - row.start);
		if (bytes) this.write(bytes);
	}

	private shown(model: InputModel): Shown {
		const { rows, cursor } = model.view();
		const { lines } = model.buffer;
		return {
			height: model.heightAt(model.width),
			texts: rows.map((row) => (lines[row.line] ?? "").slice(row.start, row.end)),
			cursor: cursor.row,
			prompted: rows[0]?.line === 0 && rows[0].start === 0,
		};
	}
}
