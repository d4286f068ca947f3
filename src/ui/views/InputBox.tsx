import { Box, Text } from "ink";
import { memo, useSyncExternalStore } from "react";
import { sanitizeForTerminal } from "../../term/sanitize.js";
import type { InputModel } from "../state/input-model.js";
import { useTheme } from "../theme/context.js";
import { CompletionPopup } from "./CompletionPopup.js";
import { EditorBox } from "./EditorBox.js";

export type InputBoxProps = {
	model: InputModel;
	width: number;
	/** What Enter does now, shown on the right: "send", "steer", "deny with this reason". */
	action: string;
	prompt?: string;
};

/** The columns the editor's text wraps at, for a box `width` wide (prompt, hint and a cell for the cursor). */
export function inputTextWidth(width: number, action: string, prompt = "› "): number {
	return Math.max(10, width - prompt.length - `Enter ${action}`.length - 2);
}

/**
 * The input: the multi-line editor, then the Ctrl+R search line or the completion popup. It alone subscribes to the
 * model, so a keypress re-renders only this box.
 */
export const InputBox = memo(function InputBox({ model, width, action, prompt = "› " }: InputBoxProps) {
	useSyncExternalStore(model.subscribe, model.getVersion);
	const theme = useTheme();
	model.width = inputTextWidth(width, action, prompt);
	const completion = model.search ? null : model.completions();
	const match = model.searchMatch;
	return (
		<Box flexDirection="column" width={width}>
			<EditorBox model={model} prompt={prompt} hint={`Enter ${action}`} width={width} />
			{model.search ? (
				<Box width={width}>
					<Text color={theme.accent}>history search: </Text>
					<Text>{sanitizeForTerminal(model.search.query)}</Text>
					<Text inverse> </Text>
					<Box flexGrow={1}>
						<Text color={theme.muted} wrap="truncate-end">
							{match === undefined
								? "  (no match)"
								: `  ${sanitizeForTerminal(model.buffer.pastes.labelAll(match.slice(0, 500)).replaceAll("\n", " ⏎ "))}`}
						</Text>
					</Box>
				</Box>
			) : null}
			{completion ? <CompletionPopup completion={completion} selected={model.selected} width={width} /> : null}
		</Box>
	);
});
