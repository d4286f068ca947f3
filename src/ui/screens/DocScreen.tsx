import { Box, type Key, Text, useInput } from "ink";
import { useMemo } from "react";
import type { Tone } from "../../view/request-view.js";
import { DOC_KEYS, type DocKeyAction } from "../keys/key-table.js";
import { keyDispatcher, keysOf } from "../keys/keymap.js";
import type { OpenDoc, ShownRow } from "../state/doc-view.js";
import { frameRows } from "../state/layout.js";
import type { UiStore } from "../state/store.js";
import { useStore } from "../state/use-store.js";
import { useTheme } from "../theme/context.js";
import type { Theme } from "../theme/theme.js";
import type { ScreenProps } from "./screen.js";

/** The rows between the title bar and the bottom line. */
function bodyRows(size: ScreenProps["size"]): number {
	return Math.max(1, frameRows(size) - 2);
}

function colorOf(tone: Tone, theme: Theme): string {
	switch (tone) {
		case "title":
			return theme.tool;
		case "muted":
			return theme.muted;
		case "accent":
			return theme.accent;
		case "good":
			return theme.success;
		case "warning":
			return theme.warning;
		case "error":
			return theme.error;
		default:
			return theme.text;
	}
}

/** The doc screen's keys: scrolling, folding, `/` search with n and p, `[` `]` between calls, Esc back. */
function docKeys(store: UiStore, open: OpenDoc, size: ScreenProps["size"]) {
	const { doc } = open;
	const width = size.columns;
	const height = bodyRows(size);
	const close = () => {
		store.doc = null;
		store.closeScreen();
	};
	const actions: Record<DocKeyAction, () => unknown> = {
		interrupt: close,
		docClose: close,
		docLine: () => undefined,
		docPage: () => undefined,
		docEdge: () => undefined,
		docPrevSection: () => doc.select(-1, width, height),
		docNextSection: () => doc.select(1, width, height),
		docToggle: () => doc.toggle(),
		docToggleNth: () => undefined,
		docFind: () => {
			doc.typing = "";
		},
		docNextHit: () => doc.next(1, width, height),
		docPrevHit: () => doc.next(-1, width, height),
		docPrevCall: () => open.step?.(-1),
		docNextCall: () => open.step?.(1),
		findCancel: () => {
			doc.typing = null;
		},
		findRun: () => {
			const query = doc.typing ?? "";
			doc.typing = null;
			if (doc.search(query) > 0) doc.next(1, width, height);
			else store.flashHint(query ? `not found: ${query}` : "nothing to search for");
		},
		findBackspace: () => {
			doc.typing = (doc.typing ?? "").slice(0, -1);
		},
	};
	const dispatch = keyDispatcher(
		DOC_KEYS,
		[
			{ context: "global" },
			{
				context: "find",
				active: () => doc.typing !== null,
				// Typed text goes into the query; other keys wait until the search runs or is cancelled.
				rest: (text, key) => {
					const printable = Array.from(text)
						.filter((c) => c >= " " && c !== "\x7f")
						.join("");
					if (!key.ctrl && !key.meta) doc.typing = (doc.typing ?? "") + printable;
					return true;
				},
			},
			{ context: "doc" },
		],
		{
			...actions,
			// Keys whose action depends on which key it was.
			docLine: (_text, key) => doc.scrollBy(key.upArrow ? -1 : 1, width, height),
			docPage: (_text, key) => doc.scrollBy((key.pageUp ? -1 : 1) * Math.max(1, height - 1), width, height),
			docEdge: (_text, key) =>
				doc.scrollBy(key.home ? -Number.MAX_SAFE_INTEGER : Number.MAX_SAFE_INTEGER, width, height),
			docToggleNth: (text) => doc.toggle(Number(text) - 1),
		},
	);
	return (text: string, key: Key) => {
		// A run of keys typed fast arrives as one string ("/find me\r"): each is a key of its own here.
		const keys = keysOf(text, key) ?? [[text, key]];
		let used = false;
		for (const [one, pressed] of keys) used = dispatch(one, pressed) || used;
		if (used) store.changed();
	};
}

/** One row: its text in its tone, the selected section's title inverse, the search hit marked. */
function Row({ row, theme }: { row: ShownRow; theme: Theme }) {
	const color = colorOf(row.line.tone, theme);
	const bold = row.line.title === true;
	if (!row.hit) {
		return (
			<Text color={color} bold={bold} inverse={row.selected === true} wrap="truncate-end">
				{row.text || " "}
			</Text>
		);
	}
	const { start, end } = row.hit;
	return (
		<Text color={color} bold={bold} wrap="truncate-end">
			{row.text.slice(0, start)}
			<Text inverse>{row.text.slice(start, end)}</Text>
			{row.text.slice(end)}
		</Text>
	);
}

/**
 * The doc screen: a document of foldable sections (the request viewer, a sub-agent's session read-only) drawn in the
 * whole frame — a title bar, only the rows on screen, and a bottom line with the keys or the search being typed.
 */
export function DocScreen({ store, size }: ScreenProps) {
	useStore(store);
	const theme = useTheme();
	const open = store.doc;
	const handler = useMemo(() => (open ? docKeys(store, open, size) : null), [store, open, size]);
	// Ink drops an unmounted screen's listener a frame late: a key pressed meanwhile is not this screen's.
	useInput((text, key) => {
		if (store.screen === "doc") handler?.(text, key);
	});
	if (!open) return <Text color={theme.muted}>nothing open: Esc goes back</Text>;
	const { doc } = open;
	const height = bodyRows(size);
	const rows = doc.visible(size.columns, height);
	const total = doc.total(size.columns);
	const found = doc.found;
	const where = `${Math.min(total, doc.top + height)}/${total}`;
	const hits = found.count > 0 ? ` · match ${found.current} of ${found.count}` : "";
	const keys = open.step
		? "Esc back · [ ] calls · Tab/Enter/1-9 fold · / find · n p"
		: "Esc back · Tab/Enter/1-9 fold · / find · n p";
	return (
		<Box flexDirection="column" width={size.columns} height={frameRows(size)}>
			<Text color={theme.status.fg} inverse wrap="truncate-end">
				{` ${open.title} `.padEnd(size.columns)}
			</Text>
			<Box flexDirection="column" height={height}>
				{rows.map((row, i) => (
					// Rows are positions on screen: their keys are their places.
					// biome-ignore lint/suspicious/noArrayIndexKey: a row is its place on screen
					<Row key={i} row={row} theme={theme} />
				))}
			</Box>
			{doc.typing !== null ? (
				<Text color={theme.accent} wrap="truncate-end">
					/{doc.typing}▏ <Text color={theme.muted}>Enter find · Esc cancel</Text>
				</Text>
			) : (
				<Text color={theme.muted} wrap="truncate-end">
					{store.hint ?? `${where}${hits} · ${keys}`}
				</Text>
			)}
		</Box>
	);
}
