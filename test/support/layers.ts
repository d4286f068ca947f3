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
		["first-paint.ts"],
		["commands/", "ui/", "boot-cache.ts"],
		["modes/"],
		["output/"],
		["conversation/", "inspect/"],
		["compaction/", "rewind/"],
		["session/", "view/"],
		["agent/"],
		["hooks/"],
		["tools/", "config/", "prompt/", "demo/", "files/"],
		["llm/", "signals.ts", "errors.ts"],
		["term/", "code-cache.ts"],
		["text/"],
	],
	inside: {
		// The app's start and wiring (run.tsx, start.tsx, wire.ts, connect.ts) over its screens, the views they are made
		// of, the state they show; below them what is pure: chat lines, the key table, the editor, themes, the terminal.
		"ui/": {
			layers: [["*"], ["screens/"], ["views/"], ["state/"], ["chat/", "keys/"], ["editor/", "theme/"], ["terminal/"]],
		},
		// The modes (acp/, mcp/, line.ts, print-stream.ts…) over what they share; no mode imports another.
		"modes/": {
			layers: [
				["acp/", "mcp/", "*"],
				["print.ts", "serve.ts"],
				["setup.ts", "stream-commands.ts"],
				["run-session.ts", "model-switch.ts", "output-schema.ts"],
			],
		},
	},
};

/** One import against the order, known and owed a fix. The test fails once it is gone: remove it from the list then. */
export type Exception = { from: string; to: string };

export const EXCEPTIONS: Exception[] = [];

/** Folders outside src/ that src/ may import: data bundled with the code (the built-in themes), no code. */
export const DATA = ["themes/"];
