import { describe, expect, it } from "vitest";
import { Screen, speaksKittyKeys } from "../src/ui/terminal/screen.js";

/** A screen writing into a string instead of a terminal. */
function screen(env: NodeJS.ProcessEnv, mouse = true, entered = false) {
	let written = "";
	const write = (text: string) => {
		written += text;
		return true;
	};
	const out = { write } as unknown as NodeJS.WriteStream;
	return { screen: new Screen({ mouse, out, env, entered: () => entered }), written: () => written };
}

describe("Screen: the terminal modes the app sets and restores", () => {
	it("asks for Shift+Enter through modifyOtherKeys everywhere and the kitty protocol where it is spoken, and for focus reports", () => {
		const plain = screen({ TERM: "xterm-256color" });
		plain.screen.enter();
		plain.screen.restore();
		plain.screen.restore(); // idempotent
		expect(plain.written()).toBe(
			"\x1b[?1049h\x1b[H\x1b[?2004h\x1b[?1004h\x1b[>4;1m\x1b[?1000h\x1b[?1006h" +
				"\x1b[?1006l\x1b[?1000l\x1b[>4m\x1b[?1004l\x1b[?2004l\x1b[?25h\x1b[?1049l",
		);
		const kitty = screen({ TERM: "xterm-kitty" }, false);
		kitty.screen.enter();
		kitty.screen.restore();
		expect(kitty.written()).toBe(
			"\x1b[?1049h\x1b[H\x1b[?2004h\x1b[?1004h\x1b[>4;1m\x1b[>1u\x1b[<u\x1b[>4m\x1b[?1004l\x1b[?2004l\x1b[?25h\x1b[?1049l",
		);
	});

	it("over a frame the start script painted, enters only the modes (the screen and the cursor stay); later, all", () => {
		const painted = screen({ TERM: "xterm-256color" }, false, true);
		painted.screen.enter();
		expect(painted.written()).toBe("\x1b[?2004h\x1b[?1004h\x1b[>4;1m");
		painted.screen.restore();
		painted.screen.enter(); // back from Ctrl+Z
		expect(painted.written()).toContain("\x1b[?1049l\x1b[?1049h\x1b[H\x1b[?2004h");
	});

	it("knows the terminals that speak the kitty keyboard protocol", () => {
		expect(speaksKittyKeys({ TERM: "xterm-kitty" })).toBe(true);
		expect(speaksKittyKeys({ KITTY_WINDOW_ID: "1" })).toBe(true);
		expect(speaksKittyKeys({ TERM_PROGRAM: "WezTerm" })).toBe(true);
		expect(speaksKittyKeys({ TERM_PROGRAM: "ghostty" })).toBe(true);
		expect(speaksKittyKeys({ TERM: "screen-256color", TERM_PROGRAM: "tmux" })).toBe(false);
	});
});
