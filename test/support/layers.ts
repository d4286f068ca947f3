// The layer order of src/, kept as data: test/layers.test.ts checks every import of src/ against it, and checks that
// AGENTS.md ("Layout") shows the same order.

/**
 * Rooms in layers, top to bottom. A room is a folder ("agent/") or a file ("cli.ts") of the folder the order is for;
 * `*` stands for every room of that folder the order does not name. A room imports only rooms of a layer below its
 * own: never one of its own layer, never one above. `inside` checks a room's own rooms by the same rule.
 */
export type Order = { layers: string[][]; inside?: Record<string, Order> };

/** The rooms of src/. */
export const ORDER: Order = {
	layers: [
		["cli.ts", "boot.ts"],
		["commands/", "ui/", "boot-cache.ts"],
		["modes/"],
		["output/"],
		["conversation/"],
		["compaction/"],
		["session/", "view/"],
		["agent/"],
		["hooks/"],
		["tools/", "config/", "prompt/", "demo/"],
		["llm/", "signals.ts", "errors.ts"],
		["term/", "code-cache.ts"],
		["text/"],
	],
	inside: {
		// The ui regroup (terminal, theme, state, chat, editor, screens) replaces this with its folders.
		"ui/": { layers: [["*"], ["theme-context.ts"], ["store.ts"], ["chat/"], ["editor/", "theme.ts"]] },
	},
};

/** One import against the order, known and owed a fix. The test fails once it is gone: remove it from the list then. */
export type Exception = { from: string; to: string };

export const EXCEPTIONS: Exception[] = [
	// The editor's two React views sit in editor/, the editor's pure parts, and read the input model (which owns those
	// parts) and the theme above it. The ui regroup moves them out of editor/: remove these four then.
	{ from: "src/ui/editor/EditorBox.tsx", to: "src/ui/input-model.ts" },
	{ from: "src/ui/editor/CompletionPopup.tsx", to: "src/ui/input-model.ts" },
	{ from: "src/ui/editor/EditorBox.tsx", to: "src/ui/theme-context.ts" },
	{ from: "src/ui/editor/CompletionPopup.tsx", to: "src/ui/theme-context.ts" },
];

/** Folders outside src/ that src/ may import: data bundled with the code (the built-in themes), no code. */
export const DATA = ["themes/"];
