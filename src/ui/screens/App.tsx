import { Box, Text, useInput, useStdout } from "ink";
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { sanitizeForTerminal } from "../../term/sanitize.js";
import { layoutApproval } from "../state/approval-layout.js";
import type { InputModel } from "../state/input-model.js";
import { INSPECTOR_MIN_COLUMNS, type UiStore } from "../state/store.js";
import { useStore } from "../state/use-store.js";
import { withoutLateReplies } from "../terminal/late-reply.js";
import { useTheme } from "../theme/context.js";
import { ApprovalPanel } from "../views/ApprovalPanel.js";
import { Chat } from "../views/Chat.js";
import { InputBox, inputTextWidth } from "../views/InputBox.js";
import { Inspector } from "../views/Inspector.js";
import { StatusBar } from "../views/StatusBar.js";
import { createKeyHandler, type KeyDeps } from "./chat-keys.js";

const INSPECTOR_WIDTH = 44;
/** Blank columns between the chat and the inspector's border, so text never touches it. */
const GUTTER = 1;

export type AppInfo = {
	version: string;
	cwd: string;
	branch: string | null;
	sessionId: () => string | null;
	sessionName: () => string | undefined;
	/** Which of the session's branches the conversation is on ("2 of 3"; view/format.ts branchLabel). */
	sessionBranch: () => string;
	running: () => boolean;
};

/** What the keys ask of the app beyond the store and the input: send, stop, quit, suspend, $EDITOR, the queue. */
export type AppActions = Pick<KeyDeps, "submit" | "abort" | "exit" | "suspend" | "externalEditor" | "pullQueued">;

export type AppProps = {
	store: UiStore;
	input: InputModel;
	info: AppInfo;
	actions: AppActions;
	/** For tests: a fixed size instead of the terminal's. */
	size?: { columns: number; rows: number };
};

/** After the last queued message: how to take it back. */
const QUEUE_HINT = "   (↑ on an empty input edits it)";

/** A queued message in one short line (it may be a whole paste). */
function firstLine(text: string): string {
	const end = text.indexOf("\n");
	const line = (end === -1 ? text : text.slice(0, end)).slice(0, 300);
	return end === -1 && text.length <= 300 ? line : `${line} …`;
}

function useTerminalSize(fixed?: { columns: number; rows: number }) {
	const { stdout } = useStdout();
	const read = () => fixed ?? { columns: stdout.columns || 80, rows: stdout.rows || 24 };
	const [size, setSize] = useState(read);
	useEffect(() => {
		if (fixed) return;
		const onResize = () => setSize({ columns: stdout.columns || 80, rows: stdout.rows || 24 });
		stdout.on("resize", onResize);
		return () => {
			stdout.off("resize", onResize);
		};
	}, [stdout, fixed]);
	return fixed ?? size;
}

/**
 * The full-screen app: status bar, chat and inspector, queued messages, and the input (or the approval question).
 * A view over the store: it holds no agent logic; keys become store changes or conversation intents. The root is
 * one row shorter than the terminal, because Ink clears the whole screen on every frame at full height.
 */
export function App({ store, input, info, actions, size: fixed }: AppProps) {
	useStore(store);
	const theme = useTheme();
	const { columns, rows } = useTerminalSize(fixed);
	const height = Math.max(6, rows - 1);
	const showInspector = store.inspector && columns >= INSPECTOR_MIN_COLUMNS;
	const chatWidth = showInspector ? columns - INSPECTOR_WIDTH - 1 - GUTTER : columns;
	const { view, approval } = store;
	const queued = [
		...view.queue.steers.map((t) => `steer: ${firstLine(t)}`),
		...view.queue.followUps.map((t) => `then: ${firstLine(t)}`),
	];
	// The question takes what its preview needs (headline, body, keys, border), at most half the screen. The keys
	// scroll and check "read it all" by what is on screen.
	const layout = approval
		? layoutApproval(approval, columns, Math.min(Math.max(8, Math.floor(height / 2)), height - 4))
		: null;
	if (approval && layout) {
		// Another width wraps the preview anew: rows seen in the old wrapping no longer say what was read.
		if (approval.fit && approval.fit.total !== layout.body.length) approval.seen = 0;
		approval.fit = { rows: layout.rows, total: layout.body.length };
	}
	const approvalHeight = layout?.height ?? 0;
	const typing = !approval || approval.stage === "reason";
	const running = info.running();
	const action = approval?.stage === "reason" ? "deny with this reason" : running ? "steer" : "send";
	const prompt = approval ? "reason › " : "› ";
	// The input's height (its rows, the popup) is all App reads of it: typing re-renders App only when that changes.
	input.width = inputTextWidth(columns, action, prompt);
	const inputHeight = useSyncExternalStore(input.subscribe, input.getHeight);
	const footer = approvalHeight + (typing ? inputHeight : 0) + queued.length + (store.hint ? 1 : 0);
	const chatHeight = Math.max(1, height - 1 - footer);
	// The handler reads the layout through a ref: a new layout (a hint row appearing) must not make a new handler.
	const frame = useRef({ rows: chatHeight, columns });
	frame.current = { rows: chatHeight, columns };
	const handler = useMemo(
		() =>
			withoutLateReplies(
				createKeyHandler({
					store,
					input,
					running: info.running,
					page: () => frame.current.rows,
					columns: () => frame.current.columns,
					...actions,
				}),
			),
		[store, input, info, actions],
	);
	useInput(handler);
	return (
		<Box flexDirection="column" width={columns} height={height}>
			<StatusBar
				version={info.version}
				view={view}
				viewVersion={store.getVersion()}
				width={columns}
				cwd={info.cwd}
				branch={info.branch}
				sessionId={info.sessionId()}
				sessionName={info.sessionName()}
				summary={!showInspector}
				idleTimeoutMs={store.idleTimeoutMs()}
			/>
			<Box height={chatHeight}>
				<Chat store={store} width={chatWidth} height={chatHeight} version={store.getVersion()} />
				{showInspector ? (
					<Box
						marginLeft={GUTTER}
						borderStyle="single"
						borderTop={false}
						borderBottom={false}
						borderRight={false}
						borderColor={theme.border}
					>
						<Inspector
							view={view}
							width={INSPECTOR_WIDTH}
							version={store.getVersion()}
							sessionId={info.sessionId()}
							sessionBranch={info.sessionBranch()}
							idleTimeoutMs={store.idleTimeoutMs()}
						/>
					</Box>
				) : null}
			</Box>
			{queued.map((text, i) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: queued messages are shown in queue order; equal texts may repeat.
				<Box key={`q${i}`} width={columns}>
					<Text color={theme.muted} wrap="truncate-end">
						⏳ {sanitizeForTerminal(text)}
					</Text>
					{/* The hint is never cut: a long message gives way to it. */}
					{i === queued.length - 1 ? (
						<Box flexShrink={0}>
							<Text color={theme.muted}>{QUEUE_HINT}</Text>
						</Box>
					) : null}
				</Box>
			))}
			{store.hint ? (
				<Text color={theme.warning} wrap="truncate-end">
					{store.hint}
				</Text>
			) : null}
			{layout ? <ApprovalPanel layout={layout} width={columns} version={store.getVersion()} /> : null}
			{typing ? <InputBox model={input} width={columns} action={action} prompt={prompt} /> : null}
		</Box>
	);
}
