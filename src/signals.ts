import { startScriptSignalsTaken } from "./code-cache.js";

/** The signals that interrupt gar: a person's Ctrl+C, a supervisor's stop, a closed terminal. */
export const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

type Listener = (signal: NodeJS.Signals) => void;

/**
 * One owner of SIGINT/SIGTERM/SIGHUP for the whole process, installed as gar starts. A signal that arrives before a
 * mode listens is kept and handed to the first listener (a run then ends at once, with its result). A second
 * signal exits at once with 130; the `exit` hook of tools/live-groups.ts then kills the running commands' groups.
 */
export class Interrupts {
	private count = 0;
	private listener: Listener | null = null;
	private pending: NodeJS.Signals | null = null;
	/** After release(): nobody will listen, so the first signal exits too. */
	private released = false;

	constructor(private readonly exit: (code: number) => void) {}

	/** Called for each signal received. */
	readonly onSignal = (signal: NodeJS.Signals): void => {
		this.count++;
		if (this.count > 1 || this.released) this.exit(130);
		else if (this.listener) this.listener(signal);
		else this.pending = signal;
	};

	/** How many signals arrived so far. */
	get received(): number {
		return this.count;
	}

	/** Routes the first signal to `listener` (at once, if one already came); returns the unsubscribe function. */
	listen(listener: Listener): () => void {
		this.listener = listener;
		this.released = false;
		const pending = this.pending;
		this.pending = null;
		if (pending) listener(pending);
		return () => {
			if (this.listener === listener) this.listener = null;
		};
	}

	/** No mode will listen (a subcommand, the interactive app): a signal kept or still to come exits with 130. */
	release(): void {
		this.released = true;
		if (this.pending) this.exit(130);
	}
}

let installed: Interrupts | undefined;

/**
 * Installs the process-wide handlers once and returns them (idempotent). They take over from the start script's
 * (src/boot.ts): a signal that came while the bundle loaded waits in Node and reaches these.
 */
export function installInterrupts(): Interrupts {
	if (installed) return installed;
	const interrupts = new Interrupts((code) => process.exit(code));
	for (const signal of SIGNALS) process.on(signal, interrupts.onSignal);
	// Only now, so that a signal always has a handler: with none, Node would let it end gar at once.
	startScriptSignalsTaken();
	installed = interrupts;
	return interrupts;
}

/**
 * Resolves once the event loop has turned: a signal that came while gar started waits in Node until then, and has
 * reached its handler when this resolves (a run started after it never sends a request it was told not to).
 */
export function signalsDelivered(): Promise<void> {
	return new Promise((resolve) => setImmediate(resolve));
}
