import { Box, Text } from "ink";
import { memo, useSyncExternalStore } from "react";
import { sanitizeForTerminal } from "../term/sanitize.js";
import type { InputModel } from "./input-model.js";
import { useTheme } from "./theme-context.js";

export type InputBoxProps = {
	model: InputModel;
	width: number;
	/** What Enter does now, shown on the right: "send", "steer", "deny with this reason". */
	action: string;
	prompt?: string;
};

/** The one-line input: the text with a cursor, scrolled horizontally to keep the cursor in view. */
export const InputBox = memo(function InputBox({ model, width, action, prompt = "› " }: InputBoxProps) {
	useSyncExternalStore(model.subscribe, model.getVersion);
	const theme = useTheme();
	const hint = `Enter ${action}`;
	const room = Math.max(10, width - prompt.length - hint.length - 3);
	const chars = Array.from(sanitizeForTerminal(model.text.slice(0, model.cursor)));
	const after = sanitizeForTerminal(model.text.slice(model.cursor));
	// Keep the cursor visible: show the last `room - 1` characters before it.
	const before = chars.length > room - 1 ? chars.slice(chars.length - room + 1).join("") : chars.join("");
	const rest = Array.from(after).slice(0, Math.max(0, room - Array.from(before).length - 1));
	const [atCursor = " ", ...tail] = rest;
	return (
		<Box width={width}>
			<Text color={theme.accent}>{prompt}</Text>
			<Box flexGrow={1}>
				<Text wrap="truncate-end">
					{before}
					<Text inverse>{atCursor}</Text>
					{tail.join("")}
				</Text>
			</Box>
			<Text color={theme.muted}> {hint}</Text>
		</Box>
	);
});
