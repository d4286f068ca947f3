import { Box } from "ink";
import { useLayoutEffect } from "react";
import { type ChatLayout, GUTTER, INSPECTOR_WIDTH } from "../state/layout.js";
import type { UiStore } from "../state/store.js";
import { useTheme } from "../theme/context.js";
import { Chat } from "../views/Chat.js";
import { Inspector } from "../views/Inspector.js";
import { StatusBar } from "../views/StatusBar.js";
import type { AppInfo } from "./screen.js";

/**
 * The top of a conversation's screen: the status bar, then the chat with the inspector to its right, placed by
 * `layout`. The chat screen and the replay screen draw the same panes from the same store.
 */
export function ChatPanes({ store, info, layout }: { store: UiStore; info: AppInfo; layout: ChatLayout }) {
	const theme = useTheme();
	const { chat, columns } = layout;
	const { view } = store;
	const version = store.getVersion();
	// After Ink was handed the frame (React calls its render before layout effects): a preview waits for it.
	useLayoutEffect(() => store.committed());
	return (
		<>
			<StatusBar
				version={info.version}
				view={view}
				viewVersion={version}
				width={columns}
				cwd={info.cwd}
				branch={info.branch}
				sessionId={info.sessionId()}
				sessionName={info.sessionName()}
				sessionLabel={info.sessionLabel?.()}
				summary={!layout.inspector}
				idleTimeoutMs={store.idleTimeoutMs()}
				loading={store.previewing}
			/>
			<Box height={chat.height}>
				<Chat store={store} width={chat.width} height={chat.height} version={version} />
				{layout.inspector ? (
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
							version={version}
							sessionId={info.sessionId()}
							sessionBranch={info.sessionBranch()}
							idleTimeoutMs={store.idleTimeoutMs()}
							loading={store.previewing}
						/>
					</Box>
				) : null}
			</Box>
		</>
	);
}
