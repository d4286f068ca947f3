import { Box } from "ink";
import { memo } from "react";
import { sanitizeForTerminal } from "../../term/sanitize.js";
import { formatTokens, formatTotalsCost, formatUsage } from "../../view/format.js";
import type { ViewState } from "../../view/state.js";
import { useNow } from "../state/use-store.js";
import { describeActivity, isBusy } from "./activity.js";
import { BarLine } from "./BarLine.js";
import { fitParts } from "./fit-parts.js";

export type StatusBarProps = {
	version: string;
	view: ViewState;
	viewVersion: number;
	width: number;
	/** The working directory as shown (~/project) and its git branch. */
	cwd: string;
	branch: string | null;
	sessionId: string | null;
	sessionName: string | undefined;
	/** The label nearest the current leaf on its path (/label, the tree's l). */
	sessionLabel?: string | undefined;
	/** When the inspector is hidden, a one-line summary of it goes here. */
	summary: boolean;
	/** The run's idle timeout, for a stalled reply's state; null: not known yet. */
	idleTimeoutMs: number | null;
	/** The chat is a preview of the session's end (store.previewing): the summary holds the tail's figures. */
	loading?: boolean;
};

/** The top line: gar and version, model, cwd and branch, session; plus a live summary when the inspector is hidden. */
export const StatusBar = memo(function StatusBar(props: StatusBarProps) {
	const { view } = props;
	const busy = isBusy(view.activity);
	const now = useNow(props.summary && busy);
	// A name and a label come from session files: shown, never acted on by the terminal, on one row.
	const oneRow = (text: string) => sanitizeForTerminal(text).replace(/\s+/g, " ");
	const name = props.sessionName ? ` "${oneRow(props.sessionName)}"` : "";
	const label = props.sessionLabel ? ` [${oneRow(props.sessionLabel)}]` : "";
	const session = props.sessionId ? `${props.sessionId}${name}${label}` : "not saved";
	const where = `${props.cwd}${props.branch ? ` (${props.branch})` : ""}`;
	// [text, rank]: on a narrow terminal the lower ranks stay (the live state first, the path and session last);
	// a part that does not fit is left out whole, never cut in the middle. Until the config is read the model may
	// not be known: no empty field for it.
	const parts: [string, number][] = [[`gar ${props.version}`, 5]];
	if (view.model) parts.push([view.model, 1]);
	if (props.summary && props.loading) parts.push(["loading the session…", 0]);
	else if (props.summary) {
		const window = view.context.window;
		const ctx = window ? `${Math.round((view.context.tokens / window) * 100)}%` : formatTokens(view.context.tokens);
		parts.push(
			[describeActivity(view, now, props.idleTimeoutMs), 0],
			[formatUsage(view.session.usage), 3],
			[view.model ? formatTotalsCost(view.session) : "–", 2],
			[`ctx ${ctx}`, 4],
		);
	}
	parts.push([where, 6], [session, 7]);
	// The model, the folder, the git branch and the session's name come from config, disk and session files: shown,
	// never obeyed.
	const shown = fitParts(
		parts.map(([text]) => oneRow(text)),
		props.width - 2,
		" │ ",
		parts.map(([, rank]) => rank),
	);
	const text = ` ${shown.join(" │ ")} `;
	return (
		<Box width={props.width}>
			<BarLine text={text} width={props.width} />
		</Box>
	);
});
