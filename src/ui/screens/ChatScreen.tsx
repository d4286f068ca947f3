import { type Key, Text, useInput } from "ink";
import { useLayoutEffect, useMemo, useRef, useSyncExternalStore } from "react";
import { type ChatLayout, chatLayout, inputPlace } from "../state/layout.js";
import { useStore } from "../state/use-store.js";
import { withoutLateReplies } from "../terminal/late-reply.js";
import { useTheme } from "../theme/context.js";
import { ApprovalPanel } from "../views/ApprovalPanel.js";
import { InputBox } from "../views/InputBox.js";
import { QueuedRows } from "../views/QueuedRows.js";
import { TranscriptBar } from "../views/TranscriptBar.js";
import { ChatPanes } from "./ChatPanes.js";
import { createKeyHandler } from "./chat-keys.js";
import type { ScreenProps } from "./screen.js";

/** The chat screen's keys (the table's global, approval, search, chat and editor contexts), over its last layout. */
function useChatKeys({ store, input, info, actions }: ScreenProps, drawn: { current: ChatLayout }) {
	const handler = useMemo(
		() =>
			withoutLateReplies(
				createKeyHandler({
					store,
					input,
					running: info.running,
					page: () => drawn.current.chat.height,
					columns: () => drawn.current.columns,
					approvalFit: () => {
						const panel = drawn.current.approval;
						return panel && { rows: panel.rows, total: panel.body.length };
					},
					...actions,
				}),
			),
		[store, input, info, actions, drawn],
	);
	// Only while the chat is on top: a screen opened over it is drawn at once, but Ink drops the chat's listener only
	// after that frame, and a key in between is the new screen's alone.
	const onTop = useMemo(
		() => (text: string, key: Key) => {
			if (store.screen === "chat") handler(text, key);
		},
		[store, handler],
	);
	useInput(onTop);
}

/**
 * The chat screen: status bar, chat and inspector, queued messages, a hint, and the input (or the approval
 * question, or the transcript mode's bar), placed by `chatLayout`. A view over the store: keys become store changes or conversation intents.
 */
export function ChatScreen(props: ScreenProps) {
	const { store, input, info, size } = props;
	useStore(store);
	const theme = useTheme();
	const running = info.running();
	// The input's height is all the screen reads of the input: typing re-renders it only when that changes.
	const place = inputPlace(size.columns, store, running);
	useSyncExternalStore(input.subscribe, () => input.heightAt(place.width));
	const layout = chatLayout(size, store, (width) => input.heightAt(width), running);
	// The keys page, scroll the question and move by input rows as last drawn (never set while drawing).
	const drawn = useRef(layout);
	useLayoutEffect(() => {
		drawn.current = layout;
		input.width = layout.input.width;
	});
	useChatKeys(props, drawn);
	const { columns } = layout;
	const { view } = store;
	const version = store.getVersion();
	return (
		<>
			<ChatPanes store={store} info={info} layout={layout} />
			<QueuedRows queue={view.queue} width={columns} />
			{layout.hint ? (
				<Text color={theme.warning} wrap="truncate-end">
					{store.hint}
				</Text>
			) : null}
			{layout.transcript && store.transcript ? (
				<TranscriptBar transcript={store.transcript} blocks={view.items.length} width={columns} />
			) : null}
			{layout.approval ? <ApprovalPanel layout={layout.approval} width={columns} version={version} /> : null}
			{layout.input.shown ? (
				<InputBox model={input} width={columns} action={layout.input.action} prompt={layout.input.prompt} />
			) : null}
		</>
	);
}
