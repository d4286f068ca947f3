import { Box, Text } from "ink";
import { sanitizeForTerminal } from "../../term/sanitize.js";
import type { Transcript } from "../state/transcript.js";
import { useTheme } from "../theme/context.js";
import { fitParts } from "./fit-parts.js";

const KEYS = ["↑/↓ block", "Enter expand/fold", "/ search", "n/N next match", "Esc back"];

export type TranscriptBarProps = { transcript: Transcript; blocks: number; width: number };

/**
 * The transcript mode's row, in the input's place: where the cursor is and the mode's keys (those that fit, whole),
 * or the search line being typed.
 */
export function TranscriptBar({ transcript, blocks, width }: TranscriptBarProps) {
	const theme = useTheme();
	if (transcript.typing !== null) {
		return (
			<Box width={width}>
				<Text color={theme.accent}>search the transcript: </Text>
				<Text>{sanitizeForTerminal(transcript.typing)}</Text>
				<Text inverse> </Text>
				<Text color={theme.muted} wrap="truncate-end">
					{"  Enter search · Esc close"}
				</Text>
			</Box>
		);
	}
	const where = `transcript · block ${transcript.cursor + 1} of ${blocks}`;
	const keys = fitParts(KEYS, Math.max(0, width - where.length - 3), " · ");
	return (
		<Box width={width}>
			<Text color={theme.accent} bold>
				{where}
			</Text>
			<Text color={theme.muted} wrap="truncate-end">
				{keys.length > 0 ? ` · ${keys.join(" · ")}` : ""}
			</Text>
		</Box>
	);
}
