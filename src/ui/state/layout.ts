import { type ApprovalLayout, layoutApproval } from "./approval-layout.js";
import { INSPECTOR_MIN_COLUMNS, type UiStore } from "./store.js";

/** The terminal's size in cells. */
export type Size = { columns: number; rows: number };

export const INSPECTOR_WIDTH = 44;
/** Blank columns between the chat and the inspector's border, so text never touches it. */
export const GUTTER = 1;

/** The root box's rows: one fewer than the terminal's (at full height Ink clears the whole screen every frame). */
export function frameRows(size: Size): number {
	return Math.max(6, size.rows - 1);
}

/** The columns the editor's text wraps at, for a box `width` wide (prompt, hint and a cell for the cursor). */
export function inputTextWidth(width: number, action: string, prompt = "› "): number {
	return Math.max(10, width - prompt.length - `Enter ${action}`.length - 2);
}

/** The input's part: what Enter does now, the prompt, and the columns its text wraps at. */
export type InputPlace = {
	/** "send", "steer", "deny with this reason": shown on the right of the first row. */
	action: string;
	prompt: string;
	/** Columns the text wraps at. */
	width: number;
	/**
	 * Whether the input is on screen: not while the approval question takes the keys (until a reason is typed), nor in
	 * the transcript mode (its bar takes the input's place).
	 */
	shown: boolean;
};

/** Where the input goes and what it says, at `columns`, with the open question and whether a run goes on. */
export function inputPlace(columns: number, store: UiStore, running: boolean): InputPlace {
	const { approval } = store;
	const action = approval?.stage === "reason" ? "deny with this reason" : running ? "steer" : "send";
	const prompt = approval ? "reason › " : "› ";
	return {
		action,
		prompt,
		width: inputTextWidth(columns, action, prompt),
		shown: approval ? approval.stage === "reason" : store.transcript === null,
	};
}

/** The rows and columns of each part of the chat screen, top to bottom. */
export type ChatLayout = {
	columns: number;
	/** The root box's rows (`frameRows`). */
	height: number;
	/** The chat pane (the status bar's row is above it); the inspector, when shown, is to its right. */
	chat: { width: number; height: number };
	inspector: boolean;
	/** One row per queued message, one for the hint. */
	queued: number;
	hint: boolean;
	/** The transcript mode's bar (one row, in the input's place). */
	transcript: boolean;
	/** The approval question, row by row (its height is the panel's). */
	approval: ApprovalLayout | null;
	input: InputPlace & { height: number };
};

/**
 * The chat screen at `size` for the store as it is: the approval question takes what its preview needs (headline,
 * body, keys, border), at most half the screen; queued messages, the hint and the input their rows; the chat the
 * rest. `inputRows`: the input's rows at a text width (InputModel.heightAt). Pure: it changes nothing.
 */
export function chatLayout(
	size: Size,
	store: UiStore,
	inputRows: (width: number) => number,
	running: boolean,
): ChatLayout {
	const { columns } = size;
	const height = frameRows(size);
	const inspector = store.inspector && columns >= INSPECTOR_MIN_COLUMNS;
	const { approval, view } = store;
	const panel = approval
		? layoutApproval(approval, columns, Math.min(Math.max(8, Math.floor(height / 2)), height - 4))
		: null;
	const place = inputPlace(columns, store, running);
	const input = { ...place, height: inputRows(place.width) };
	const queued = view.queue.steers.length + view.queue.followUps.length;
	const hint = Boolean(store.hint);
	const transcript = store.transcript !== null && !approval;
	const footer =
		(panel?.height ?? 0) + (place.shown ? input.height : 0) + queued + (hint ? 1 : 0) + (transcript ? 1 : 0);
	const chat = {
		width: inspector ? columns - INSPECTOR_WIDTH - 1 - GUTTER : columns,
		height: Math.max(1, height - 1 - footer),
	};
	return { columns, height, chat, inspector, queued, hint, transcript, approval: panel, input };
}
