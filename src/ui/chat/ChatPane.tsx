import { Box, Text } from "ink";
import { memo } from "react";
import type { Line, Span } from "./lines.js";

/** Props of the chat pane: lines already fitted to `width`, shown in exactly `height` rows. */
export type ChatPaneProps = { lines: readonly Line[]; width: number; height: number };

function Styled({ span }: { span: Span }) {
	return (
		<Text
			color={span.color}
			bold={span.bold}
			italic={span.italic}
			underline={span.underline}
			dimColor={span.dim}
			inverse={span.inverse}
		>
			{span.text}
		</Text>
	);
}

/** One row; memoized by line identity, which the line cache keeps stable while an item does not change. */
const Row = memo(function Row({ line }: { line: Line }) {
	const { spans } = line;
	// An empty Text measures zero rows high: a blank line needs a space.
	if (spans.length === 0) return <Text> </Text>;
	return (
		<Text wrap="truncate-end">
			{spans.map((span, i) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: spans of a line never reorder; the line is replaced whole.
				<Styled key={i} span={span} />
			))}
		</Text>
	);
});

/**
 * The chat: one row per line (the last `height` if given more), padded below with blank rows to exactly `height`.
 * Lines arrive fitted, so Ink neither wraps nor clips (no `overflow="hidden"`, which costs per frame).
 */
export const ChatPane = memo(function ChatPane({ lines, width, height }: ChatPaneProps) {
	const shown = lines.length > height ? lines.slice(lines.length - height) : lines;
	const padding: string[] = [];
	for (let i = shown.length; i < height; i++) padding.push(`pad:${i}`);
	return (
		<Box flexDirection="column" width={width} height={height}>
			{shown.map((line) => (
				<Row key={line.key} line={line} />
			))}
			{padding.map((key) => (
				<Text key={key}> </Text>
			))}
		</Box>
	);
});
