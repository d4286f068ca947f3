import { Box, Text, useInput } from "ink";
import TextInput from "ink-text-input";
import { useMemo, useReducer, useRef } from "react";
import type { Session } from "../../session/index.js";
import { sanitizeForTerminal } from "../../term/sanitize.js";
import { ChatPane } from "../chat/ChatPane.js";
import { frameRows } from "../state/layout.js";
import { titleOf } from "../state/session-facts.js";
import { type TreeModel, treeModelOf } from "../state/tree-model.js";
import { useStore } from "../state/use-store.js";
import { useTheme } from "../theme/context.js";
import { BarLine } from "../views/BarLine.js";
import { fitParts } from "../views/fit-parts.js";
import { TreeLines } from "../views/tree-line.js";
import type { ScreenProps } from "./screen.js";
import { fieldText, type TreeUi, treeKeyHandler } from "./tree-keys.js";

const FILTER_NAMES = { all: "all entries", prompts: "your prompts only", labelled: "labelled only" } as const;

/** The keys the last row names, in their order, and which stay first when the row is narrow (lower first). */
const HINTS: readonly [string, number][] = [
	["↑↓ move", 0],
	["Enter go here", 1],
	["e edit & resend", 3],
	["←→ fold", 5],
	["Tab branch", 7],
	["/ search", 4],
	["v filter", 6],
	["l label", 8],
	["f fork", 9],
	["Esc back", 2],
];

/** The header: what this is, the session's name, its size and the filter. */
function Header({ title, model, width }: { title: string; model: TreeModel; width: number }) {
	const { entries, branchPoints } = model.size;
	const parts = [
		"session tree",
		sanitizeForTerminal(title).replace(/\s+/g, " "),
		`${entries.toLocaleString("en")} entries`,
		`${branchPoints} branch point${branchPoints === 1 ? "" : "s"}`,
		`showing ${FILTER_NAMES[model.filter]}`,
	];
	const text = ` ${fitParts(parts, width - 2, " · ", [0, 4, 2, 3, 1]).join(" · ")}`;
	return <BarLine text={text} width={width} />;
}

/** The last row: the open field (ink-text-input), else what the last key did, else the keys. */
function Footer({ ui, width, onChange }: { ui: TreeUi; width: number; onChange: (id: number, value: string) => void }) {
	const theme = useTheme();
	if (ui.field) {
		const { id } = ui.field;
		const prompt = ui.field.kind === "search" ? "search › " : "label › ";
		return (
			<Box width={width}>
				<Text color={theme.accent}>{prompt}</Text>
				<TextInput key={id} value={ui.field.value} onChange={(value) => onChange(id, value)} />
				<Text color={theme.muted}> Enter {ui.field.kind === "search" ? "find" : "set"} · Esc cancel</Text>
			</Box>
		);
	}
	if (ui.message) {
		return (
			<Text color={ui.message.warning ? theme.warning : theme.muted} wrap="truncate-end">
				{sanitizeForTerminal(ui.message.text)}
			</Text>
		);
	}
	return (
		<Text color={theme.muted} wrap="truncate-end">
			{fitParts(
				HINTS.map(([hint]) => hint),
				width,
				" · ",
				HINTS.map(([, rank]) => rank),
			).join(" · ")}
		</Text>
	);
}

/** Where each tree was last focused on the leaf: the session and its leaf then. */
const focusedAt = new WeakMap<TreeModel, { session: Session; leaf: string | null }>();

/**
 * The session tree (/tree, t in the rewind list): the session's prompts and replies as an indented tree, the current path in
 * full colour, branch points with their number of branches, labels, compactions. Only the rows on screen are made
 * (state/tree-model.ts); keys in screens/tree-keys.ts. It draws the conversation's own session, so what a run
 * appends while it is open shows at once.
 */
export function TreeScreen({ store, actions, size }: ScreenProps) {
	useStore(store);
	const theme = useTheme();
	const [, redraw] = useReducer((n: number) => n + 1, 0);
	const intents = actions.session;
	const session = intents?.session() ?? null;
	const opened = useRef<Session | null>(null);
	const model = session ? treeModelOf(session) : null;
	if (session && model && opened.current !== session) {
		// Opened (or the session switched under it): at the current leaf, the folds and filter as they were left; opened
		// again on the same leaf (back from the rewind screen the tree's Enter opened), the row chosen stays selected.
		opened.current = session;
		const last = focusedAt.get(model);
		if (last?.session !== session || last.leaf !== session.leafId) model.focusLeaf();
		focusedAt.set(model, { session, leaf: session.leafId });
	}
	const ui = useRef<TreeUi>({ field: null, query: "", message: null, page: 1 }).current;
	const lineCache = useRef(new TreeLines()).current;
	const height = Math.max(1, frameRows(size) - 2);
	ui.page = height;
	const handler = useMemo(
		() => (model ? treeKeyHandler({ store, model, ui, intents, redraw }) : () => store.closeScreen()),
		[store, model, ui, intents],
	);
	useInput(handler);
	if (!model || !session) {
		return <Text color={theme.warning}>This conversation is not saved, so it has no session tree. Esc goes back.</Text>;
	}
	const cursor = model.cursor;
	const rows = model.window(height);
	const lines = rows.map((view, i) => lineCache.line(view, model.top + i === cursor, theme, size.columns));
	/** What the field `id` typed; a field already closed is not listened to. */
	const onChange = (id: number, value: string) => {
		if (ui.field?.id !== id) return;
		ui.field = { ...ui.field, value: fieldText(value) };
		redraw();
	};
	return (
		<>
			<Header title={titleOf(session) ?? session.header.id} model={model} width={size.columns} />
			{model.count === 0 ? (
				<Box height={height}>
					<Text color={theme.muted}>
						{model.filter === "all" ? "No entries yet." : `Nothing to show: v shows ${FILTER_NAMES.all} again.`}
					</Text>
				</Box>
			) : (
				<ChatPane lines={lines} width={size.columns} height={height} />
			)}
			<Footer ui={ui} width={size.columns} onChange={onChange} />
		</>
	);
}
