import type { Screen } from "./screen.js";

type Listener = (...args: unknown[]) => void;

/** What the session uses of a process: Node's `process`, or a stand-in a test drives. */
export type SessionProcess = {
	readonly pid: number;
	readonly stdin: { setRawMode?: (raw: boolean) => unknown };
	readonly stderr: { write: (text: string) => unknown };
	on(event: string, listener: Listener): unknown;
	off(event: string, listener: Listener): unknown;
	listeners(event: "warning"): unknown[];
	removeAllListeners(event: "warning"): unknown;
	kill(pid: number, signal: NodeJS.Signals): unknown;
	exit(code: number): void;
};

export type TerminalSessionOptions = {
	/** The terminal's modes (the alternate screen, paste, keys, mouse). */
	screen: Pick<Screen, "enter" | "restore" | "setMouse">;
	/** signals.ts's Interrupts: released, so the first SIGINT/SIGTERM/SIGHUP ends gar with 130. */
	signals: { release: () => void };
	/** Where Node's warnings go instead of across the frame (the app shows them as notices). */
	warn: (message: string) => void;
};

/**
 * The full-screen app's hold on the terminal and the process, apart from what it draws. From `new` until `close`:
 * the screen is put back on any exit (its `exit` hook) and on a crash (the error then goes to stderr, exit 1); Node's
 * warnings go to `warn`; the app listens to no signal of its own: signals.ts ends gar with 130 at SIGINT, SIGTERM or
 * SIGHUP, and the exit hook restores the screen. `enter` takes the screen; `leave` and `back` hand it to something
 * else and take it again (Ctrl+Z and `fg`, the external editor); SIGCONT comes back by itself.
 */
export class TerminalSession {
	private readonly screen: TerminalSessionOptions["screen"];
	private readonly warnings: unknown[];
	private redraw: () => void = () => {};

	constructor(
		private readonly proc: SessionProcess,
		private readonly options: TerminalSessionOptions,
	) {
		this.screen = options.screen;
		proc.on("exit", this.restore);
		proc.on("uncaughtException", this.crash);
		this.warnings = proc.listeners("warning");
		proc.removeAllListeners("warning");
		proc.on("warning", this.onWarning);
		options.signals.release();
	}

	/** Takes the screen, and takes it again by itself after a suspend (SIGCONT). */
	enter(): void {
		this.screen.enter();
		this.proc.on("SIGCONT", this.back);
	}

	/** How to draw the whole frame again once the screen is back (`back`, SIGCONT): the app's renderer. */
	redrawWith(redraw: () => void): void {
		this.redraw = redraw;
	}

	/** Mouse reporting on or off (the config that decides it loads after the first frame). */
	setMouse(on: boolean): void {
		this.screen.setMouse(on);
	}

	/** Gives the terminal back as it was (before a suspend or another program runs in it). */
	readonly leave = (): void => {
		this.screen.restore();
		this.proc.stdin.setRawMode?.(false);
	};

	/** Takes the terminal again and redraws the frame whole. */
	readonly back = (): void => {
		this.proc.stdin.setRawMode?.(true);
		this.screen.enter();
		this.redraw();
	};

	/** Ctrl+Z: gives the terminal back and stops the process until `fg` (then SIGCONT: `back`). */
	readonly suspend = (): void => {
		this.leave();
		this.proc.kill(this.proc.pid, "SIGTSTP");
	};

	/** An error nothing caught (or a render that threw): the screen restored, the error shown, exit 1. */
	readonly crash = (error: unknown): void => {
		this.screen.restore();
		this.proc.stderr.write(
			`gar: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : error}\n`,
		);
		this.proc.exit(1);
	};

	/** The screen restored and every handler removed; Node's own warning listeners are back. */
	close(): void {
		this.screen.restore();
		this.proc.off("exit", this.restore);
		this.proc.off("uncaughtException", this.crash);
		this.proc.off("warning", this.onWarning);
		for (const listener of this.warnings) this.proc.on("warning", listener as Listener);
		this.proc.off("SIGCONT", this.back);
	}

	private readonly restore = (): void => this.screen.restore();

	// Node emits each warning as an Error (process.emitWarning).
	private readonly onWarning = (warning: unknown): void => this.options.warn(`node: ${(warning as Error).message}`);
}
