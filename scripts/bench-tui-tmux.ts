// A small tmux control-mode client for the TUI bench. Forking `tmux capture-pane` per poll costs milliseconds;
// one `tmux -C attach` child answers each command over a pipe in a fraction of one, so the screen can be polled
// every 2 ms without the poller dominating what it measures.
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { shellQuote } from "./bench-stats.js";

type Pending = { command: string; resolve: (lines: string[]) => void; reject: (error: Error) => void };

/** Quotes one argument for tmux's command parser (which reads quotes as sh does). */
export const tmuxQuote = shellQuote;

/** True when a `tmux` binary runs here. */
export function hasTmux(): boolean {
	return spawnSync("tmux", ["-V"], { stdio: "ignore" }).status === 0;
}

/**
 * One private tmux server (`tmux -L NAME`) and one control-mode client attached to an idle holder session.
 * Replies to commands arrive in order between `%begin` and `%end`/`%error`; lines outside a block are
 * notifications, which this client does not need.
 */
export class TmuxControl {
	private child: ChildProcessWithoutNullStreams | null = null;
	private readonly pending: Pending[] = [];
	private block: string[] | null = null;
	private ours = false;
	private rest = "";
	private stderr = "";

	constructor(readonly socket: string) {}

	/** Starts the server with a holder session of the given size and attaches the control client to it. */
	async start(cols: number, rows: number): Promise<void> {
		const made = spawnSync(
			"tmux",
			[
				"-L",
				this.socket,
				"-f",
				"/dev/null",
				"new-session",
				"-d",
				"-s",
				"holder",
				"-x",
				`${cols}`,
				"-y",
				`${rows}`,
				"cat",
			],
			{ encoding: "utf8", env: { ...process.env, SHELL: "/bin/sh" } },
		);
		if (made.status !== 0) throw new Error(`tmux new-session failed: ${made.stderr.trim()}`);
		// no-output: tmux would otherwise copy every byte the panes write to this client as %output lines.
		const child = spawn("tmux", ["-L", this.socket, "-C", "attach-session", "-f", "no-output", "-t", "holder"]);
		this.child = child;
		child.stdout.setEncoding("utf8");
		child.stdout.on("data", (text: string) => this.onData(text));
		child.stderr.on("data", (d: Buffer) => {
			this.stderr += d.toString();
		});
		child.on("exit", () => {
			this.child = null;
			for (const p of this.pending.splice(0)) p.reject(new Error(`tmux control client exited ${this.stderr.trim()}`));
		});
		// Panes stay (dead) after their program exits, so a crash leaves its last screen to show.
		await this.command("set-option -g remain-on-exit on");
		await this.command("set-option -g default-shell /bin/sh");
	}

	private onData(text: string): void {
		const lines = (this.rest + text).split("\n");
		this.rest = lines.pop() ?? "";
		for (const line of lines) this.onLine(line);
	}

	private onLine(line: string): void {
		if (this.block === null) {
			const begin = /^%begin \d+ \d+ (\d+)$/.exec(line);
			if (begin) {
				this.block = [];
				this.ours = begin[1] === "1"; // flag 0: the attach itself, not a command of ours
			}
			return;
		}
		const end = /^%(end|error) \d+ \d+ \d+$/.exec(line);
		if (!end) {
			this.block.push(line);
			return;
		}
		const lines = this.block;
		this.block = null;
		if (!this.ours) return;
		const p = this.pending.shift();
		if (!p) return;
		if (end[1] === "end") p.resolve(lines);
		else p.reject(new Error(`tmux: ${lines.join(" ")} (${p.command})`));
	}

	/** Runs one tmux command; resolves with its output lines. */
	command(command: string): Promise<string[]> {
		const child = this.child;
		if (!child) return Promise.reject(new Error("tmux control client is not running"));
		return new Promise((resolve, reject) => {
			this.pending.push({ command, resolve, reject });
			child.stdin.write(`${command}\n`);
		});
	}

	/** The visible screen of a session, one string per row (trailing blanks trimmed by tmux). */
	async capture(session: string): Promise<string> {
		return (await this.command(`capture-pane -p -t ${tmuxQuote(session)}`)).join("\n");
	}

	/** Kills the private server and everything it still runs. */
	async stop(): Promise<void> {
		const child = this.child;
		if (!child) return;
		const exited = new Promise((resolve) => child.once("exit", resolve));
		child.stdin.write("kill-server\n");
		await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2000))]);
		this.killServer();
	}

	/** Kills the private server at once (synchronously, for signal handlers); harmless when it is gone. */
	killServer(): void {
		spawnSync("tmux", ["-L", this.socket, "kill-server"], { stdio: "ignore" });
	}

	/**
	 * Until the returned function is called, an interrupt (SIGINT, SIGTERM: Ctrl+C, a timeout) takes the private server
	 * and the apps in it down and removes `dir`, then ends the bench by that signal as usual: no gar is left running.
	 */
	downOnInterrupt(dir: string): () => void {
		const onSignal = (signal: NodeJS.Signals) => {
			this.killServer();
			rmSync(dir, { recursive: true, force: true });
			process.kill(process.pid, signal);
		};
		process.once("SIGINT", onSignal);
		process.once("SIGTERM", onSignal);
		return () => {
			process.off("SIGINT", onSignal);
			process.off("SIGTERM", onSignal);
		};
	}
}
