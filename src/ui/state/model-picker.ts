import type { ModelRow } from "../../modes/model-switch.js";
import { formatTokens } from "../../view/format.js";
import type { UiStore } from "./store.js";

/**
 * The model picker's state, outside React: the rows (gar's table at once, a server's list when it comes), the filter
 * typed, the row selected, and a note (listing, or why a server could not be listed). Choosing hands the row to
 * `choose`, which switches as `/model provider/NAME` does.
 */
export class ModelPicker {
	filter = "";
	/** The selected row, as an index into `shown()`. */
	selected = 0;
	note: string | null = null;
	private rows: readonly ModelRow[];
	private cache: { filter: string; rows: readonly ModelRow[]; shown: ModelRow[] } | null = null;

	constructor(
		rows: readonly ModelRow[],
		private readonly choose: (row: ModelRow) => void,
	) {
		this.rows = rows;
		this.selected = Math.max(
			0,
			rows.findIndex((row) => row.current),
		);
	}

	/** New rows (a server's list came): the selection stays on the same model where it still is. */
	setRows(rows: readonly ModelRow[]): void {
		const was = this.shown()[this.selected];
		this.rows = rows;
		const at = was ? this.shown().findIndex((row) => row.provider === was.provider && row.id === was.id) : -1;
		this.selected = Math.max(0, at);
	}

	/** The rows the filter lets through: every word of it somewhere in `provider/id` (case ignored). */
	shown(): ModelRow[] {
		const hit = this.cache;
		if (hit && hit.filter === this.filter && hit.rows === this.rows) return hit.shown;
		const words = this.filter.toLowerCase().split(/\s+/).filter(Boolean);
		const shown = this.rows.filter((row) => {
			const name = `${row.provider}/${row.id}`.toLowerCase();
			return words.every((word) => name.includes(word));
		});
		this.cache = { filter: this.filter, rows: this.rows, shown };
		return shown;
	}

	type(text: string): void {
		this.filter += [...text].filter((char) => char >= " " && char !== "\x7f").join("");
		this.selected = 0;
	}

	backspace(): void {
		this.filter = [...this.filter].slice(0, -1).join("");
		this.selected = 0;
	}

	/** Moves the selection by `rows`, stopping at the first and the last row. */
	move(rows: number): void {
		const last = this.shown().length - 1;
		this.selected = Math.max(0, Math.min(last, this.selected + rows));
	}

	/** Chooses the selected row; false when no row is shown. */
	pick(): boolean {
		const row = this.shown()[this.selected];
		if (!row) return false;
		this.choose(row);
		return true;
	}
}

/** A row's columns: `provider/id`, the window ("1M"), the price per million tokens in and out. */
export function rowColumns(row: ModelRow): { name: string; window: string; price: string } {
	const window = row.contextWindow === null ? "?" : formatTokens(row.contextWindow);
	const money = (usd: number) => `$${usd < 1 ? usd.toFixed(3).replace(/0$/, "") : usd.toFixed(2)}`;
	const price = row.pricing ? `${money(row.pricing.input)} in · ${money(row.pricing.output)} out` : "price unknown";
	return { name: `${row.provider}/${row.id}`, window, price };
}

/** The window of `count` rows to draw around the selection (`height` rows fit). */
export function visibleRange(count: number, selected: number, height: number): { start: number; end: number } {
	const rows = Math.max(1, height);
	const start = Math.max(0, Math.min(selected - Math.floor(rows / 2), count - rows));
	return { start, end: Math.min(count, start + rows) };
}

const pickers = new WeakMap<UiStore, ModelPicker>();

/** Opens the model picker screen over the chat with `picker`. */
export function openModelPicker(store: UiStore, picker: ModelPicker): void {
	pickers.set(store, picker);
	store.openScreen("models");
}

/** The model picker of `store`'s screen, while one is open. */
export function modelPickerOf(store: UiStore): ModelPicker | undefined {
	return pickers.get(store);
}
