import { Box, Text } from "ink";
import { memo } from "react";
import { formatTokens, formatTotalsCost, formatUsage } from "../view/format.js";
import type { ViewState } from "../view/state.js";
import { describeActivity, isBusy } from "./activity.js";
import { useTheme } from "./theme-context.js";
import { useNow } from "./use-store.js";

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
	/** When the inspector is hidden, a one-line summary of it goes here. */
	summary: boolean;
	/** The run's idle timeout, for a stalled reply's state; null: not known yet. */
	idleTimeoutMs: number | null;
};

/** The top line: gar and version, model, cwd and branch, session; plus a live summary when the inspector is hidden. */
export const StatusBar = memo(function StatusBar(props: StatusBarProps) {
	const theme = useTheme();
	const { view } = props;
	const busy = isBusy(view.activity);
	const now = useNow(props.summary && busy);
	const session = props.sessionId
		? `${props.sessionId}${props.sessionName ? ` "${props.sessionName}"` : ""}`
		: "not saved";
	const place = [`${props.cwd}${props.branch ? ` (${props.branch})` : ""}`, session];
	// Until the config is read the model may not be known: no empty field for it.
	const parts = [`gar ${props.version}`, ...(view.model ? [view.model] : [])];
	if (props.summary) {
		const window = view.context.window;
		const ctx = window ? `${Math.round((view.context.tokens / window) * 100)}%` : formatTokens(view.context.tokens);
		parts.push(
			describeActivity(view, now, props.idleTimeoutMs),
			formatUsage(view.session.usage),
			view.model ? formatTotalsCost(view.session) : "–",
			`ctx ${ctx}`,
		);
	}
	// Where comes last: on a narrow terminal the live figures matter more than the path.
	parts.push(...place);
	const text = ` ${parts.join(" │ ")} `;
	return (
		<Box width={props.width}>
			{/* Without a background colour (NO_COLOR, the mono theme) the bar is drawn inverse. */}
			<Text
				color={theme.status.fg}
				backgroundColor={theme.status.bg}
				inverse={theme.status.bg === ""}
				wrap="truncate-end"
			>
				{text.padEnd(props.width)}
			</Text>
		</Box>
	);
});
