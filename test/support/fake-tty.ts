// A terminal's two streams for an Ink app rendered in process (the in-process key bench, tests that need a TTY's
// frames): stdin in raw mode that keys are pushed into, read the way Ink reads a terminal ("readable", then read()).
import { EventEmitter } from "node:events";

/** Stdin as Ink reads a terminal: keys pushed one read at a time. */
export class FakeStdin extends EventEmitter {
	isTTY = true;
	private readonly chunks: string[] = [];
	setRawMode() {}
	setEncoding() {}
	ref() {}
	unref() {}
	read(): string | null {
		return this.chunks.shift() ?? null;
	}
	/** One read of `text`, as a terminal delivers a key (or several typed at once). */
	push(text: string) {
		this.chunks.push(text);
		this.emit("readable");
	}
}

/** Stdout as a `columns`×`rows` terminal; every write goes to `onWrite`. */
export function fakeStdout(columns: number, rows: number, onWrite: (bytes: string) => void) {
	return Object.assign(new EventEmitter(), {
		columns,
		rows,
		isTTY: true,
		write(bytes: string) {
			onWrite(bytes);
			return true;
		},
	});
}

/** Ink's render options for an app on these two streams, drawn as gar draws (30 frames a second, incrementally). */
export function fakeTtyOptions(stdout: ReturnType<typeof fakeStdout>, stdin: FakeStdin) {
	return {
		// biome-ignore lint/suspicious/noExplicitAny: a fake terminal for Ink
		stdout: stdout as any,
		// biome-ignore lint/suspicious/noExplicitAny: a fake terminal for Ink
		stdin: stdin as any,
		exitOnCtrlC: false,
		patchConsole: false,
		maxFps: 30,
		incrementalRendering: true,
	};
}
