import { Box, useStdout } from "ink";
import { useEffect, useState, useSyncExternalStore } from "react";
import type { InputModel } from "../state/input-model.js";
import { frameRows, type Size } from "../state/layout.js";
import type { UiStore } from "../state/store.js";
import { ChangesScreen } from "./ChangesScreen.js";
import { ChatScreen } from "./ChatScreen.js";
import { DocScreen } from "./DocScreen.js";
import { ModelPickerScreen } from "./ModelPickerScreen.js";
import { PickerScreen } from "./PickerScreen.js";
import { ReplayScreen } from "./ReplayScreen.js";
import { RewindScreen } from "./RewindScreen.js";
import type { AppActions, AppInfo, Screen } from "./screen.js";
import { TreeScreen } from "./TreeScreen.js";

export type { AppActions, AppInfo } from "./screen.js";

/**
 * The app's screens by the name the store keeps on its stack: the chat, the session tree, the replay, the doc screen
 * (the request viewer), the resume picker, the model picker, /changes, rewind; the next ones
 * register here.
 */
export const SCREENS: Readonly<Record<string, Screen>> = {
	chat: ChatScreen,
	tree: TreeScreen,
	replay: ReplayScreen,
	picker: PickerScreen,
	doc: DocScreen,
	models: ModelPickerScreen,
	changes: ChangesScreen,
	rewind: RewindScreen,
};

export type AppProps = {
	store: UiStore;
	input: InputModel;
	info: AppInfo;
	actions: AppActions;
	/** For tests: a fixed size instead of the terminal's. */
	size?: Size;
	/** The screens to draw by name (default SCREENS; tests add their own). */
	screens?: Readonly<Record<string, Screen>>;
};

function useTerminalSize(fixed?: Size): Size {
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
 * The full-screen app: a router of screens over one store. It draws the screen on top of the store's stack (the
 * chat, or one opened over it) in the whole frame, which is one row shorter than the terminal (`frameRows`: Ink
 * clears the whole screen on every frame at full height); that screen takes the keys.
 */
export function App({ store, input, info, actions, size: fixed, screens = SCREENS }: AppProps) {
	const name = useSyncExternalStore(store.subscribe, () => store.screen);
	const size = useTerminalSize(fixed);
	const Top = screens[name] ?? ChatScreen;
	return (
		<Box flexDirection="column" width={size.columns} height={frameRows(size)}>
			<Top store={store} input={input} info={info} actions={actions} size={size} />
		</Box>
	);
}
