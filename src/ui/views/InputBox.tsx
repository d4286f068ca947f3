import { Box, Text } from "ink";
import { memo, useSyncExternalStore } from "react";
import { sanitizeForTerminal } from "../../term/sanitize.js";
import type { InputModel } from "../state/input-model.js";
import { inputTextWidth } from "../state/layout.js";
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

/**
 * The input: the multi-line editor, then the Ctrl+R search line or the completion popup, and a note (a mentioned
 * file that is gone). It alone subscribes to the model, so a keypress re-renders only this box.
 */
export const InputBox = memo(function InputBox({ model, width, action, prompt = "› " }: InputBoxProps) {
	useSyncExternalStore(model.subscribe, model.getVersion);
	const theme = useTheme();
	const completion = model.search ? null : model.completions();
	const match = model.searchMatch;
	return (
		<Box flexDirection="column" width={width}>
			<EditorBox
				model={model}
				prompt={prompt}
				hint={`Enter ${action}`}
				width={width}
				textWidth={inputTextWidth(width, action, prompt)}
			/>
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
			{model.note === null ? null : (
				<Text color={theme.warning} wrap="truncate-end">
					{sanitizeForTerminal(model.note)}
				</Text>
			)}
		</Box>
	);
});
