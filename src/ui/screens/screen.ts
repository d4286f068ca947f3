import type { ReactNode } from "react";
import type { Session } from "../../session/index.js";
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
	/** The label nearest the current leaf on its path (the status bar shows it); absent: none. */
	sessionLabel?: () => string | undefined;
	running: () => boolean;
};

/**
 * What the session screens (the tree) and commands (/tree, /fork, /clone) ask of the conversation's session
 * (ui/session-intents.ts, once the conversation exists). A method that cannot do what it is asked throws an Error
 * whose message says why and what to do; nothing is ever deleted.
 */
export type SessionIntents = {
	/** The session in memory; null when the conversation is not saved. */
	session: () => Session | null;
	/** Opens the tree screen; returns why not (nothing to show yet), or null. */
	openTree: () => string | null;
	/**
	 * The one way the app moves the current leaf (the tree's Enter, edit and resend): saved as a leaf record, the
	 * context and the chat rebuilt from the new path. Refused while a run goes on. The rewinding of files is to
	 * wrap this step.
	 */
	moveLeaf: (entryId: string | null) => void;
	/**
	 * Opens the rewind screen (Esc Esc, /rewind): the prompts on the current path, newest first; returns why not (not
	 * saved, a run going, nothing sent yet), or null.
	 */
	openRewind: () => string | null;
	/**
	 * The tree's "make this the leaf": when the move to `entryId` crosses file changes, opens the rewind screen's choice
	 * for it (the conversation and the files, one of them, cancel) and returns true; false: no file would change.
	 */
	chooseMove: (entryId: string) => boolean;
	/** /redo: takes the last rewind back (the leaf and the files); the outcome goes to the chat. */
	redo: () => void;
	/** Edit and resend: the leaf moves to the prompt's parent and its text goes into the editor. */
	editPrompt: (entryId: string) => void;
	/** Labels an entry (null or blank: clears its label). */
	label: (entryId: string, text: string | null) => void;
	/**
	 * Copies the path up to `entryId` (default: the current leaf) into a new session and switches to it; what it
	 * cannot do throws at once, and it resolves once the switch is done (after any session hooks).
	 */
	fork: (entryId?: string) => Promise<void>;
};

/** What the keys ask of the app beyond the store and the input: send, stop, quit, suspend, $EDITOR, the queue. */
export type AppActions = Pick<
	KeyDeps,
	| "submit"
	| "abort"
	| "exit"
	| "suspend"
	| "externalEditor"
	| "pullQueued"
	| "doubleEscape"
	| "openRequest"
	| "openSubagent"
> & {
	/** The session's intents, once the conversation exists (absent before, and in tests that need none). */
	session?: SessionIntents;
};

/** What every screen is drawn from: the one store and input, the app's facts and actions, the terminal's size. */
export type ScreenProps = { store: UiStore; input: InputModel; info: AppInfo; actions: AppActions; size: Size };

/**
 * A screen: a component drawn in the whole frame while it is on top of the store's screens, which takes its own keys
 * (its context of the key table) with Ink's useInput; only the screen on top is mounted, so only its keys are read.
 */
export type Screen = (props: ScreenProps) => ReactNode;
