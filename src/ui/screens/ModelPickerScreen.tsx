import { Box, type Key, Text, useInput } from "ink";
import { useMemo } from "react";
import { clean } from "../chat/lines.js";
import { KEY_TABLE, MODEL_PICKER_KEYS } from "../keys/key-table.js";
import { type KeyBinding, keyDispatcher } from "../keys/keymap.js";
import { frameRows } from "../state/layout.js";
import { type ModelPicker, modelPickerOf, rowColumns, visibleRange } from "../state/model-picker.js";
import type { UiStore } from "../state/store.js";
import { useStore } from "../state/use-store.js";
import { useTheme } from "../theme/context.js";
import type { ScreenProps } from "./screen.js";

type Action = (typeof MODEL_PICKER_KEYS)[number]["action"] | "interrupt";
const GLOBAL = KEY_TABLE.filter((binding) => binding.context === "global") as readonly KeyBinding<
	"interrupt",
	"global"
>[];
const KEYS: readonly KeyBinding<Action, "global" | "models">[] = [...GLOBAL, ...MODEL_PICKER_KEYS];
/** Rows above and below the list: title, filter, note, column heads; the keys' line. */
const CHROME_ROWS = 6;

/** The picker's keys: its context of the key table, Ctrl+C (global), and typing into the filter. */
function usePickerKeys(store: UiStore, page: number): void {
	const dispatch = useMemo(() => {
		const close = () => store.closeScreen();
		/** Changes the open picker and redraws; with none open (it cannot be), goes back. */
		const act = (change: (open: ModelPicker) => void) => {
			const open = modelPickerOf(store);
			if (!open) return close();
			change(open);
			store.changed();
		};
		const choose = () => {
			if (modelPickerOf(store)?.pick() !== false) close();
		};
		// Keys no binding took type into the filter (Ctrl and Alt keys do nothing). Keys typed fast arrive as one
		// string: the Backspaces and an Enter inside it act in order.
		const typed = (text: string, key: Key) => {
			if (key.ctrl || key.meta) return true;
			for (const char of text) {
				if (char === "\r") {
					choose();
					break;
				}
				act((open) => (char === "\x7f" || char === "\b" ? open.backspace() : open.type(char)));
			}
			return true;
		};
		return keyDispatcher(KEYS, [{ context: "global" }, { context: "models", rest: typed }], {
			interrupt: close,
			modelsClose: close,
			modelsMove: (_text, key) => act((open) => open.move(key.upArrow ? -1 : 1)),
			modelsPage: (_text, key) => act((open) => open.move(key.pageUp ? -page : page)),
			modelsBackspace: () => act((open) => open.backspace()),
			modelsChoose: choose,
		});
	}, [store, page]);
	useInput((text, key) => {
		dispatch(text, key);
	});
}

/**
 * The model picker (`/model` with no name): every model the configured providers can serve, with its window and
 * price; typing filters, ↑/↓ move, Enter switches to the model (and its provider), Esc or Ctrl+C go back.
 */
export function ModelPickerScreen({ store, size }: ScreenProps) {
	useStore(store);
	const theme = useTheme();
	const picker = modelPickerOf(store);
	const page = Math.max(1, frameRows(size) - CHROME_ROWS);
	usePickerKeys(store, page);
	if (!picker) return <Text>no model list is open (Esc goes back)</Text>;
	const shown = picker.shown();
	const { start, end } = visibleRange(shown.length, picker.selected, page);
	const columns = shown.slice(start, end).map(rowColumns);
	const nameWidth = Math.min(Math.max(10, ...columns.map((c) => c.name.length)), Math.max(10, size.columns - 40));
	const pad = (text: string, width: number) =>
		text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
	return (
		<Box flexDirection="column" width={size.columns} height={frameRows(size)}>
			<Text bold color={theme.accent}>
				Models the configured providers serve · {shown.length}
			</Text>
			<Text>
				<Text color={theme.muted}>filter › </Text>
				{clean(picker.filter)}
				<Text inverse> </Text>
			</Text>
			<Text color={theme.muted} wrap="truncate-end">
				{picker.note ?? " "}
			</Text>
			<Text color={theme.muted} wrap="truncate-end">
				{`  ${pad("model", nameWidth)}  ${"window".padStart(8)}  price per million tokens`}
			</Text>
			{shown.length === 0 ? <Text color={theme.muted}> no model matches the filter</Text> : null}
			{columns.map((column, i) => {
				const row = shown[start + i];
				const selected = start + i === picker.selected;
				return (
					<Text key={column.name} wrap="truncate-end" inverse={selected}>
						{row?.current ? "● " : "  "}
						{clean(pad(column.name, nameWidth))}
						{`  ${column.window.padStart(8)}  `}
						<Text color={selected ? undefined : theme.muted}>{column.price}</Text>
					</Text>
				);
			})}
			<Box flexGrow={1} />
			<Text color={theme.muted} wrap="truncate-end">
				type to filter · ↑/↓ move · Enter use the model (switches the provider too) · Esc back
			</Text>
		</Box>
	);
}
