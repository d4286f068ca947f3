import { readFileSync } from "node:fs";
import type { Key } from "ink";
import { describe, expect, it } from "vitest";
import { HELP_CONTEXTS, KEY_TABLE, REPLAY_KEYS, REWIND_KEYS } from "../src/ui/keys/key-table.js";
import { type KeyActions, type KeyContext, keyDispatcher, keyHelp, NO_KEY } from "../src/ui/keys/keymap.js";

/**
 * The key names a help or README label names: "Ctrl+←/→, Alt+B / F" → Ctrl+←, Ctrl+→, Alt+B, Alt+F (an
 * alternative after "/" keeps the first one's modifiers unless it names its own); "↑ on an empty input" → ↑; "/" alone is
 * the key "/".
 */
function namesIn(label: string): string[] {
	// The key "/" itself (the tree's search), not a separator.
	if (label === "/") return ["/"];
	const [keys = ""] = label.split(" on ");
	return keys.split(/,\s*/).flatMap((group) => {
		const [first = "", ...rest] = group.split(/\s*\/\s*/);
		const prefix = first.slice(0, first.lastIndexOf("+") + 1);
		return [first, ...rest.map((alt) => (alt.includes("+") ? alt : prefix + alt))];
	});
}

/** The key column of README's key table (the one whose header starts with `header`). */
function readmeKeys(file: string, header: string): string[] {
	const lines = readFileSync(new URL(`../${file}`, import.meta.url), "utf8").split("\n");
	const start = lines.findIndex((line) => line.startsWith(`| ${header}`));
	expect(start, `${file} has a key table`).toBeGreaterThan(0);
	const rows: string[] = [];
	for (const line of lines.slice(start + 2)) {
		if (!line.startsWith("|")) break;
		rows.push(line.split("|")[1]?.trim() ?? "");
	}
	return rows.flatMap(namesIn);
}

const helpBindings = KEY_TABLE.filter((b) => b.help !== "" && HELP_CONTEXTS.includes(b.context));
const helpKeys = new Set<string>(helpBindings.flatMap((b) => b.keys));
const boundKeys = new Set<string>(KEY_TABLE.filter((b) => HELP_CONTEXTS.includes(b.context)).flatMap((b) => b.keys));

const FLAGS: Record<string, keyof Key> = {
	Enter: "return",
	Esc: "escape",
	Tab: "tab",
	Backspace: "delete",
	"↑": "upArrow",
	"↓": "downArrow",
	"←": "leftArrow",
	"→": "rightArrow",
	PgUp: "pageUp",
	PgDn: "pageDown",
	Home: "home",
	End: "end",
};

/** The input event Ink reports for a key name. */
function eventFor(name: string): [string, Key] {
	if (name === "Ctrl+_") return ["\x1f", NO_KEY];
	if (name === "Space") return [" ", NO_KEY];
	const parts = name.split("+");
	const base = parts.pop() ?? "";
	const key = { ...NO_KEY, ctrl: parts.includes("Ctrl"), meta: parts.includes("Alt"), shift: parts.includes("Shift") };
	const flag = FLAGS[base];
	if (flag) return [base === "Enter" ? "\r" : "", { ...key, [flag]: true }];
	return [base.toLowerCase(), key];
}

describe("the key table", () => {
	it("gives each /help line exactly the keys its label names", () => {
		const rows = keyHelp(KEY_TABLE, HELP_CONTEXTS);
		expect(rows.length).toBeGreaterThan(15);
		for (const [label] of rows) {
			const keys = helpBindings.filter((b) => ("label" in b ? b.label : b.keys.join(", ")) === label);
			expect(new Set(namesIn(label)), label).toEqual(new Set(keys.flatMap((b) => b.keys)));
		}
	});

	it.each([
		["README.md", "key"],
		["README_CN.md", "按键"],
	])("is what %s's key table names: every key /help lists, and only keys the app binds", (file, header) => {
		const named = readmeKeys(file, header);
		for (const key of helpKeys) expect(named, `${file} names ${key}`).toContain(key);
		for (const key of named) expect(boundKeys.has(key), `${key} in ${file} is bound`).toBe(true);
	});

	it.each([
		["README.md", "in the tree"],
		["README_CN.md", "会话树中的按键"],
	])("is what %s's session tree table names: exactly the tree's keys", (file, header) => {
		const tree = new Set<string>(KEY_TABLE.filter((b) => b.context === "tree").flatMap((b) => b.keys));
		expect(new Set(readmeKeys(file, header))).toEqual(tree);
	});

	it("reaches each binding's action from the key as Ink reports it", () => {
		const contexts = [...new Set(KEY_TABLE.map((b) => b.context))] as KeyContext[];
		for (const context of contexts) {
			let fired = "";
			const actions = new Proxy({} as KeyActions<string>, {
				get: (_target, action: string) => () => {
					fired = action;
				},
			});
			const press = keyDispatcher(KEY_TABLE, [{ context }], actions);
			for (const binding of KEY_TABLE.filter((b) => b.context === context)) {
				for (const name of binding.keys) {
					// Ctrl+J is the newline byte, read with typed text (the editor-input tests press it).
					if (name === "Ctrl+J") continue;
					fired = "";
					press(...eventFor(name));
					// The first binding of the context that names the key takes it.
					const first = KEY_TABLE.find((b) => b.context === context && (b.keys as readonly string[]).includes(name));
					expect(fired, `${context} ${name}`).toBe(first?.action);
				}
			}
		}
	});
});

describe("the rewind screen's keys", () => {
	it.each([
		["README.md", "in the rewind list"],
		["README_CN.md", "回退列表中的按键"],
	])("are what %s's rewind table names", (file, header) => {
		expect(new Set(readmeKeys(file, header))).toEqual(new Set(REWIND_KEYS.flatMap((b) => b.keys)));
	});
});

describe("the replay screen's keys", () => {
	it.each([
		["README.md", "replay key"],
		["README_CN.md", "回放按键"],
	])("are what %s's replay key table names", (file, header) => {
		expect(new Set(readmeKeys(file, header))).toEqual(new Set(REPLAY_KEYS.flatMap((b) => b.keys)));
	});

	it("reach each action from the key as Ink reports it", () => {
		let fired = "";
		const actions = new Proxy({} as KeyActions<string>, {
			get: (_target, action: string) => () => {
				fired = action;
			},
		});
		const press = keyDispatcher(REPLAY_KEYS, [{ context: "global" }, { context: "replay" }], actions);
		for (const binding of REPLAY_KEYS) {
			for (const name of binding.keys) {
				fired = "";
				press(...eventFor(name));
				expect(fired, name).toBe(binding.action);
			}
		}
	});
});
