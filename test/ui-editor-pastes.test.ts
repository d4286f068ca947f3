import type { Key } from "ink";
import { describe, expect, it } from "vitest";
import { PromptHistory } from "../src/ui/editor/history.js";
import { TextBuffer } from "../src/ui/editor/text-buffer.js";
import { createKeyHandler } from "../src/ui/screens/chat-keys.js";
import { InputModel } from "../src/ui/state/input-model.js";
import { UiStore } from "../src/ui/state/store.js";
import { initialView } from "../src/view/state.js";

const key = (over: Partial<Key> = {}) => ({ ...({} as Key), ...over }) as Key;
const big = Array.from({ length: 50 }, (_, i) => `pasted line ${i}`).join("\n");

/** An editor driven through the app's key handler, with a prompt history. */
function editor(history: string[] = []) {
	const input = new InputModel();
	input.history = PromptHistory.memory(history);
	const sent: string[] = [];
	const press = createKeyHandler({
		store: new UiStore(initialView({ provider: "p", model: "m" })),
		input,
		running: () => false,
		submit: (text) => sent.push(text),
		abort: () => {},
		exit: () => {},
		page: () => 20,
		columns: () => 120,
	});
	const paste = (text: string) => {
		press("[200~", key());
		press(text, key());
		press("[201~", key());
	};
	return { input, sent, press, paste, pastes: input.buffer.pastes };
}

describe("the pastes of an editor", () => {
	it("are freed when the input is cleared with Ctrl+C", () => {
		const e = editor();
		e.press("see ", key());
		e.paste(big);
		expect(e.pastes.size).toBe(1);
		e.press("c", key({ ctrl: true }));
		expect(e.input.text).toBe("");
		expect(e.pastes.size).toBe(0);
	});

	it("are freed when a history recall replaced them and the recalled line is sent", () => {
		const e = editor(["older"]);
		e.press("draft ", key());
		e.paste(big);
		e.press("", key({ upArrow: true }));
		expect(e.input.text).toBe("older");
		// Until then ↓ brings the draft back whole.
		e.press("", key({ downArrow: true }));
		expect(e.pastes.expand(e.input.text)).toBe(`draft ${big}`);
		e.press("", key({ upArrow: true }));
		e.press("", key({ return: true }));
		expect(e.sent).toEqual(["older"]);
		expect(e.pastes.size).toBe(0);
	});

	it("are freed when a Ctrl+R recall replaced them and the input is cleared; undo brings them back before", () => {
		const e = editor(["older"]);
		e.paste(big);
		e.press("r", key({ ctrl: true }));
		e.press("old", key());
		e.press("", key({ return: true }));
		expect(e.input.text).toBe("older");
		e.press("\x1f", key());
		expect(e.pastes.expand(e.input.text)).toBe(big);
		e.press("r", key({ ctrl: true }));
		e.press("old", key());
		e.press("", key({ return: true }));
		e.press("c", key({ ctrl: true }));
		expect(e.pastes.size).toBe(0);
	});

	it("are freed when sent, the message carrying them expanded", () => {
		const e = editor();
		e.paste(big);
		e.press("", key({ return: true }));
		expect(e.sent).toEqual([big]);
		expect(e.pastes.size).toBe(0);
	});

	it("stay with text put back before what is typed (a command that must wait)", () => {
		const e = editor();
		e.paste(big);
		e.input.restore("/compact");
		expect(e.pastes.expand(e.input.text)).toBe(`/compact\n${big}`);
	});

	it("belong to their own buffer: one buffer's reset leaves another's pastes", () => {
		const a = new TextBuffer();
		const b = new TextBuffer();
		a.paste(big);
		b.paste(`${big}\nmore`);
		a.reset();
		expect(a.pastes.size).toBe(0);
		expect(b.pastes.expand(b.text)).toBe(`${big}\nmore`);
		expect(b.pastes.label(b.text)).toBe("[pasted 51 lines]");
	});

	it("are kept while the draft they sit in is set aside for an approval's reason, and come back with it", () => {
		const e = editor();
		e.press("see ", key());
		e.paste(big);
		const draft = e.input.text;
		e.input.putAside();
		expect(e.input.text).toBe("");
		e.input.insert("the reason");
		expect(e.input.take()).toBe("the reason");
		e.input.bringBack();
		expect(e.input.text).toBe(draft);
		expect(e.input.takeMessage().text).toBe(`see ${big}`);
	});
});
