import type { ChildProcess } from "node:child_process";
import type { Readable } from "node:stream";
import { nodeChildProcess } from "../text/lazy-node.js";
import { defaultShell, groupDeadline, trackGroup } from "../tools/live-groups.js";

/** What a hook process did. The texts are at most the caps given (`truncated` says one was cut). */
export type HookProcessResult = {
	exitCode: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
	/** stdout went past its cap: what is kept is its head, never parsed as JSON. */
	truncated: boolean;
	durationMs: number;
	timedOut: boolean;
	aborted: boolean;
	/** Set when the shell itself could not be started. */
	startError?: string;
};

export type HookProcessOptions = {
	cwd: string;
	env: NodeJS.ProcessEnv;
	timeoutMs: number;
	signal: AbortSignal;
	shell?: string;
	/** Between SIGTERM and SIGKILL to the hook's process group (1 s). */
	graceMs?: number;
	/** Bytes of stdout kept (2 MiB: an updatedInput may carry a whole file) and of stderr (64 KiB). */
	maxStdout?: number;
	maxStderr?: number;
	/** How long to wait for the pipes after the shell exits (a background child may hold them; 100 ms). */
	drainMs?: number;
	now?: () => number;
};

/** Keeps the first `max` bytes of a stream and drops the rest (a hook that prints 10 MB costs nothing more). */
class Capped {
	private readonly chunks: Buffer[] = [];
	private size = 0;
	cut = false;
	constructor(private readonly max: number) {}
	push(chunk: Buffer): void {
		const room = this.max - this.size;
		if (room <= 0) {
			this.cut = true;
			return;
		}
		const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
		if (kept !== chunk) this.cut = true;
		this.chunks.push(kept);
		this.size += kept.length;
	}
	text(): string {
		return Buffer.concat(this.chunks).toString("utf8");
	}
}

const ended = (stream: Readable | null) =>
	!stream || stream.readableEnded || stream.destroyed
		? Promise.resolve()
		: new Promise<void>((resolve) => {
				stream.once("end", resolve);
				stream.once("close", resolve);
			});

/**
 * Runs one hook command (`shell -c command`) in its own process group, tracked so it dies with gar: `input` is
 * written to its stdin, which is then closed. A timeout or `signal` sends SIGTERM to the group, SIGKILL after the
 * grace time. Resolves when the shell exits (never rejects); stdout and stderr are kept up to their caps.
 */
export function runHookProcess(command: string, input: string, o: HookProcessOptions): Promise<HookProcessResult> {
	const now = o.now ?? Date.now;
	const started = now();
	const base = { stdout: "", stderr: "", truncated: false, timedOut: false, signal: null, exitCode: null };
	if (o.signal.aborted) return Promise.resolve({ ...base, durationMs: 0, aborted: true });
	const out = new Capped(o.maxStdout ?? 2 * 1024 * 1024);
	const err = new Capped(o.maxStderr ?? 64 * 1024);
	return new Promise((resolve) => {
		const shell = o.shell ?? defaultShell();
		// stdin is a socket (node's pipes are): bash would take itself for a remote shell and run ~/.bashrc first.
		const args = shell.endsWith("bash") ? ["--norc", "-c", command] : ["-c", command];
		let child: ChildProcess;
		try {
			child = trackGroup(
				nodeChildProcess().spawn(shell, args, { cwd: o.cwd, env: o.env, detached: true, stdio: "pipe" }),
			);
		} catch (error) {
			resolve({ ...base, durationMs: now() - started, aborted: false, startError: (error as Error).message });
			return;
		}
		const deadline = groupDeadline(child.pid, { timeoutMs: o.timeoutMs, graceMs: o.graceMs ?? 1000, signal: o.signal });
		child.stdout?.on("data", (chunk: Buffer) => out.push(chunk));
		child.stderr?.on("data", (chunk: Buffer) => err.push(chunk));
		// A hook that never reads its stdin (or exits first) closes the pipe: that is no failure of gar's.
		child.stdin?.on("error", () => {});
		child.stdin?.end(input);
		let finished = false;
		const finish = async (exit: { code: number | null; signal: NodeJS.Signals | null }, startError?: string) => {
			if (finished) return;
			finished = true;
			// A pending SIGKILL stays armed only while the group still has members (children the hook left behind).
			deadline.release();
			const drain = new Promise((r) => setTimeout(r, o.drainMs ?? 100));
			await Promise.race([Promise.all([ended(child.stdout), ended(child.stderr)]), drain]);
			child.stdout?.destroy();
			child.stderr?.destroy();
			resolve({
				exitCode: exit.code,
				signal: exit.signal,
				stdout: out.text(),
				stderr: err.text(),
				truncated: out.cut,
				durationMs: now() - started,
				timedOut: deadline.timedOut(),
				aborted: deadline.aborted(),
				...(startError === undefined ? {} : { startError }),
			});
		};
		child.once("error", (error) => void finish({ code: null, signal: null }, error.message));
		child.once("exit", (code, signal) => void finish({ code, signal }));
	});
}
