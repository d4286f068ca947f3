import { Text, useInput } from "ink";
import { useLayoutEffect, useMemo, useRef } from "react";
import { chatLayout } from "../state/layout.js";
import { useStore } from "../state/use-store.js";
import { withoutLateReplies } from "../terminal/late-reply.js";
import { useTheme } from "../theme/context.js";
import { ReplayBar } from "../views/ReplayBar.js";
import { ChatPanes } from "./ChatPanes.js";
import { createReplayKeys } from "./replay-keys.js";
import type { ScreenProps } from "./screen.js";

/** The replay bar takes the input's place: one row. */
const BAR_ROWS = 1;

/**
 * `gar replay` in a terminal: the session plays through the same panes as a live run (status bar, chat, inspector),
 * folded by the same reducer; the replay bar takes the input's place, and the keys drive the replay (createReplayKeys).
 * Nothing typed is sent.
 */
export function ReplayScreen({ store, info, actions, size }: ScreenProps) {
	useStore(store);
	const theme = useTheme();
	const layout = chatLayout(size, store, () => BAR_ROWS, false);
	const drawn = useRef(layout);
	useLayoutEffect(() => {
		drawn.current = layout;
	});
	const handler = useMemo(
		() =>
			withoutLateReplies(
				createReplayKeys({
					store,
					exit: actions.exit,
					...(actions.suspend ? { suspend: actions.suspend } : {}),
					page: () => drawn.current.chat.height,
					columns: () => drawn.current.columns,
				}),
			),
		[store, actions],
	);
	useInput(handler);
	const { replay } = store;
	return (
		<>
			<ChatPanes store={store} info={info} layout={layout} />
			{layout.hint ? (
				<Text color={theme.warning} wrap="truncate-end">
					{store.hint}
				</Text>
			) : null}
			{replay ? (
				<ReplayBar progress={replay.progress} width={layout.columns} />
			) : (
				<Text color={theme.muted}>loading the session…</Text>
			)}
		</>
	);
}
