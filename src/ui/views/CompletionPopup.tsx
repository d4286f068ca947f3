import { Box, Text } from "ink";
import { sanitizeForTerminal } from "../../term/sanitize.js";
import { type Completion, MAX_ITEMS } from "../state/input-model.js";
import { useTheme } from "../theme/context.js";

export type CompletionPopupProps = { completion: Completion; selected: number; width: number };

/**
 * The completion list under the input: up to MAX_ITEMS items, scrolled to the selected one, each with its description
 * (an `@` mention's: the paths the finder found).
 */
export function CompletionPopup({ completion, selected, width }: CompletionPopupProps) {
	const theme = useTheme();
	const { items } = completion;
	const first = Math.max(0, Math.min(selected - MAX_ITEMS + 1, items.length - MAX_ITEMS));
	const shown = items.slice(Math.max(0, first), Math.max(0, first) + MAX_ITEMS);
	if (completion.mention) {
		// Paths: one row each, cut at the start when too long (the file's name stays in sight).
		return (
			<Box flexDirection="column" width={width}>
				{shown.map((item, i) => (
					<Box key={item.value} width={width}>
						<Text
							color={first + i === selected ? theme.accent : theme.muted}
							inverse={first + i === selected}
							wrap="truncate-start"
						>
							{`  @${sanitizeForTerminal(item.value)}`}
						</Text>
					</Box>
				))}
			</Box>
		);
	}
	const labelWidth = Math.min(32, Math.max(...shown.map((item) => (item.label ?? item.value).length)) + 2);
	return (
		<Box flexDirection="column" width={width}>
			{shown.map((item, i) => {
				const index = first + i;
				const label = sanitizeForTerminal(item.label ?? item.value).padEnd(labelWidth);
				return (
					<Box key={item.value} width={width}>
						<Text color={index === selected ? theme.accent : theme.muted} inverse={index === selected}>
							{`  ${label}`}
						</Text>
						<Text color={theme.muted} wrap="truncate-end">
							{` ${sanitizeForTerminal(item.description)}`}
						</Text>
					</Box>
				);
			})}
		</Box>
	);
}
