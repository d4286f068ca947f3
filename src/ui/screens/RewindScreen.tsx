import { Box, Text, useInput } from "ink";
import { useMemo } from "react";
import { sanitizeForTerminal } from "../../term/sanitize.js";
import { plural } from "../../text/plural.js";
import { KEY_TABLE, REWIND_KEYS } from "../keys/key-table.js";
import { type KeyBinding, keyDispatcher } from "../keys/keymap.js";
import { frameRows } from "../state/layout.js";
import {
	type PreviewLine,
	REWIND_CHOICES,
	type RewindRow,
	type RewindVerdict,
	type RewindView,
	rewindViewOf,
} from "../state/rewind-view.js";
import type { UiStore } from "../state/store.js";
import { useStore } from "../state/use-store.js";
import { useTheme } from "../theme/context.js";
import type { Theme } from "../theme/theme.js";
import { BarLine } from "../views/BarLine.js";
import { fitParts } from "../views/fit-parts.js";
import type { ScreenProps } from "./screen.js";

type Action = (typeof REWIND_KEYS)[number]["action"] | "interrupt";
const GLOBAL = KEY_TABLE.filter((binding) => binding.context === "global") as readonly KeyBinding<
	"interrupt",
	"global"
>[];
const KEYS: readonly KeyBinding<Action, "global" | "rewind">[] = [...GLOBAL, ...REWIND_KEYS];

const LIST_HINTS = ["↑↓ choose", "Enter rewind to before it", "t the whole tree", "Esc back"];
const CHOICE_HINTS = ["↑↓ choose", "Enter do it", "PgUp/PgDn scroll the preview", "Esc back"];

/** A text on one line, as a terminal may show it. */
const oneLine = (text: string) => sanitizeForTerminal(text).replace(/\s+/g, " ").trim();

/** What was changed after a prompt, in words. */
function changedAfter(row: Pick<RewindRow, "edited" | "bashChanged">): string {
	if (row.edited === 0 && row.bashChanged === 0) return "no file changed after it";
	const parts = [
		row.edited > 0 ? `${plural(row.edited, "file")} edited` : "",
		row.bashChanged > 0 ? `${row.bashChanged} by bash` : "",
	];
	return parts.filter(Boolean).join(" · ");
}

/** Closes the rewind screen and what it was opened over (the tree), back to the chat. */
function closeAll(store: UiStore): void {
	while (store.screen !== "chat") store.closeScreen();
}

function toneColor(line: PreviewLine, theme: Theme): string | undefined {
	if (line.tone === "warning") return theme.warning;
	if (line.tone === "muted") return theme.muted;
	if (line.tone === "head") return theme.accent;
	return undefined;
}

/** The list: the prompts on the current path, newest first, the selected one kept on screen. */
function PromptList({ view, width, height }: { view: RewindView; width: number; height: number }) {
	const theme = useTheme();
	const top = Math.max(0, view.selected - height + 1);
	return (
		<>
			{view.rows.slice(top, top + height).map((row, i) => {
				const selected = top + i === view.selected;
				return (
					<Box key={row.place.to ?? "start"} width={width}>
						<Box flexGrow={1} flexShrink={1}>
							<Text inverse={selected} wrap="truncate-end">
								{`${selected ? "›" : " "} you › ${oneLine(row.text)}`}
							</Text>
						</Box>
						<Text color={theme.muted}>{`  ${changedAfter(row)}`}</Text>
					</Box>
				);
			})}
		</>
	);
}

/** The rows the preview has under the title and the choices (and their blank rows), in a body `height` rows tall. */
const previewRows = (height: number) => Math.max(1, height - REWIND_CHOICES.length - 3);

/** The choice: where it goes, the four options, and the highlighted one's preview (scrolled, cut to the rows left). */
function Choice({ view, height }: { view: RewindView; height: number }) {
	const theme = useTheme();
	const lines = view.preview();
	const room = previewRows(height);
	const shown = lines.slice(view.scroll, view.scroll + room);
	const more = lines.length - view.scroll - shown.length;
	if (more > 0) shown[shown.length - 1] = { text: `… ${plural(more + 1, "more line")} (PgDn)`, tone: "muted" };
	return (
		<>
			<Text bold color={theme.accent} wrap="truncate-end">
				{`rewind ${oneLine(view.place?.title ?? "")}`}
			</Text>
			<Text> </Text>
			{REWIND_CHOICES.map((choice, i) => (
				<Text key={choice.label} inverse={i === view.choice} wrap="truncate-end">
					{`${i === view.choice ? "›" : " "} ${choice.label}`}
				</Text>
			))}
			<Text> </Text>
			{shown.map((line, i) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: a row of the scrolled preview is its line number.
				<Text key={view.scroll + i} color={toneColor(line, theme)} bold={line.tone === "head"} wrap="truncate-end">
					{sanitizeForTerminal(line.text) || " "}
				</Text>
			))}
		</>
	);
}

/**
 * Rewind (Esc Esc on an empty idle input, /rewind; the tree's Enter when the move crosses file changes): the prompts
 * on the current path, newest first, each with the files changed after it; Enter offers what goes back (the
 * conversation and the files, one of them, or cancel) with a preview of the files to restore, the conflicts and what
 * bash changed; Enter on a choice does it (ui/rewind-intents.ts) and goes back to the chat.
 */
export function RewindScreen({ store, actions, size }: ScreenProps) {
	useStore(store);
	const theme = useTheme();
	const view = rewindViewOf(store);
	const height = Math.max(1, frameRows(size) - 2);
	const dispatch = useMemo(() => {
		const act = (change: (open: RewindView) => RewindVerdict | undefined) => {
			const open = rewindViewOf(store);
			// A line of news stays until the next key.
			if (open) open.message = null;
			const verdict = open ? change(open) : "back";
			if (verdict === "back") store.closeScreen();
			else if (verdict === "done") closeAll(store);
			store.changed();
		};
		return keyDispatcher(KEYS, [{ context: "global" }, { context: "rewind", rest: () => true }], {
			interrupt: () => act((open) => open.back()),
			rewindMove: (_text, key) => act((open) => void open.move(key.upArrow ? -1 : 1)),
			// A page of the preview keeps its last row on screen (the list's page is the whole body).
			rewindPage: (_text, key) => {
				const page = rewindViewOf(store)?.stage === "choose" ? Math.max(1, previewRows(height) - 1) : height;
				act((open) => void open.page(key.pageUp ? -page : page));
			},
			rewindChoose: () => act((open) => open.enter()),
			rewindBack: () => act((open) => open.back()),
			rewindTree: () => {
				if (rewindViewOf(store)?.stage !== "list") return;
				store.closeScreen();
				const why = actions.session?.openTree();
				if (why) store.flashHint(why);
			},
		});
	}, [store, actions, height]);
	useInput((text, key) => {
		// A key after the screen closed (Ink drops the listener only after the next frame) is not the rewind's.
		if (store.screen === "rewind") dispatch(text, key);
	});
	if (!view) return <Text>no rewind is open (Esc goes back)</Text>;
	const choosing = view.stage === "choose";
	const title = choosing
		? " rewind · what goes back"
		: ` rewind · your prompts on this path, newest first · ${plural(view.rows.length, "prompt")}`;
	const hints = choosing ? CHOICE_HINTS : LIST_HINTS;
	return (
		<Box flexDirection="column" width={size.columns} height={frameRows(size)}>
			<BarLine text={title} width={size.columns} />
			<Box flexDirection="column" height={height}>
				{choosing ? (
					<Choice view={view} height={height} />
				) : (
					<PromptList view={view} width={size.columns} height={height} />
				)}
			</Box>
			<Text color={view.message?.warning ? theme.warning : theme.muted} wrap="truncate-end">
				{view.message ? sanitizeForTerminal(view.message.text) : fitParts(hints, size.columns, " · ").join(" · ")}
			</Text>
		</Box>
	);
}
