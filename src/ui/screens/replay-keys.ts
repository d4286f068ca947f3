import type { Key } from "ink";
import { sanitizeForTerminal } from "../../term/sanitize.js";
import { REPLAY_KEYS, type ReplayAction } from "../keys/key-table.js";
import { type KeyActions, keyDispatcher } from "../keys/keymap.js";
import type { UiStore } from "../state/store.js";
import { toggleLatest } from "./chat-keys.js";

export type ReplayKeyDeps = {
	store: UiStore;
	exit: () => void;
	suspend?: () => void;
	/** Rows of the chat pane, for PgUp/PgDn. */
	page: () => number;
	/** The terminal's width (Tab says when the inspector does not fit). */
	columns: () => number;
};

/**
 * The replay screen's keys (REPLAY_KEYS): space, → and End drive the replay, the chat scrolls and folds as in a live
 * run, q quits. The replay is read-only: any other key only says so (nothing typed is sent anywhere).
 */
export function createReplayKeys(deps: ReplayKeyDeps): (text: string, key: Key) => void {
	const { store } = deps;
	const actions: KeyActions<ReplayAction> = {
		interrupt: () => deps.exit(),
		replayToggle: () => store.replay?.toggle(),
		replayStep: () => store.replay?.step(),
		replayEnd: () => {
			store.replay?.end();
			store.toBottom();
		},
		scrollPage: (_text, key) => store.scrollBy((key.pageUp ? 1 : -1) * Math.max(1, deps.page() - 2)),
		scrollLine: (_text, key) => store.scrollBy(key.upArrow ? 1 : -1),
		scrollTop: () => store.toTop(),
		expand: () => toggleLatest(store),
		inspector: () => store.toggleInspector(deps.columns()),
		quit: () => deps.exit(),
		suspend: () => deps.suspend?.(),
	};
	const readOnly = () => {
		const how = store.replay?.continueWith;
		const hint = `a replay is read-only: nothing is sent · q quits${how ? ` · to continue it: ${how}` : ""}`;
		// The command names the session's folder and file, which may hold anything.
		store.flashHint(sanitizeForTerminal(hint));
		return true;
	};
	const dispatch = keyDispatcher(REPLAY_KEYS, [{ context: "global" }, { context: "replay", rest: readOnly }], actions);
	return (text, key) => {
		dispatch(text, key);
	};
}
