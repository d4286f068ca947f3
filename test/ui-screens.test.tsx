// The app as a router of screens (src/ui/screens/App.tsx): a screen opened over the chat is drawn in the whole frame
// and takes its own keys from the key table, and closing it gives the chat its screen and keys back. The list screen
// here exists only in this test: it shows the mechanism the next screens (picker, tree, rewind, …) use.
import { Text, useInput } from "ink";
import { render } from "ink-testing-library";
import { useMemo, useState } from "react";
import { describe, expect, it } from "vitest";
import { KEY_TABLE } from "../src/ui/keys/key-table.js";
import { type KeyBinding, type KeyContext, keyDispatcher } from "../src/ui/keys/keymap.js";
import { App, SCREENS } from "../src/ui/screens/App.js";
import type { ScreenProps } from "../src/ui/screens/screen.js";
import { InputModel } from "../src/ui/state/input-model.js";
import { UiStore } from "../src/ui/state/store.js";
import { useStore } from "../src/ui/state/use-store.js";
import { initialView } from "../src/view/state.js";
import { appInfo, tick, until as waitUntil } from "./support/ui-app.js";

const until = (test: () => boolean) => waitUntil(test, 2000);

const info = appInfo();
const noop = { submit: () => {}, abort: () => {}, exit: () => {} };

type GlobalBinding = Extract<(typeof KEY_TABLE)[number], { context: "global" }>;

/** The list screen's keys: the table's global ones (Ctrl+C) and a context of its own. */
const LIST_KEYS: readonly KeyBinding<"interrupt" | "close" | "down", KeyContext | "list">[] = [
	...KEY_TABLE.filter((binding): binding is GlobalBinding => binding.context === "global"),
	{ context: "list", keys: ["q", "Esc"], action: "close", help: "back to the chat" },
	{ context: "list", keys: ["↓"], action: "down", help: "the next row" },
];

/** A screen as the next issues add them: its own component and its own keys, over the same store. */
function ListScreen({ store }: ScreenProps) {
	useStore(store);
	const [row, setRow] = useState(0);
	const dispatch = useMemo(
		() =>
			keyDispatcher(LIST_KEYS, [{ context: "global" }, { context: "list" }], {
				interrupt: () => store.closeScreen(),
				close: () => store.closeScreen(),
				down: () => setRow((r) => r + 1),
			}),
		[store],
	);
	useInput((text, key) => {
		dispatch(text, key);
	});
	return (
		<Text>
			the list · row {row} · {store.view.items.length} items in the chat
		</Text>
	);
}

function app() {
	const store = new UiStore(initialView({ provider: "p", model: "m" }));
	const input = new InputModel();
	const drawn = render(
		<App
			store={store}
			input={input}
			info={info}
			actions={noop}
			size={{ columns: 100, rows: 20 }}
			screens={{ ...SCREENS, list: ListScreen }}
		/>,
	);
	const frame = () => drawn.lastFrame() ?? "";
	const press = async (text: string) => {
		drawn.stdin.write(text);
		await tick();
	};
	const open = async () => {
		store.openScreen("list");
		await tick();
	};
	return { store, input, frame, press, open, unmount: drawn.unmount };
}

describe("the app's screens", () => {
	it("draws a screen opened over the chat in its place, and the chat again once it closes", async () => {
		const a = app();
		expect(a.frame()).toContain("Type a task and press Enter.");
		await a.open();
		expect(a.store.screen).toBe("list");
		expect(a.frame()).toContain("the list · row 0 · 0 items in the chat");
		expect(a.frame()).not.toContain("Type a task");
		a.store.onEvent({ type: "user_message", message: { role: "user", content: "hi" }, source: "prompt" });
		await tick();
		expect(a.frame()).toContain("1 items in the chat");
		a.store.closeScreen();
		await tick();
		expect(a.store.screen).toBe("chat");
		expect(a.frame()).toContain("you › hi");
		a.store.closeScreen();
		expect(a.store.screen).toBe("chat");
		a.unmount();
	});

	it("gives the keys to the screen on top: its own context, the table's global keys, never the chat's", async () => {
		const a = app();
		await a.open();
		await a.press("x");
		await a.press("\u001b[B");
		// The row is the screen's own React state: drawn on React's next pass.
		await until(() => a.frame().includes("row 1"));
		expect(a.input.text).toBe("");
		await a.press("q");
		expect(a.store.screen).toBe("chat");
		expect(a.input.text).toBe("");
		await a.press("x");
		expect(a.input.text).toBe("x");
		await a.open();
		await a.press("\u0003");
		expect(a.store.screen).toBe("chat");
		// Ctrl+C went to the list, not to the chat (where it clears the input).
		expect(a.input.text).toBe("x");
		a.unmount();
	});
});
