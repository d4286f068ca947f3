import { Box, Text, useInput } from "ink";
import { useMemo } from "react";
import { clean, expandTabs } from "../chat/lines.js";
import { CHANGES_KEYS, KEY_TABLE } from "../keys/key-table.js";
import { type KeyBinding, keyDispatcher } from "../keys/keymap.js";
import { type ChangesView, changesViewOf } from "../state/changes-view.js";
import { frameRows } from "../state/layout.js";
import { useStore } from "../state/use-store.js";
import { useTheme } from "../theme/context.js";
import type { Theme } from "../theme/theme.js";
import type { ScreenProps } from "./screen.js";

type Action = (typeof CHANGES_KEYS)[number]["action"] | "interrupt";
const GLOBAL = KEY_TABLE.filter((binding) => binding.context === "global") as readonly KeyBinding<
	"interrupt",
	"global"
>[];
const KEYS: readonly KeyBinding<Action, "global" | "changes">[] = [...GLOBAL, ...CHANGES_KEYS];
/** Rows around the list or the diff: the title, a note, the keys' line. */
const CHROME_ROWS = 4;

function lineColor(line: string, theme: Theme): string {
	if (line.startsWith("+")) return theme.diff.added;
	if (line.startsWith("-")) return theme.diff.removed;
	if (line.startsWith("@@")) return theme.diff.hunk;
	return theme.diff.context;
}

/**
 * /changes: the files this session's writes and edits changed, with their +/− counts; Enter shows the selected
 * file's diff from before the session to now (↑/↓/PgUp/PgDn scroll it), Esc goes back (to the list, then the chat).
 */
export function ChangesScreen({ store, size }: ScreenProps) {
	useStore(store);
	const theme = useTheme();
	const view = changesViewOf(store);
	const page = Math.max(1, frameRows(size) - CHROME_ROWS);
	const dispatch = useMemo(() => {
		const close = () => store.closeScreen();
		const act = (change: (open: ChangesView) => void) => {
			const open = changesViewOf(store);
			if (!open) return close();
			change(open);
			store.changed();
		};
		return keyDispatcher(KEYS, [{ context: "global" }, { context: "changes" }], {
			interrupt: close,
			changesMove: (_text, key) => act((open) => open.move(key.upArrow ? -1 : 1)),
			changesPage: (_text, key) => act((open) => open.move(key.pageUp ? -page : page)),
			changesOpen: () => act((open) => open.open()),
			changesBack: () => {
				const open = changesViewOf(store);
				if (open?.back()) store.changed();
				else close();
			},
		});
	}, [store, page]);
	useInput((text, key) => {
		dispatch(text, key);
	});
	if (!view) return <Text>no list of changes is open (Esc goes back)</Text>;
	const row = view.rows[view.selected];
	const body = view.diff
		? view.diff.lines.slice(view.scroll, view.scroll + page).map((line, i) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: a row of the scrolled diff is its line number.
				<Text key={view.scroll + i} color={lineColor(line, theme)} wrap="truncate-end">
					{clean(expandTabs(line)) || " "}
				</Text>
			))
		: view.rows.slice(Math.max(0, view.selected - page + 1), Math.max(page, view.selected + 1)).map((r) => (
				<Text key={r.name} inverse={r === row} wrap="truncate-end">
					{`  ${clean(r.name)}  `}
					<Text color={r === row ? undefined : theme.muted}>{r.summary}</Text>
				</Text>
			));
	const keys = view.diff
		? "↑/↓ PgUp/PgDn scroll · Esc back to the list"
		: "↑/↓ choose · Enter the file's diff since before the session · Esc back";
	return (
		<Box flexDirection="column" width={size.columns} height={frameRows(size)}>
			<Text bold color={theme.accent} wrap="truncate-end">
				{view.diff && row ? clean(`${row.name} · ${row.summary}`) : view.title}
			</Text>
			<Text color={theme.warning} wrap="truncate-end">
				{view.diff?.note ? clean(view.diff.note) : " "}
			</Text>
			{body}
			<Box flexGrow={1} />
			<Text color={theme.muted} wrap="truncate-end">
				{keys}
			</Text>
		</Box>
	);
}
