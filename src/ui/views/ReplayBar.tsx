import { Box, Text } from "ink";
import type { ReplayProgress } from "../../session/replay-pace.js";
import { useTheme } from "../theme/context.js";
import { fitParts } from "./fit-parts.js";

/** "1:05" or "1:02:05": recorded time as a clock. */
export function clock(ms: number): string {
	const s = Math.floor(ms / 1000);
	const [h, m, sec] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
	const two = (n: number) => String(n).padStart(2, "0");
	return h > 0 ? `${h}:${two(m)}:${two(sec)}` : `${m}:${two(sec)}`;
}

/**
 * The replay's line, where a live run has its input: playing, paused or ended, at what speed, how far (events and
 * recorded time), the keys that apply now, and that nothing typed is sent. Parts that do not fit are left out whole,
 * the keys first.
 */
export function replayLine(p: ReplayProgress, width: number): { state: string; rest: string } {
	const state = p.ended ? "■ replay ended" : p.paused ? "❚❚ replay paused" : "▶ replay";
	const parts = [
		`${p.speed}×`,
		`${p.position}/${p.total} events`,
		`${clock(p.playedMs)} / ${clock(p.totalMs)}`,
		p.ended ? "space plays again" : p.paused ? "space plays" : "space pauses",
		"→ steps",
		"End to the end",
		"q quits",
		"read-only: nothing is sent",
	];
	// Kept first when the row is narrow: how far it is, how to play or pause, quit, jump, step.
	const rank = [6, 0, 5, 1, 4, 3, 2, 7];
	const kept = fitParts(parts, Math.max(0, width - state.length - 3), " · ", rank);
	return { state, rest: kept.length > 0 ? ` · ${kept.join(" · ")}` : "" };
}

/** The replay bar (one row). */
export function ReplayBar({ progress, width }: { progress: ReplayProgress; width: number }) {
	const theme = useTheme();
	const { state, rest } = replayLine(progress, width);
	return (
		<Box width={width}>
			<Text color={progress.ended ? theme.muted : theme.accent} bold>
				{state}
			</Text>
			<Text color={theme.muted} wrap="truncate-end">
				{rest}
			</Text>
		</Box>
	);
}
