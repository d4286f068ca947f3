import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GAR_BIN } from "./cli.js";

/** Whether tmux can be used here (.ci/run installs it; a developer machine may lack it). */
export const HAS_TMUX = spawnSync("tmux", ["-V"]).status === 0;

/**
 * The options of a group of tests in a real terminal: one more try. On a loaded 2-core machine such a test has, rarely,
 * found a screen it never left (the app drawn one row up, a key not taken) that we could not reproduce alone; a second
 * failure fails the suite. A wait that times out says what the screen shows and the app's last bytes; a test that passed
only on its retry is named at the end of the run (summary-reporter.ts): a first try that fails every time is a bug.
 */
export const IN_TMUX = { retry: Number(process.env.GAR_TEST_TMUX_RETRY ?? 1) };

/** The shell words that start the built gar with `env` as its whole environment, in an xterm: for a tmux command. */
export function garInTerminal(env: Record<string, string | undefined>): string {
	const vars = Object.entries(env)
		.map(([k, v]) => `${k}='${v}'`)
		.join(" ");
	return `env -i ${vars} TERM=xterm-256color '${process.execPath}' '${GAR_BIN}'`;
}

/**
 * Prints each text at the start of a cleared screen and asks the terminal where its cursor went (DSR): the columns
 * the terminal drew the text in.
 */
const COLUMNS_PROBE = `
const fs = require("node:fs");
const [texts, out] = [JSON.parse(fs.readFileSync(process.argv[2], "utf8")), process.argv[3]];
const columns = [];
let answer = "";
const ask = () => {
	if (columns.length === texts.length) {
		fs.writeFileSync(out + ".part", JSON.stringify(columns));
		fs.renameSync(out + ".part", out);
		process.exit(0);
	}
	process.stdout.write("\\x1b[2J\\x1b[H" + texts[columns.length] + "\\x1b[6n");
};
process.stdin.setRawMode(true);
process.stdin.on("data", (data) => {
	answer += data.toString("latin1");
	const report = /\\x1b\\[\\d+;(\\d+)R/.exec(answer);
	if (!report) return;
	answer = "";
	columns.push(Number(report[1]) - 1);
	ask();
});
ask();`;

/**
 * One app in a real terminal: a detached tmux session of `columns` × `rows` running `command` (a shell command
 * line). Keys go in with send-keys, the screen comes out with capture-pane.
 */
export class TmuxSession {
	/** Each session runs on its own tmux server (a private socket), so tests never touch the person's tmux. */
	/** Where every byte the app writes goes, deleted with the session unless GAR_TEST_TMUX_LOG names a folder to keep it. */
	private readonly log: string;

	private constructor(readonly name: string) {
		this.log = join(process.env.GAR_TEST_TMUX_LOG ?? tmpdir(), `${name}.bytes`);
	}

	private static run(
		name: string,
		args: string[],
		options: { env?: NodeJS.ProcessEnv; encoding?: "utf8"; input?: string } = {},
	) {
		return execFileSync("tmux", ["-L", name, ...args], options);
	}

	static start(command: string, options: { columns?: number; rows?: number; env?: NodeJS.ProcessEnv } = {}) {
		const name = `gar-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
		const tmux = new TmuxSession(name);
		const columns = String(options.columns ?? 120);
		const rows = String(options.rows ?? 40);
		// The command waits until every byte it writes is recorded: on a loaded machine pipe-pane can come after a
		// first write (the start script paints ~5 ms after node starts).
		const ready = `${tmux.log}.ready`;
		const gated = `while [ ! -e '${ready}' ]; do sleep 0.01; done; rm -f '${ready}'; ${command}`;
		// extended-keys: tmux passes Shift+Enter on as a CSI sequence to an app that asks for it (modifyOtherKeys).
		const session = ["new-session", "-d", "-s", name, "-x", columns, "-y", rows, gated];
		TmuxSession.run(name, [...session, ";", "set", "-g", "extended-keys", "on"], {
			env: { ...process.env, ...options.env },
		});
		// Every byte the app writes (`bytes`, and the message of a wait that timed out).
		TmuxSession.run(name, ["pipe-pane", "-t", name, `cat >> '${tmux.log}'`]);
		writeFileSync(ready, "");
		return tmux;
	}

	/** Keys as tmux names them ("Enter", "Escape", "C-c", "PageUp") or literal text with `literal`. */
	send(keys: string[], literal = false): void {
		TmuxSession.run(this.name, ["send-keys", "-t", this.name, ...(literal ? ["-l"] : []), ...keys]);
	}

	type(text: string): void {
		this.send([text], true);
	}

	/** Pastes `text` as the terminal would (bracketed, when the app asked for it), through a tmux buffer. */
	paste(text: string): void {
		TmuxSession.run(this.name, ["load-buffer", "-b", "gar-paste", "-"], { input: text });
		TmuxSession.run(this.name, ["paste-buffer", "-p", "-d", "-b", "gar-paste", "-t", this.name]);
	}

	/** The bytes the app wrote to the terminal so far (as the terminal got them: "\n" as "\r\n"), in latin1. */
	bytes(): string {
		return existsSync(this.log) ? readFileSync(this.log, "latin1") : "";
	}

	screen(): string {
		return String(TmuxSession.run(this.name, ["capture-pane", "-p", "-t", this.name], { encoding: "utf8" }));
	}

	resize(columns: number, rows: number): void {
		TmuxSession.run(this.name, ["resize-window", "-t", this.name, "-x", String(columns), "-y", String(rows)]);
	}

	/**
	 * Polls the bytes the app wrote until `test` holds: they reach the record a moment after the screen shows them.
	 * Throws with the last bytes after `timeoutMs`.
	 */
	async waitForBytes(test: (bytes: string) => boolean, timeoutMs = 5_000): Promise<string> {
		const end = Date.now() + timeoutMs;
		for (;;) {
			const bytes = this.bytes();
			if (test(bytes)) return bytes;
			if (Date.now() > end) throw new Error(`timed out waiting for the app's bytes; the last: ${this.lastBytes()}`);
			await new Promise((r) => setTimeout(r, 20));
		}
	}

	/** Polls the screen until `test` holds; throws with the last screen after `timeoutMs`. */
	async waitFor(test: RegExp | ((screen: string) => boolean), timeoutMs = 10_000): Promise<string> {
		const check = typeof test === "function" ? test : (s: string) => test.test(s);
		const end = Date.now() + timeoutMs;
		let last = "";
		while (Date.now() < end) {
			last = this.alive() ? this.screen() : last;
			if (check(last)) return last;
			await new Promise((r) => setTimeout(r, 50));
		}
		throw new Error(`timed out waiting for ${test} on screen:\n${last}\nthe app's last bytes: ${this.lastBytes()}`);
	}

	/** The columns tmux draws each of `texts` in (each on a line of its own, at most 500 columns wide). */
	static async columns(texts: readonly string[]): Promise<number[]> {
		const dir = mkdtempSync(join(tmpdir(), "gar-tmux-columns-"));
		const [probe, input, output] = ["probe.cjs", "texts.json", "columns.json"].map((name) => join(dir, name));
		writeFileSync(probe as string, COLUMNS_PROBE);
		writeFileSync(input as string, JSON.stringify(texts));
		const tmux = TmuxSession.start(`'${process.execPath}' '${probe}' '${input}' '${output}'; sleep 5`, {
			columns: 500,
			rows: 5,
			env: { LANG: "C.UTF-8" },
		});
		try {
			const end = Date.now() + 10_000;
			while (!existsSync(output as string)) {
				if (Date.now() > end) throw new Error(`the columns probe gave no answer; screen:\n${tmux.screen()}`);
				await new Promise((r) => setTimeout(r, 20));
			}
			return JSON.parse(readFileSync(output as string, "utf8"));
		} finally {
			tmux.kill();
			rmSync(dir, { recursive: true, force: true });
		}
	}

	alive(): boolean {
		return spawnSync("tmux", ["-L", this.name, "has-session", "-t", this.name]).status === 0;
	}

	/** The last 3,000 bytes the app wrote, as a JSON string (escapes visible). */
	private lastBytes(): string {
		return JSON.stringify(Buffer.from(this.bytes().slice(-3000), "latin1").toString("utf8"));
	}

	kill(): void {
		spawnSync("tmux", ["-L", this.name, "kill-server"]);
		if (!process.env.GAR_TEST_TMUX_LOG) rmSync(this.log, { force: true });
	}
}
