import { homedir } from "node:os";
import { Box, type Key, Text, useInput } from "ink";
import TextInput from "ink-text-input";
import { useLayoutEffect, useMemo, useRef, useState } from "react";
import stringWidth from "../../term/string-width.js";
import { KEY_TABLE, PICKER_KEYS, type PickerAction } from "../keys/key-table.js";
import { type KeyActions, type KeyBinding, type KeyContext, keyDispatcher } from "../keys/keymap.js";
import { frameRows } from "../state/layout.js";
import type { PickerModel } from "../state/picker.js";
import { useStore } from "../state/use-store.js";
import { useTheme } from "../theme/context.js";
import { BarLine } from "../views/BarLine.js";
import { fitParts } from "../views/fit-parts.js";
import { PickerList } from "../views/PickerList.js";
import { PickerPreviewBox } from "../views/PickerPreviewBox.js";
import { flat } from "../views/picker-rows.js";
import type { ScreenProps } from "./screen.js";

type GlobalBinding = Extract<(typeof KEY_TABLE)[number], { context: "global" }>;
/** Ctrl+C (the table's global key) leaves the picker; the rest are the picker's own. */
const BINDINGS: readonly KeyBinding<PickerAction | "interrupt", KeyContext>[] = [
	...KEY_TABLE.filter((binding): binding is GlobalBinding => binding.context === "global"),
	...PICKER_KEYS,
];

const HOME = homedir();
/** The time to the next whole minute: ages are read in minutes, and rows drawn within a minute stay as they are. */
const toMinute = (ms: number) => ms - (ms % 60_000) + 60_000;

/** Terminal input that is never text for a field: paste markers and mouse reports. */
const NOT_TEXT = /^\[20[01]~$|^\[<\d+;\d+;\d+[Mm]$/;

/** `text` without control characters (a field holds one line of what was typed). */
const printable = (text: string) => [...text].filter((char) => char >= " " && char !== "\x7f").join("");

/**
 * Between ink-text-input and the picker's keys. The field inserts whatever it is given (Ctrl+R as "r", a run of
 * keys with its Enter as "abc\r"); both see every key, in either order, within one input event. So the field's
 * change waits for the end of the event: dropped when the event was one of the picker's keys (or any Ctrl or Alt
 * key, a paste marker), its control characters removed, and an Enter inside a run of typed keys pressed after it.
 */
class FieldGuard {
	/** Bumped when a change is dropped: the field is made anew, so its cursor follows the text again. */
	epoch = 0;
	private change: { value: string; apply: (value: string) => void } | null = null;
	private command = false;
	private enter = false;
	private due = false;

	constructor(
		private readonly onEnter: () => void,
		private readonly redraw: () => void,
	) {}

	/** What the picker made of an input event (`used`: one of its keys). */
	key(text: string, key: Key, used: boolean): void {
		this.command ||= used || key.ctrl || key.meta || NOT_TEXT.test(text);
		this.enter ||= text.length > 1 && /[\r\n]/.test(text);
		this.flushSoon();
	}

	/** The field's new value (applied at the end of the event unless the event was a key of the picker's). */
	changed(value: string, apply: (value: string) => void): void {
		this.change = { value, apply };
		this.flushSoon();
	}

	private flushSoon(): void {
		if (this.due) return;
		this.due = true;
		queueMicrotask(() => this.flush());
	}

	private flush(): void {
		const { change, command, enter } = this;
		this.change = null;
		this.command = false;
		this.enter = false;
		this.due = false;
		if (change && command) {
			this.epoch++;
			this.redraw();
		} else if (change) change.apply(printable(change.value));
		if (enter && !command) this.onEnter();
	}
}

/** Enter: saves the name being typed, or opens the selected session. */
function enter(picker: PickerModel): void {
	if (picker.mode === "rename") picker.saveRename();
	else if (picker.mode === "browse") void picker.open();
}

/** The picker's actions for its keys; one that does not apply in this mode passes the key on (`false`). */
function pickerActions(picker: PickerModel): KeyActions<PickerAction | "interrupt"> {
	const listing = () => picker.mode === "browse";
	return {
		interrupt: () => (listing() ? picker.source?.back() : picker.back()),
		pickerMove: (_text, key) => listing() && picker.move(key.upArrow ? -1 : 1),
		pickerPage: (_text, key) => listing() && picker.move(key.pageUp ? -picker.pageRows : picker.pageRows),
		pickerOpen: () => enter(picker),
		pickerScope: () => listing() && picker.toggleAll(),
		pickerRename: () => listing() && picker.startRename(),
		pickerDelete: () => listing() && picker.startDelete(),
		pickerBack: () => picker.back(),
		pickerConfirm: () => picker.confirmDelete(),
	};
}

/** The picker's keys: the delete question first while it is open, then the list's (typing goes to the field). */
function usePickerKeys(picker: PickerModel, guard: FieldGuard) {
	const dispatch = useMemo(
		() =>
			keyDispatcher(
				BINDINGS,
				[
					{ context: "global" },
					// While asking, nothing else happens: a key that is not an answer is ignored.
					{ context: "picker_delete", active: () => picker.mode === "delete", rest: () => true },
					{ context: "picker" },
				],
				pickerActions(picker),
			),
		[picker],
	);
	useInput((text, key) => guard.key(text, key, dispatch(text, key)));
}

/** The hint row: what the keys do now (or the picker's message). */
function hintParts(picker: PickerModel): string[] {
	if (picker.mode === "delete") {
		const row = picker.current?.row;
		return [
			`Move "${flat(row?.title ?? "")}" to the trash? y yes · n no`,
			`gar sessions restore ${row?.id} brings it back`,
		];
	}
	if (picker.mode === "rename") return ["Enter save the name", "Esc keep the old one"];
	return [
		"↑/↓ choose",
		"Enter open",
		`Tab ${picker.all ? "this project" : "all projects"}`,
		"Ctrl+R rename",
		"Ctrl+D delete",
		picker.query ? "Esc clear" : "Esc back",
	];
}

/** The title bar: what the list holds. */
function titleOf(picker: PickerModel, cwd: string): string {
	const scope = picker.all ? "all projects" : cwd;
	if (picker.loading) return ` Resume a session │ ${scope} │ loading…`;
	const count = picker.query ? `${picker.hits.length} of ${picker.total}` : String(picker.total);
	return ` Resume a session │ ${scope} │ ${count} session${picker.total === 1 ? "" : "s"}`;
}

/**
 * The resume picker (`gar -r`, `/resume`): the sessions of this project (or of every project), newest first, filtered
 * by what is typed (name, labels, every prompt; fuzzy); the selected one's last exchange below; rename, delete to the
 * trash, and Enter to open it. Draws only the rows on screen.
 */
export function PickerScreen({ store, info, size }: ScreenProps) {
	useStore(store);
	const picker = store.picker;
	if (!picker) return <Text>no picker is open</Text>;
	return <Picker picker={picker} cwd={info.cwd} size={size} />;
}

/** The picker's frame: title bar, filter (or rename) field, list, preview, and the keys' hint or a message. */
function Picker({ picker, cwd, size }: { picker: PickerModel; cwd: string; size: ScreenProps["size"] }) {
	const theme = useTheme();
	const [, setEpoch] = useState(0);
	const guard = useRef<FieldGuard | null>(null);
	guard.current ??= new FieldGuard(
		() => enter(picker),
		() => setEpoch((n) => n + 1),
	);
	usePickerKeys(picker, guard.current);
	const rows = frameRows(size);
	const width = size.columns;
	const message = picker.message;
	const hint = message ? flat(message.text) : fitParts(hintParts(picker), width - 1, " · ").join(" · ");
	// A message is shown whole (up to 3 rows, taken from the preview); the keys' hint is one row.
	const hintRows = message ? Math.max(1, Math.min(3, Math.ceil(stringWidth(hint) / width))) : 1;
	const previewRows = rows >= 18 ? Math.min(9, Math.floor((rows - 4) / 3)) - (hintRows - 1) : 0;
	const listRows = Math.max(1, rows - 3 - hintRows - previewRows);
	useLayoutEffect(() => {
		picker.pageRows = listRows;
	});
	const field = guard.current;
	return (
		<>
			<BarLine text={flat(titleOf(picker, cwd))} width={width} />
			<Box width={width}>
				<Text color={theme.accent}>{"› "}</Text>
				{picker.mode === "rename" ? (
					<>
						<Text color={theme.muted}>{"name: "}</Text>
						<TextInput
							key={`rename-${field.epoch}`}
							value={picker.renameText}
							onChange={(value) => field.changed(value, (v) => picker.setRenameText(v))}
						/>
					</>
				) : (
					<TextInput
						key={`filter-${field.epoch}`}
						value={picker.query}
						focus={picker.mode === "browse"}
						placeholder="type to filter by name, label or any prompt"
						onChange={(value) => field.changed(value, (v) => picker.setQuery(v))}
					/>
				)}
			</Box>
			<PickerList picker={picker} width={width} height={listRows + 1} now={toMinute(Date.now())} home={HOME} />
			{previewRows > 0 ? (
				<PickerPreviewBox row={picker.current?.row} preview={picker.preview()} width={width} height={previewRows} />
			) : null}
			<Box height={hintRows} width={width}>
				<Text color={message ? theme[message.level === "info" ? "muted" : message.level] : theme.muted}>{hint}</Text>
			</Box>
		</>
	);
}
