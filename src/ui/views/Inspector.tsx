import { Box, Text } from "ink";
import { memo, type ReactNode } from "react";
import { addUsage } from "../../llm/types.js";
import { sanitizeForTerminal } from "../../term/sanitize.js";
import {
	formatCost,
	formatDuration,
	formatSent,
	formatTokens,
	formatTotalsCost,
	formatUsage,
} from "../../view/format.js";
import type { ViewState } from "../../view/state.js";
import { useNow } from "../state/use-store.js";
import { useTheme } from "../theme/context.js";
import { describeActivity, idleNote, isBusy, liveSpeed, stalledFor } from "./activity.js";

export type InspectorProps = {
	view: ViewState;
	width: number;
	/** Distinct versions of the view, so the memo re-renders when it changed. */
	version: number;
	sessionId: string | null;
	sessionBranch: string;
	/** The run's idle timeout (a stalled reply says how long until gar gives up on it); null: not known yet. */
	idleTimeoutMs: number | null;
	/** The chat is a preview of the session's end (store.previewing): its figures would be the tail's, so none show. */
	loading?: boolean;
};

/** A bar of `cells` cells, `fraction` of them filled. */
export function bar(fraction: number, cells: number): [string, string] {
	const filled = Math.max(0, Math.min(cells, Math.round(fraction * cells)));
	return ["█".repeat(filled), "░".repeat(cells - filled)];
}

function Row({ label, children }: { label: string; children: ReactNode }) {
	const theme = useTheme();
	return (
		// Rows never shrink: on a short terminal the last ones are cut off whole, not drawn over each other.
		<Box flexShrink={0}>
			<Box width={10} flexShrink={0}>
				<Text color={theme.inspector.label}>{label}</Text>
			</Box>
			<Text color={theme.inspector.value} wrap="truncate-end">
				{children}
			</Text>
		</Box>
	);
}

/** "sys 3.2k · tools 1.1k · history 40k": the latest request's split, estimated (characters / 4). */
export function requestSplit(view: ViewState): string | null {
	const info = view.calls.at(-1)?.info;
	if (!info) return null;
	return `sys ${formatTokens(info.system.tokens)} · tools ${formatTokens(info.tools.tokens)} · history ${formatTokens(info.messages.tokens)}`;
}

/** Self, sub-agents, total: sub-agents' figures as they reported them, never mixed into the session's own. */
function SubagentRows({ view }: { view: ViewState }) {
	const sub = view.subagents.session;
	if (sub.runs === 0) return null;
	const { session } = view;
	const total = session.costUsd === null || sub.costUsd === null ? null : session.costUsd + sub.costUsd;
	const estimated = session.usage.estimated === true || sub.usage.estimated === true;
	return (
		<>
			<Row label="subagents">
				{sub.runs} run{sub.runs === 1 ? "" : "s"} {formatUsage(sub.usage)} ·{" "}
				{formatCost(sub.costUsd, sub.usage.estimated === true)}
			</Row>
			<Row label="total">
				{formatUsage(addUsage(session.usage, sub.usage))} · {formatCost(total, estimated)}
			</Row>
		</>
	);
}

/** "3 runs · 1 blocked · 1 failed": hook runs, with those that blocked or stopped something and those that failed. */
export function hookCounts(hooks: ViewState["hooks"]): string {
	const parts = [`${hooks.runs} ${hooks.runs === 1 ? "run" : "runs"}`];
	if (hooks.blocked > 0) parts.push(`${hooks.blocked} blocked`);
	if (hooks.failed > 0) parts.push(`${hooks.failed} failed`);
	return parts.join(" · ");
}

/** The inspector while the session loads: its rows, every figure held ("…"), so none of the tail's shows as its. */
function LoadingInspector({ view, width, sessionId, sessionBranch }: InspectorProps) {
	const theme = useTheme();
	const held = ["turn", "tokens", "", "cost", "context", "speed", "tools"];
	return (
		<Box flexDirection="column" width={width} paddingLeft={1} overflow="hidden">
			<Row label="state">
				<Text color={theme.muted}>● loading the session…</Text>
			</Row>
			{held.map((label) => (
				<Row key={label || "cache"} label={label}>
					…
				</Row>
			))}
			<Row label="model">{view.model ? sanitizeForTerminal(`${view.provider}/${view.model}`) : "–"}</Row>
			<Row label="session">{sessionId ?? "not saved"}</Row>
			<Row label="branch">{sessionBranch}</Row>
		</Box>
	);
}

/** The inspector: live state, turn, tokens, cost, context fill, speed, tool and hook counts, model and session. */
export const Inspector = memo(function Inspector(props: InspectorProps) {
	if (props.loading) return <LoadingInspector {...props} />;
	return <Figures {...props} />;
});

function Figures(props: InspectorProps) {
	const { view, width, sessionId, sessionBranch } = props;
	const theme = useTheme();
	const busy = isBusy(view.activity);
	const now = useNow(busy);
	const speed = liveSpeed(view, now);
	const { session, run, lastCall, context } = view;
	const window = context.window;
	const fill = window ? context.tokens / window : 0;
	const fillColor = fill > 0.9 ? theme.error : fill > 0.7 ? theme.warning : theme.inspector.barFill;
	const [full, empty] = bar(fill, Math.max(4, Math.min(10, width - 30)));
	const stalled = stalledFor(view, now) !== null;
	const stateColor =
		view.activity.kind === "error" ? theme.error : stalled ? theme.warning : busy ? theme.accent : theme.muted;
	const tools = Object.entries(view.toolCounts)
		.map(([name, n]) => `${name} ${n}`)
		.join(" · ");
	const ttft = view.speed.ttftMs === null ? "–" : formatDuration(view.speed.ttftMs);
	return (
		<Box flexDirection="column" width={width} paddingLeft={1} overflow="hidden">
			<Row label="state">
				<Text color={stateColor}>● {describeActivity(view, now)}</Text>
			</Row>
			{/* The column is narrow: a stalled reply's limit goes on a row of its own. */}
			{stalled && props.idleTimeoutMs ? (
				<Row label="">
					<Text color={stateColor}> {idleNote(props.idleTimeoutMs)}</Text>
				</Row>
			) : null}
			<Row label="turn">{view.maxTurns ? `${view.turn} / ${view.maxTurns}` : "–"}</Row>
			<Row label="tokens">
				{formatUsage(session.usage)}
				{lastCall ? `  (turn ${formatSent(lastCall.usage)})` : ""}
			</Row>
			<Row label="">
				cache r {formatTokens(session.usage.cacheRead)} w {formatTokens(session.usage.cacheWrite)}
			</Row>
			<Row label="cost">
				{/* Before the config names the model, its price is not known either. */}
				{view.model ? formatTotalsCost(session) : "–"}
				{view.runId ? `  (run ${formatTotalsCost(run)})` : ""}
			</Row>
			<SubagentRows view={view} />
			<Row label="context">
				{window ? (
					<>
						<Text color={fillColor}>{full}</Text>
						<Text color={theme.inspector.barEmpty}>{empty}</Text> {Math.round(fill * 100)}% of {formatTokens(window)}
					</>
				) : (
					`${formatTokens(context.tokens)} (window unknown)`
				)}
			</Row>
			{requestSplit(view) ? <Row label="request">{requestSplit(view)}</Row> : null}
			<Row label="speed">
				TTFT {ttft} · {speed === null ? "–" : `${Math.round(speed)} tok/s`}
			</Row>
			<Row label="tools">{tools || "none yet"}</Row>
			{/* What writes and edits changed (/changes lists the files and their diffs). */}
			{view.changes.files > 0 ? (
				<Row label="files">
					changed {view.changes.files} · +{view.changes.added} −{view.changes.removed}
				</Row>
			) : null}
			{/* Only where hooks ran: a conversation without hooks shows no row for them. */}
			{view.hooks.runs > 0 ? (
				<Row label="hooks">
					<Text color={view.hooks.failed > 0 ? theme.warning : theme.inspector.value}>{hookCounts(view.hooks)}</Text>
				</Row>
			) : null}
			<Row label="model">{view.model ? sanitizeForTerminal(`${view.provider}/${view.model}`) : "–"}</Row>
			<Row label="session">{sessionId ?? "not saved"}</Row>
			<Row label="branch">{sessionBranch}</Row>
		</Box>
	);
}
