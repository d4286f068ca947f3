import type { Key } from "ink";
import { KEY_TABLE } from "../keys/key-table.js";
import { type KeyActions, keyDispatcher } from "../keys/keymap.js";
import type { UiStore } from "../state/store.js";
import type { TreeModel } from "../state/tree-model.js";
import type { SessionIntents } from "./screen.js";

type TreeBinding = Extract<(typeof KEY_TABLE)[number], { context: "global" | "tree" | "treeField" }>;
type TreeAction = TreeBinding["action"];

/** The tree screen's keys: the table's global ones (Ctrl+C) and its own two contexts. */
const TREE_KEYS = KEY_TABLE.filter(
	(binding): binding is TreeBinding =>
		binding.context === "global" || binding.context === "tree" || binding.context === "treeField",
);

/**
 * The tree's one-line field: what it is for and what is typed in it. `id` is new for each field opened: a field
 * closed a moment ago may still hear a key (Ink drops its listener after the frame), which must not reach this one.
 */
export type TreeField = { id: number; kind: "search" | "label"; value: string };

let fields = 0;
/** A new field of `kind` holding `value`. */
const openField = (kind: TreeField["kind"], value: string): TreeField => ({ id: ++fields, kind, value });

/**
 * What the tree screen shows besides the rows, outside React (read by the keys as they come, never a stale copy):
 * the open field, the last search, and a line of news (what a key did, or why it could not).
 */
export type TreeUi = {
	field: TreeField | null;
	query: string;
	message: { text: string; warning: boolean } | null;
	/** Rows of the tree on screen, as last drawn (PgUp/PgDn). */
	page: number;
};

export type TreeKeyDeps = {
	store: UiStore;
	model: TreeModel;
	ui: TreeUi;
	intents: SessionIntents | undefined;
	/** Something the screen shows changed: draw again. */
	redraw: () => void;
};

/** A bracketed paste's markers as they reach a field, once their ESC is gone. */
const PASTE_MARKERS = /\[20[01]~/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

/** A field's text as typed: no paste markers, no control characters (an escape sequence, a line break). */
export function fieldText(text: string): string {
	return text.replace(CONTROLS, "").replace(PASTE_MARKERS, "");
}

/** What the groups of actions share: the deps, the news line, the selected entry, running an intent, a search. */
type Ctx = TreeKeyDeps & {
	say: (text: string, warning?: boolean) => void;
	/** Runs a session intent; an error is shown, not thrown. True when it went through. */
	attempt: (run: (intents: SessionIntents) => void) => boolean;
	/** The entry the selected row acts on (a reply's last step). */
	target: () => string | undefined;
	find: (dir: 1 | -1) => void;
};

type Actions<A extends TreeAction> = Pick<KeyActions<TreeAction>, A>;

function context(deps: TreeKeyDeps): Ctx {
	const { model, ui } = deps;
	const say = (text: string, warning = false) => {
		ui.message = { text, warning };
	};
	const attempt = (run: (intents: SessionIntents) => void): boolean => {
		if (!deps.intents) {
			say("the session is not ready yet", true);
			return false;
		}
		try {
			run(deps.intents);
			return true;
		} catch (error) {
			say(error instanceof Error ? error.message : String(error), true);
			return false;
		}
	};
	const find = (dir: 1 | -1) => {
		if (ui.query.trim() === "") return say("/ searches first", true);
		if (!model.search(ui.query, dir)) say(`nothing matches “${ui.query}”`, true);
	};
	return { ...deps, say, attempt, target: () => model.selected?.nodes.at(-1)?.id, find };
}

/** Moving, folding, branch points, the filter and search matches: the model's alone. */
function moveActions({ model, ui, say, find }: Ctx) {
	return {
		treeMove: (_text, key) => model.move(key.upArrow ? -1 : 1),
		treePage: (_text, key) => {
			if (key.home || key.end) model.toEdge(key.end);
			else model.move((key.pageUp ? -1 : 1) * Math.max(1, ui.page - 1));
		},
		treeFold: () => model.fold(),
		treeUnfold: () => model.unfold(),
		treeBranch: (_text, key) => {
			if (!model.jumpBranch(key.shift ? -1 : 1)) say(`no branch point ${key.shift ? "above" : "below"}`);
		},
		treeMatch: (text, key) => find(key.shift || text === "N" ? -1 : 1),
		treeFilter: () => {
			const shown = model.cycleFilter();
			if (model.count === 0) say(shown === "labelled" ? "no entry has a label: l labels one" : "nothing to show");
		},
	} satisfies Actions<"treeMove" | "treePage" | "treeFold" | "treeUnfold" | "treeBranch" | "treeMatch" | "treeFilter">;
}

/** The one-line field (search, label): opening, taking and leaving it; Ctrl+C leaves it, then the screen. */
function fieldActions({ store, ui, intents, say, attempt, target, find }: Ctx) {
	return {
		interrupt: () => {
			if (ui.field) ui.field = null;
			else store.closeScreen();
		},
		treeSearch: () => {
			ui.field = openField("search", "");
		},
		treeLabel: () => {
			const id = target();
			if (id) ui.field = openField("label", intents?.session()?.labels.get(id) ?? "");
		},
		treeFieldCancel: () => {
			ui.field = null;
		},
		treeFieldSubmit: () => {
			const field = ui.field;
			ui.field = null;
			if (field?.kind === "search") {
				ui.query = field.value;
				find(1);
			} else if (field?.kind === "label") {
				const id = target();
				const text = field.value.trim();
				if (id && attempt((i) => i.label(id, text || null))) say(text ? `labelled: ${text}` : "label cleared");
			}
		},
	} satisfies Actions<"interrupt" | "treeSearch" | "treeLabel" | "treeFieldCancel" | "treeFieldSubmit">;
}

/** What changes the session (through its intents) and leaves the screen: Enter, e, f; Esc and q just leave. */
function sessionActions({ store, model, intents, say, attempt, target }: Ctx) {
	return {
		treeLeaf: () => {
			const id = target();
			if (!id) return;
			// Already the current leaf: nothing to write.
			if (id === intents?.session()?.leafId) return store.closeScreen();
			// A move across file changes asks what goes (the rewind screen opens over the tree); else the leaf moves.
			let choosing = false;
			const moved = attempt((i) => {
				choosing = i.chooseMove(id);
				if (!choosing) i.moveLeaf(id);
			});
			if (moved && !choosing) store.closeScreen();
		},
		treeEdit: () => {
			const row = model.selected;
			if (row?.kind !== "prompt") return say("e edits a prompt you sent (a “you ›” row)", true);
			if (attempt((i) => i.editPrompt(row.nodes[0]?.id ?? ""))) store.closeScreen();
		},
		treeFork: () => {
			const id = target();
			if (id && attempt((i) => void i.fork(id))) store.closeScreen();
		},
		treeClose: () => store.closeScreen(),
	} satisfies Actions<"treeLeaf" | "treeEdit" | "treeFork" | "treeClose">;
}

/**
 * The tree screen's key handler: Ctrl+C and Esc leave the field, then the screen; while the field is open its keys
 * are the field's (ink-text-input edits it; Enter takes it). Actions that change the session go through the
 * session intents; what they cannot do is said in the screen's last line.
 */
export function treeKeyHandler(deps: TreeKeyDeps): (text: string, key: Key) => void {
	const ctx = context(deps);
	const { store, ui, redraw } = deps;
	const actions: KeyActions<TreeAction> = { ...moveActions(ctx), ...fieldActions(ctx), ...sessionActions(ctx) };
	// Keys typed together with "/" in one read ("/parser") open the search with the rest typed in it.
	const treeRest = (text: string) => {
		if (text.length > 1 && text.startsWith("/")) ui.field = openField("search", fieldText(text.slice(1)));
		return true;
	};
	const dispatch = keyDispatcher(
		TREE_KEYS,
		[
			{ context: "global" },
			// The field's own keys; the rest are ink-text-input's (typing, ←/→, Backspace), never the tree's.
			{ context: "treeField", active: () => ui.field !== null, rest: () => true },
			{ context: "tree", rest: treeRest },
		],
		actions,
	);
	return (text, key) => {
		// A key after the tree closed (Ink drops the listener only after the next frame) is the chat's alone.
		if (store.screen !== "tree") return;
		const before = ui.message;
		dispatch(text, key);
		// A line of news stays until the next key.
		if (ui.message === before) ui.message = null;
		redraw();
	};
}
