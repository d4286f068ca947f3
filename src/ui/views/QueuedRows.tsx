import { Box, Text } from "ink";
import { sanitizeForTerminal } from "../../term/sanitize.js";
import type { ViewState } from "../../view/state.js";
import { useTheme } from "../theme/context.js";

/** After the last queued message: how to take it back. */
const QUEUE_HINT = "   (↑ on an empty input edits it)";

/** A queued message in one short line (it may be a whole paste). */
function firstLine(text: string): string {
	const end = text.indexOf("\n");
	const line = (end === -1 ? text : text.slice(0, end)).slice(0, 300);
	return end === -1 && text.length <= 300 ? line : `${line} …`;
}

/** The messages waiting for the run (steers, then follow-ups), one row each, and how to take the last one back. */
export function QueuedRows({ queue, width }: { queue: ViewState["queue"]; width: number }) {
	const theme = useTheme();
	const queued = [
		...queue.steers.map((t) => `steer: ${firstLine(t)}`),
		...queue.followUps.map((t) => `then: ${firstLine(t)}`),
	];
	return queued.map((text, i) => (
		// biome-ignore lint/suspicious/noArrayIndexKey: queued messages are shown in queue order; equal texts may repeat.
		<Box key={`q${i}`} width={width}>
			<Text color={theme.muted} wrap="truncate-end">
				⏳ {sanitizeForTerminal(text)}
			</Text>
			{/* The hint is never cut: a long message gives way to it. */}
			{i === queued.length - 1 ? (
				<Box flexShrink={0}>
					<Text color={theme.muted}>{QUEUE_HINT}</Text>
				</Box>
			) : null}
		</Box>
	));
}
