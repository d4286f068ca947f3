import { Box, type DOMElement, Text } from "ink";
import { useLayoutEffect, useRef } from "react";
import { sanitizeForTerminal } from "../../term/sanitize.js";
import { nextBoundary } from "../editor/graphemes.js";
import { isToken, type PasteRegistry } from "../editor/paste.js";
import type { InputModel } from "../state/input-model.js";
import { useTheme } from "../theme/context.js";

/** A piece of a row as drawn: plain text, or a paste placeholder's label. */
type Piece = { text: string; token: boolean };

const TOKENS = /([\u{F0000}-\u{FFFFD}])/u;

/** A piece of the buffer as drawn: placeholders as labels, tabs as spaces, control characters made visible. */
function pieces(text: string, pastes: PasteRegistry): Piece[] {
	if (text === "") return [];
	return text
		.split(TOKENS)
		.filter((part) => part !== "")
		.map((part) =>
			isToken(part)
				? { text: pastes.label(part), token: true }
				: { text: sanitizeForTerminal(part.replaceAll("\t", " ")), token: false },
		);
}

export type EditorBoxProps = {
	model: InputModel;
	/** The first row's prompt ("› "); later rows are indented to match. */
	prompt: string;
	/** Shown at the right of the first row ("Enter send"). */
	hint: string;
	width: number;
	/** Columns the text wraps at (layout.ts inputTextWidth). */
	textWidth: number;
};

/** The top-left cell of `node` on the screen, from the layout Ink draws next; null once it is unmounted. */
function originOf(node: DOMElement | null): { x: number; y: number } | null {
	if (!node?.yogaNode) return null;
	let x = 0;
	let y = 0;
	for (let at: DOMElement | undefined = node; at?.yogaNode; at = at.parentNode) {
		x += at.yogaNode.getComputedLeft();
		y += at.yogaNode.getComputedTop();
	}
	return { x, y };
}

/**
 * The rows of the editor on screen (at most MAX_ROWS, scrolled with the cursor), the cursor drawn inverse.
 * Placeholders show as their label in the accent colour. Rendered by InputBox, which subscribes to the model.
 */
export function EditorBox({ model, prompt, hint, width, textWidth }: EditorBoxProps) {
	const theme = useTheme();
	const { rows, cursor } = model.view(textWidth);
	const { lines, pastes } = model.buffer;
	const indent = " ".repeat(prompt.length);
	const box = useRef<DOMElement>(null);
	// Where a typed key's row is drawn before its frame (state/input-echo.ts): as laid out for the frame just drawn.
	useLayoutEffect(() => {
		const echo = model.echo;
		if (!echo) return;
		const hintWidth = hint.length + 1;
		echo.place = { origin: () => originOf(box.current), width, textWidth, prompt: prompt.length, hint: hintWidth };
		return () => {
			echo.place = null;
		};
	});
	const draw = (list: Piece[], base: string) =>
		list.map((piece, i) =>
			piece.token ? (
				// biome-ignore lint/suspicious/noArrayIndexKey: pieces of one row, in order.
				<Text key={`${base}${i}`} color={theme.accent}>
					{piece.text}
				</Text>
			) : (
				piece.text
			),
		);
	return (
		<Box ref={box} flexDirection="column" width={width}>
			{rows.map((row, i) => {
				const line = lines[row.line] ?? "";
				const isCursor = i === cursor.row;
				let body: React.ReactNode;
				if (isCursor) {
					const col = Math.min(Math.max(model.buffer.col, row.start), row.end);
					const atEnd = col >= row.end;
					const next = atEnd ? col : nextBoundary(line, col);
					const at = atEnd ? " " : line.slice(col, next);
					const atPieces = pieces(at, pastes);
					body = (
						<>
							{draw(pieces(line.slice(row.start, col), pastes), "b")}
							<Text inverse>{atPieces.map((p) => p.text).join("") || " "}</Text>
							{draw(pieces(line.slice(next, row.end), pastes), "a")}
						</>
					);
				} else body = draw(pieces(line.slice(row.start, row.end), pastes), "r");
				return (
					// biome-ignore lint/suspicious/noArrayIndexKey: rows on screen, top to bottom.
					<Box key={i} width={width}>
						<Text color={theme.accent}>{i === 0 && rows[0]?.line === 0 && row.start === 0 ? prompt : indent}</Text>
						<Box flexGrow={1}>
							<Text wrap="truncate-end">{body}</Text>
						</Box>
						{i === 0 ? <Text color={theme.muted}> {hint}</Text> : null}
					</Box>
				);
			})}
		</Box>
	);
}
