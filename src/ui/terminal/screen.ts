import { writeSync } from "node:fs";

const ENTER_ALT = "\x1b[?1049h\x1b[H";
const LEAVE_ALT = "\x1b[?1049l";
const PASTE_ON = "\x1b[?2004h";
const PASTE_OFF = "\x1b[?2004l";
const MOUSE_ON = "\x1b[?1000h\x1b[?1006h";
const MOUSE_OFF = "\x1b[?1006l\x1b[?1000l";
const SHOW_CURSOR = "\x1b[?25h";
// Focus reporting: the terminal says when its window gains (CSI I) or loses (CSI O) focus; a run that ends unseen
// then runs the Notification hooks. Terminals that do not know it ignore it.
const FOCUS_ON = "\x1b[?1004h";
const FOCUS_OFF = "\x1b[?1004l";
// xterm's modifyOtherKeys, level 1: keys with no encoding of their own (Shift+Enter) are reported as CSI sequences;
// Ctrl+C, Esc and the rest stay as they are. xterm and tmux (`extended-keys on`) honour it; others ignore it.
const KEYS_ON = "\x1b[>4;1m";
const KEYS_OFF = "\x1b[>4m";
// The kitty keyboard protocol ("disambiguate" only), pushed on enter and popped on restore, in the terminals known
// to speak it (kitty, WezTerm, ghostty), where modifyOtherKeys is not honoured. Ink parses its keys either way.
const KITTY_PUSH = "\x1b[>1u";
const KITTY_POP = "\x1b[<u";

/** Whether the terminal is one known to speak the kitty keyboard protocol (Shift+Enter reported as such). */
export function speaksKittyKeys(env: NodeJS.ProcessEnv): boolean {
	return (
		"KITTY_WINDOW_ID" in env ||
		env.TERM === "xterm-kitty" ||
		env.TERM_PROGRAM === "WezTerm" ||
		env.TERM_PROGRAM === "ghostty"
	);
}

export type ScreenOptions = {
	mouse: boolean;
	out?: NodeJS.WriteStream;
	env?: NodeJS.ProcessEnv;
	/**
	 * Whether the alternate screen is on already, a frame on it (src/first-paint.ts), asked at the first `enter`: then it
	 * sets only the modes.
	 */
	entered?: () => boolean;
};

/**
 * The full-screen session's terminal state: the alternate screen, bracketed paste, the keyboard modes that report
 * Shift+Enter, and (optionally) SGR mouse reporting. `restore` puts the terminal back as it was — idempotent, synchronous, safe in an exit handler — and
 * runs on normal exit, a crash, SIGTERM/SIGHUP and before a suspend (Ctrl+Z), with `enter` again on `fg`.
 */
export class Screen {
	private active = false;
	private readonly out: NodeJS.WriteStream;
	private readonly kitty: boolean;
	private mouse: boolean;
	private entered: () => boolean;

	constructor(options: ScreenOptions) {
		this.out = options.out ?? process.stdout;
		this.kitty = speaksKittyKeys(options.env ?? process.env);
		this.mouse = options.mouse;
		this.entered = options.entered ?? (() => false);
	}

	enter(): void {
		if (this.active) return;
		this.active = true;
		const kitty = this.kitty ? KITTY_PUSH : "";
		// Entering again would clear the painted frame and move the cursor Ink expects at its end.
		const alt = this.entered() ? "" : ENTER_ALT;
		this.entered = () => false;
		this.write(`${alt}${PASTE_ON}${FOCUS_ON}${KEYS_ON}${kitty}${this.mouse ? MOUSE_ON : ""}`);
	}

	/** Turns mouse reporting on or off (the config that decides it loads after the first frame). */
	setMouse(on: boolean): void {
		if (on === this.mouse) return;
		if (this.active) this.write(on ? MOUSE_ON : MOUSE_OFF);
		this.mouse = on;
	}

	restore(): void {
		if (!this.active) return;
		this.active = false;
		const kitty = this.kitty ? KITTY_POP : "";
		this.write(`${this.mouse ? MOUSE_OFF : ""}${kitty}${KEYS_OFF}${FOCUS_OFF}${PASTE_OFF}${SHOW_CURSOR}${LEAVE_ALT}`);
	}

	/** Synchronous, so it lands even from an exit handler or right before a suspend. */
	private write(text: string): void {
		const fd = (this.out as { fd?: number }).fd;
		if (typeof fd === "number") {
			try {
				writeSync(fd, text);
				return;
			} catch {
				// Fall back to the stream (e.g. a pipe that is momentarily full).
			}
		}
		this.out.write(text);
	}
}
