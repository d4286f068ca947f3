import { Text } from "ink";
import { useTheme } from "../theme/context.js";

/**
 * One row in the status bar's colours, `text` padded to `width` (cut at its end when longer). Without a background
 * colour (NO_COLOR, the mono theme) it is drawn inverse. The status bar and the title rows of the screens use it.
 */
export function BarLine({ text, width }: { text: string; width: number }) {
	const theme = useTheme();
	return (
		<Text
			color={theme.status.fg}
			backgroundColor={theme.status.bg}
			inverse={theme.status.bg === ""}
			wrap="truncate-end"
		>
			{text.padEnd(width)}
		</Text>
	);
}
