// The app's hold on the terminal (src/ui/terminal/session.ts), driven through a stand-in process: its signals,
// exit, crash and warnings are events fired by the test, and the real Screen writes into a log.
import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { Interrupts, SIGNALS } from "../src/signals.js";
import { Screen } from "../src/ui/terminal/screen.js";
import { TerminalSession } from "../src/ui/terminal/session.js";

const ENTER = "\x1b[?1049h";
const LEAVE = "\x1b[?1049l";

type Listener = (...args: unknown[]) => void;

/** A process as the session sees it; what it does lands in `log` in order. */
class FakeProcess {
	readonly pid = 4242;
	readonly log: string[] = [];
	code: number | null = null;
	readonly stdin = { setRawMode: (raw: boolean) => this.log.push(raw ? "raw on" : "raw off") };
	readonly stderr = { write: (text: string) => this.log.push(`stderr ${text}`) };
	private readonly events = new EventEmitter();

	on(event: string, listener: Listener): this {
		this.events.on(event, listener);
		return this;
	}

	off(event: string, listener: Listener): this {
		this.events.off(event, listener);
		return this;
	}

	listeners(event: string): unknown[] {
		return this.events.listeners(event);
	}

	removeAllListeners(event: string): void {
		this.events.removeAllListeners(event);
	}

	listenerCount(event: string): number {
		return this.events.listenerCount(event);
	}

	/** A signal, a crash or a warning arriving. */
	emit(event: string, ...args: unknown[]): void {
		this.events.emit(event, ...args);
	}

	kill(pid: number, signal: NodeJS.Signals): void {
		this.log.push(`kill ${pid} ${signal}`);
	}

	/** As Node's: the `exit` hooks run, then the process is gone (here: the code is kept). */
	exit(code: number): void {
		if (this.code !== null) return;
		this.code = code;
		this.emit("exit", code);
	}
}

/** A session over a fake process, with signals.ts's Interrupts on its signals as cli.ts installs them. */
function session() {
	const proc = new FakeProcess();
	const interrupts = new Interrupts((code) => proc.exit(code));
	for (const signal of SIGNALS) proc.on(signal, () => interrupts.onSignal(signal));
	const out = {
		write: (text: string) => {
			if (text.includes(ENTER)) proc.log.push("enter");
			if (text.includes(LEAVE)) proc.log.push("restore");
			return true;
		},
	} as unknown as NodeJS.WriteStream;
	const warnings: string[] = [];
	const terminal = new TerminalSession(proc, {
		screen: new Screen({ mouse: false, out, env: {} }),
		signals: interrupts,
		warn: (message) => warnings.push(message),
	});
	terminal.redrawWith(() => proc.log.push("redraw"));
	return { proc, terminal, warnings };
}

describe("the terminal session", () => {
	it("takes the screen on enter and gives it back on close, its handlers gone", () => {
		const { proc, terminal } = session();
		expect(proc.log).toEqual([]);
		terminal.enter();
		terminal.close();
		terminal.close();
		expect(proc.log).toEqual(["enter", "restore"]);
		for (const event of ["exit", "uncaughtException", "SIGCONT"]) expect(proc.listenerCount(event)).toBe(0);
	});

	it("restores the screen on any exit", () => {
		const { proc, terminal } = session();
		terminal.enter();
		proc.exit(0);
		expect(proc.log).toEqual(["enter", "restore"]);
	});

	it("restores the screen on a crash before the error is shown, and exits 1", () => {
		const { proc, terminal } = session();
		terminal.enter();
		proc.emit("uncaughtException", new Error("boom"));
		expect(proc.log.slice(0, 3)).toEqual([
			"enter",
			"restore",
			expect.stringMatching(/^stderr gar: unexpected failure: Error: boom/),
		]);
		expect(proc.code).toBe(1);
	});

	it.each(["SIGTERM", "SIGHUP"] as const)(
		"%s ends gar with exit code 130 through signals.ts, the screen restored",
		(signal) => {
			const { proc, terminal } = session();
			terminal.enter();
			proc.emit(signal, signal);
			expect(proc.code).toBe(130);
			expect(proc.log).toEqual(["enter", "restore"]);
		},
	);

	it("Ctrl+Z gives the terminal back before it stops; SIGCONT takes it again and redraws", () => {
		const { proc, terminal } = session();
		terminal.enter();
		terminal.suspend();
		expect(proc.log).toEqual(["enter", "restore", "raw off", "kill 4242 SIGTSTP"]);
		proc.log.length = 0;
		proc.emit("SIGCONT");
		expect(proc.log).toEqual(["raw on", "enter", "redraw"]);
		terminal.close();
		proc.log.length = 0;
		proc.emit("SIGCONT");
		expect(proc.log).toEqual([]);
	});

	it("hands the terminal to another program and takes it back (the external editor)", () => {
		const { proc, terminal } = session();
		terminal.enter();
		terminal.leave();
		proc.log.push("editor runs");
		terminal.back();
		expect(proc.log).toEqual(["enter", "restore", "raw off", "editor runs", "raw on", "enter", "redraw"]);
	});

	it("turns Node's warnings into the app's, and gives Node its own listeners back on close", () => {
		const proc = new FakeProcess();
		const nodes: string[] = [];
		proc.on("warning", (w) => nodes.push((w as Error).message));
		const warnings: string[] = [];
		const out = { write: () => true } as unknown as NodeJS.WriteStream;
		const terminal = new TerminalSession(proc, {
			screen: new Screen({ mouse: false, out, env: {} }),
			signals: { release: () => {} },
			warn: (message) => warnings.push(message),
		});
		proc.emit("warning", new Error("deprecated"));
		terminal.close();
		proc.emit("warning", new Error("later"));
		expect(warnings).toEqual(["node: deprecated"]);
		expect(nodes).toEqual(["later"]);
	});
});
