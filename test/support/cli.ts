import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const GAR_BIN = join(import.meta.dirname, "..", "..", "bin", "gar.cjs");

export type CliRun = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

/**
 * One code cache for every launch in a test run, as a person's launches share theirs (~60 ms less per launch after
 * the first of each kind; test/boot.test.ts gives its cases folders of their own).
 */
const CODE_CACHE = join(tmpdir(), "gar-test-code-cache");

/**
 * A script for NODE_OPTIONS (`--require FILE`, written to `file`) that runs `code` at one moment within start-up, every
 * time: as the start script reads a bundle (after the code cache and the first frame's paint, before gar's code).
 */
export function atBundleRead(file: string, code: string): string {
	writeFileSync(
		file,
		`const fs = require("node:fs");
const readFileSync = fs.readFileSync;
fs.readFileSync = function (file, ...rest) {
	if (/[\\/]dist[\\/](gar|headless)\\.cjs$/.test(String(file))) {
		fs.readFileSync = readFileSync;
		${code.trim().split("\n").join("\n\t\t")}
	}
	return readFileSync.call(this, file, ...rest);
};
`,
	);
	return file;
}

/** A throwaway home: config, data and the project dir all in a fresh temp folder. */
export function tempHome() {
	const root = mkdtempSync(join(tmpdir(), "gar-cli-"));
	const project = join(root, "project");
	mkdirSync(project);
	const env: NodeJS.ProcessEnv = {
		PATH: process.env.PATH,
		HOME: root,
		XDG_CONFIG_HOME: join(root, "config"),
		XDG_DATA_HOME: join(root, "data"),
		XDG_CACHE_HOME: CODE_CACHE,
		TMPDIR: tmpdir(),
	};
	return { root, project, env };
}

/** Runs `command` with `args` and collects its output; resolves when it exits (killed after `timeoutMs`). */
export function runProgram(
	command: string,
	args: readonly string[],
	options: { env: NodeJS.ProcessEnv; cwd?: string; stdin?: string; timeoutMs?: number },
): Promise<CliRun> {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, {
			env: options.env,
			cwd: options.cwd ?? process.cwd(),
			stdio: [options.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
		});
		let stdout = "";
		let stderr = "";
		child.stdout?.setEncoding("utf8").on("data", (d: string) => {
			stdout += d;
		});
		child.stderr?.setEncoding("utf8").on("data", (d: string) => {
			stderr += d;
		});
		const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 15_000);
		child.on("error", reject);
		child.on("close", (code, signal) => {
			clearTimeout(timer);
			resolve({ code, signal, stdout, stderr });
		});
		if (options.stdin !== undefined) child.stdin?.end(options.stdin);
	});
}

/** Runs the built CLI (`bin/gar.cjs`) with `args`; resolves when it exits. */
export function runGar(
	args: string[],
	options: { env: NodeJS.ProcessEnv; cwd?: string; stdin?: string; timeoutMs?: number },
): Promise<CliRun> {
	return runProgram(process.execPath, [GAR_BIN, ...args], options);
}

/** Starts the built CLI without waiting: for tests that signal or kill it mid-run. */
export function spawnGar(
	args: string[],
	options: { env: NodeJS.ProcessEnv; cwd: string },
): { child: ChildProcess; stdout: () => string; closed: Promise<number | null> } {
	const child = spawn(process.execPath, [GAR_BIN, ...args], { ...options, stdio: ["ignore", "pipe", "pipe"] });
	let stdout = "";
	child.stdout?.setEncoding("utf8").on("data", (d: string) => {
		stdout += d;
	});
	child.stderr?.resume();
	const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
	return { child, stdout: () => stdout, closed };
}

/** The built CLI with a pipe on stdin, read as JSON lines on stdout: for tests that talk to it line by line. */
export type PipedGar = {
	child: ChildProcess;
	/** Writes one line (a value is sent as JSON). */
	send: (line: unknown) => void;
	/** Every JSON line printed so far (lines are split at "\n" only). */
	lines: () => Record<string, unknown>[];
	/** Resolves with the first line (counting from `from`) that `match` accepts; rejects after `timeoutMs`. */
	waitFor: (
		match: (line: Record<string, unknown>) => boolean,
		options?: { from?: number; timeoutMs?: number },
	) => Promise<Record<string, unknown>>;
	stderr: () => string;
	/** The exit code once it exits. */
	closed: Promise<number | null>;
};

export function spawnGarPiped(args: string[], options: { env: NodeJS.ProcessEnv; cwd: string }): PipedGar {
	const child = spawn(process.execPath, [GAR_BIN, ...args], { ...options, stdio: ["pipe", "pipe", "pipe"] });
	let buffer = "";
	let stderr = "";
	const parsed: Record<string, unknown>[] = [];
	const waiters = new Set<() => void>();
	child.stdout?.setEncoding("utf8").on("data", (d: string) => {
		buffer += d;
		let nl = buffer.indexOf("\n");
		while (nl !== -1) {
			parsed.push(JSON.parse(buffer.slice(0, nl)));
			buffer = buffer.slice(nl + 1);
			nl = buffer.indexOf("\n");
		}
		for (const wake of waiters) wake();
	});
	child.stderr?.setEncoding("utf8").on("data", (d: string) => {
		stderr += d;
	});
	child.stdin?.on("error", () => {});
	const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
	const waitFor: PipedGar["waitFor"] = (match, { from = 0, timeoutMs = 10_000 } = {}) =>
		new Promise((resolve, reject) => {
			const check = () => {
				const hit = parsed.slice(from).find(match);
				if (!hit) return;
				waiters.delete(check);
				clearTimeout(timer);
				resolve(hit);
			};
			const timer = setTimeout(() => {
				waiters.delete(check);
				reject(new Error(`no matching line within ${timeoutMs} ms; stderr: ${stderr}`));
			}, timeoutMs);
			waiters.add(check);
			check();
		});
	return {
		child,
		send: (line) => child.stdin?.write(`${typeof line === "string" ? line : JSON.stringify(line)}\n`),
		lines: () => parsed,
		waitFor,
		stderr: () => stderr,
		closed,
	};
}
