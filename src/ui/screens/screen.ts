import type { ReactNode } from "react";
import type { InputModel } from "../state/input-model.js";
import type { Size } from "../state/layout.js";
import type { UiStore } from "../state/store.js";
import type { KeyDeps } from "./chat-keys.js";

/** What the status bar and the inspector show of where gar works and of the session (functions: read when drawn). */
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

/** What every screen is drawn from: the one store and input, the app's facts and actions, the terminal's size. */
export type ScreenProps = { store: UiStore; input: InputModel; info: AppInfo; actions: AppActions; size: Size };

/**
 * A screen: a component drawn in the whole frame while it is on top of the store's screens, which takes its own keys
 * (its context of the key table) with Ink's useInput; only the screen on top is mounted, so only its keys are read.
 */
export type Screen = (props: ScreenProps) => ReactNode;
