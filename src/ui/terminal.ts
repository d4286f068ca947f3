import { writeSync } from "node:fs";

const ENTER_ALT = "\x1b[?1049h\x1b[H";
const LEAVE_ALT = "\x1b[?1049l";
const PASTE_ON = "\x1b[?2004h";
const PASTE_OFF = "\x1b[?2004l";
const MOUSE_ON = "\x1b[?1000h\x1b[?1006h";
const MOUSE_OFF = "\x1b[?1006l\x1b[?1000l";
const SHOW_CURSOR = "\x1b[?25h";
// xterm's modifyOtherKeys, level 1: keys with no encoding of their own (Shift+Enter) are reported as CSI sequences;
// Ctrl+C, Esc and the rest stay as they are. xterm and tmux (`extended-keys on`) honour it; others ignore it.
const KEYS_ON = "\x1b[>4;1m";
const KEYS_OFF = "\x1b[>4m";

export type ScreenOptions = { mouse: boolean; out?: NodeJS.WriteStream };

/**
 * The full-screen session's terminal state: the alternate screen, bracketed paste and (optionally) SGR mouse
 * reporting. `restore` puts the terminal back as it was — idempotent, synchronous, safe in an exit handler — and
 * runs on normal exit, a crash, SIGTERM/SIGHUP and before a suspend (Ctrl+Z), with `enter` again on `fg`.
 */
export class Screen {
	private active = false;
	private readonly out: NodeJS.WriteStream;

	constructor(private options: ScreenOptions) {
		this.out = options.out ?? process.stdout;
	}

	enter(): void {
		if (this.active) return;
		this.active = true;
		this.write(`${ENTER_ALT}${PASTE_ON}${KEYS_ON}${this.options.mouse ? MOUSE_ON : ""}`);
	}

	/** Turns mouse reporting on or off (the config that decides it loads after the first frame). */
	setMouse(on: boolean): void {
		if (on === this.options.mouse) return;
		if (this.active) this.write(on ? MOUSE_ON : MOUSE_OFF);
		this.options.mouse = on;
	}

	restore(): void {
		if (!this.active) return;
		this.active = false;
		this.write(`${this.options.mouse ? MOUSE_OFF : ""}${KEYS_OFF}${PASTE_OFF}${SHOW_CURSOR}${LEAVE_ALT}`);
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
