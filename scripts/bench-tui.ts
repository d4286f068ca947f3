// The interactive app measured the way a person meets it: in a real pseudo-terminal (tmux, 120×40), typing into it,
// against the project's wire server on loopback. Start-up, streaming 20,000 deltas (CPU, bytes written, clears),
// idle CPU, peak RSS, keypress-to-screen latency (empty and with a 10,000-entry session) and opening that session,
// each next to a `node` start launched the same way in the same run. Run alone: `node --import tsx scripts/bench-tui.ts`.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { startWireServer, type WireServer } from "../test/support/wire-server.js";
import { killMembers, treeCpuSeconds, treeMembers, treeRssMib } from "./bench-tui-proc.js";
import { median, type RunFigures, report, type StreamFigures } from "./bench-tui-report.js";
import { hasTmux, TmuxControl, tmuxQuote } from "./bench-tui-tmux.js";
import { writeSyntheticSession } from "./synthetic-session.js";

const COLS = 120;
const ROWS = 40;
const DELTAS = 20_000;
const MARKER = "TBEND7F3A";
const LONG_ENTRIES = 10_000;
const PASTE_LINES = 5_000;
const KEYS = 20;
const PRIMER = "qz"; // typed first, so "the typed text is on screen" cannot match anything else on it
const PROMPT = "Write a long story.";
const POLL_MS = 10;
const KEY_POLL_MS = 2;
const STALL_MS = 20_000;
const GAR = process.env.BENCH_GAR ?? new URL("../bin/gar.cjs", import.meta.url).pathname;

/** What the first usable screen shows: the full-screen app's input hint (its welcome text also says Ctrl+D quits). */
const READY: Array<{ pattern: RegExp; mode: string }> = [{ pattern: /Enter send/, mode: "full-screen app" }];
const BASELINE_READY = [{ pattern: /^x$/m, mode: "node" }];

type Ready = typeof READY;
type Launch = { session: string; pid: number; readyMs: number; mode: string };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const shellQuote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;

/** Runs from `--tui-runs N` or BENCH_TUI_RUNS (default 3). */
function runsWanted(): number {
	const at = process.argv.indexOf("--tui-runs");
	const value = Number(at >= 0 ? process.argv[at + 1] : (process.env.BENCH_TUI_RUNS ?? 3));
	return Number.isInteger(value) && value > 0 ? value : 3;
}

/** The reply: pseudo-random prose, one word per delta, paragraphs now and then, the marker as the last delta. */
function replyPieces(count: number): string[] {
	const words = "the a river stone light under over quietly ran built long morning city letter old green".split(" ");
	const pieces: string[] = [];
	let state = 7;
	for (let i = 0; i < count - 1; i++) {
		state = (state * 1103515245 + 12345) >>> 0;
		pieces.push(`${words[state % words.length]}${i % 80 === 79 ? ".\n\n" : " "}`);
	}
	pieces.push(MARKER);
	return pieces;
}

/** Serves the long reply to the conversation's request; requests without tools (titles, summaries) get a line. */
function startServer(): Promise<WireServer> {
	const long = replyPieces(DELTAS);
	return startWireServer((req) => {
		const tools = (req.body as { tools?: unknown[] } | null)?.tools;
		return Array.isArray(tools) && tools.length > 0
			? { text: long, usage: { input: 1200, output: DELTAS } }
			: { text: ["A long story"], usage: { input: 50, output: 3 } };
	});
}

/** The whole environment of every launch (`env -i`): no CA bundles or options of the caller to slow node down. */
function launchEnv(dir: string): Record<string, string> {
	const home = join(dir, "home");
	return {
		PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
		HOME: home,
		XDG_CONFIG_HOME: join(home, ".config"),
		XDG_DATA_HOME: join(home, ".local", "share"),
		XDG_STATE_HOME: join(home, ".local", "state"),
		XDG_CACHE_HOME: join(home, ".cache"),
		TMPDIR: join(dir, "tmp"),
		TERM: "xterm-256color",
		LANG: "C.UTF-8",
		OPENAI_API_KEY: "dummy",
	};
}

/** A screen test for `text` that gives up (throws) once the screen has not changed for STALL_MS. */
function stallGuard(text: string): (screen: string) => boolean {
	let last = "";
	let changed = performance.now();
	return (screen) => {
		if (screen.includes(text)) return true;
		if (screen !== last) {
			last = screen;
			changed = performance.now();
		} else if (performance.now() - changed > STALL_MS) {
			throw new Error(`the screen stopped changing for ${STALL_MS / 1000} s without ${text}:\n${screen}`);
		}
		return false;
	};
}

/** One bench run's scratch space and tmux server; every launch goes through `launch` and ends with `quit`. */
class TuiBench {
	private count = 0;
	readonly tmux: TmuxControl;

	constructor(
		readonly dir: string,
		readonly serverUrl: string,
	) {
		this.tmux = new TmuxControl(`gar-bench-${process.pid}`);
	}

	/** A command file that starts `argv` in the work dir with a clean environment (the same for every launch). */
	private commandFile(argv: string[]): string {
		const vars = Object.entries(launchEnv(this.dir)).map(([k, v]) => shellQuote(`${k}=${v}`));
		const file = join(this.dir, `launch-${++this.count}.sh`);
		const work = join(this.dir, "work");
		writeFileSync(file, `cd ${shellQuote(work)} && exec env -i ${vars.join(" ")} ${argv.map(shellQuote).join(" ")}\n`);
		return file;
	}

	/** The app's command line against the wire server. */
	garArgv(extra: string[]): string[] {
		const base = ["--provider", "openai", "--base-url", `${this.serverUrl}/v1`, "--model", "bench-model"];
		return [process.execPath, GAR, ...base, ...extra];
	}

	/** The baseline: a `node` start that prints one line and stays up, launched exactly like the app. */
	baselineArgv(): string[] {
		return [process.execPath, "-e", 'console.log("x"); setTimeout(() => {}, 500)'];
	}

	async start(): Promise<void> {
		for (const sub of ["home", "tmp", "work"]) mkdirSync(join(this.dir, sub), { recursive: true });
		writeFileSync(join(this.dir, "work", "notes.txt"), "hello from the TUI bench\n");
		await this.tmux.start(COLS, ROWS);
	}

	/** Spawns `argv` in a new 120×40 session and waits for a ready pattern; readyMs is spawn → on screen. */
	async launch(argv: string[], ready: Ready, timeoutMs = 30_000): Promise<Launch> {
		const session = `l${this.count + 1}`;
		const file = this.commandFile(argv);
		const started = performance.now();
		const [pid] = await this.tmux.command(
			`new-session -d -s ${session} -x ${COLS} -y ${ROWS} -P -F '#{pane_pid}' ${tmuxQuote(`sh ${file}`)}`,
		);
		let mode = "";
		const at = await this.waitFor(
			session,
			(screen) => {
				mode = ready.find((r) => r.pattern.test(screen))?.mode ?? "";
				return mode !== "";
			},
			POLL_MS,
			timeoutMs,
			"the ready screen",
		);
		return { session, pid: Number(pid), readyMs: at - started, mode };
	}

	/** Polls the screen until `test` holds; returns the time it was first seen. Throws with the screen on timeout. */
	async waitFor(
		session: string,
		test: (screen: string) => boolean,
		everyMs: number,
		timeoutMs: number,
		what: string,
		onPoll?: () => void,
	): Promise<number> {
		const deadline = performance.now() + timeoutMs;
		for (;;) {
			const screen = await this.tmux.capture(session);
			const now = performance.now();
			if (test(screen)) return now;
			if (now > deadline) throw new Error(`no ${what} after ${timeoutMs / 1000} s; the screen:\n${screen}`);
			onPoll?.();
			await sleep(everyMs);
		}
	}

	/** Ends a launch as a person would (Ctrl+D twice), then kills its session and anything of it still running. */
	async quit(launch: Launch): Promise<void> {
		const members = treeMembers(launch.pid);
		const target = tmuxQuote(launch.session);
		try {
			await this.tmux.command(`send-keys -t ${target} C-d`);
			await sleep(200);
			await this.tmux.command(`send-keys -t ${target} C-d`);
			for (let i = 0; i < 40; i++) {
				const [dead] = await this.tmux.command(`display-message -p -t ${target} '#{pane_dead}'`);
				if (dead === "1") break;
				await sleep(50);
			}
			await this.tmux.command(`kill-session -t ${target}`);
		} finally {
			killMembers(members);
		}
	}

	/** Types the primer, then KEYS single letters 60–150 ms apart; ms from send-keys until each is on screen. */
	async typeKeys(session: string): Promise<number[]> {
		const target = tmuxQuote(session);
		let typed = PRIMER;
		await this.tmux.command(`send-keys -t ${target} -l ${PRIMER}`);
		await this.waitFor(session, (s) => s.includes(typed), KEY_POLL_MS, 5000, "primer");
		const latencies: number[] = [];
		for (let i = 0; i < KEYS; i++) {
			// A random gap, so keys do not keep the same phase against the app's render throttle.
			await sleep(60 + Math.random() * 90);
			const letter = String.fromCharCode(97 + Math.floor(Math.random() * 26));
			typed += letter;
			const sent = performance.now();
			await this.tmux.command(`send-keys -t ${target} -l ${letter}`);
			latencies.push((await this.waitFor(session, (s) => s.includes(typed), KEY_POLL_MS, 5000, "key")) - sent);
		}
		await this.tmux.command(`send-keys -t ${target} C-u`); // clears the input in readline and in the app
		await this.waitFor(session, (s) => !s.includes(PRIMER), POLL_MS, 5000, "erased input");
		return latencies;
	}

	/** Pastes `lines` lines as a bracketed paste and waits for the input's placeholder (Ctrl+U clears it). */
	async paste(session: string, lines: number): Promise<void> {
		const file = join(this.dir, "paste.txt");
		writeFileSync(file, Array.from({ length: lines }, (_, i) => `const line${i} = ${i}; // pasted`).join("\n"));
		await this.tmux.command(`load-buffer -b bench ${tmuxQuote(file)}`);
		await this.tmux.command(`paste-buffer -p -d -b bench -t ${tmuxQuote(session)}`);
		await this.waitFor(session, (s) => s.includes(`[pasted ${lines} lines]`), POLL_MS, 10_000, "the paste placeholder");
	}

	/** Sends the prompt, times Enter → marker on screen: tree CPU, RSS every 50 ms, bytes written to the terminal. */
	async stream(launch: Launch, run: number): Promise<StreamFigures> {
		const target = tmuxQuote(launch.session);
		await this.tmux.command(`send-keys -t ${target} -l ${tmuxQuote(PROMPT)}`);
		await this.waitFor(launch.session, (s) => s.includes(PROMPT), POLL_MS, 5000, "prompt");
		const bytesFile = join(this.dir, `stream-${run}.bin`);
		await this.tmux.command(`pipe-pane -o -t ${target} ${tmuxQuote(`exec cat >> ${bytesFile}`)}`);
		let rssMib = treeRssMib(launch.pid);
		let lastSample = performance.now();
		const sample = () => {
			if (performance.now() - lastSample < 50) return;
			lastSample = performance.now();
			rssMib = Math.max(rssMib, treeRssMib(launch.pid));
		};
		const cpu0 = treeCpuSeconds(launch.pid);
		const sent = performance.now();
		await this.tmux.command(`send-keys -t ${target} Enter`);
		const seen = await this.waitFor(launch.session, stallGuard(MARKER), POLL_MS, 120_000, MARKER, sample);
		const cpuS = treeCpuSeconds(launch.pid) - cpu0;
		// The bytes include one more second: the frame that ends the reply (status, spinner off) is part of it.
		await sleep(1000);
		await this.tmux.command(`pipe-pane -t ${target}`);
		await sleep(50); // let cat write what it still holds
		const bytes = readFileSync(bytesFile, "latin1");
		return {
			cpuS,
			wallS: (seen - sent) / 1000,
			bytes: bytes.length,
			clears: bytes.split("\x1b[2J").length - 1,
			syncFrames: bytes.split("\x1b[?2026h").length - 1,
			rssMib,
		};
	}
}

/** One counted run: baseline start; the app with no session (start, idle, keys, stream); the app on 10,000 entries. */
async function oneRun(bench: TuiBench, longFile: string, run: number): Promise<RunFigures> {
	const baseline = await bench.launch(bench.baselineArgv(), BASELINE_READY);
	await bench.quit(baseline);

	const app = await bench.launch(bench.garArgv(["--no-session"]), READY);
	let figures: Omit<RunFigures, "baselineMs" | "openLongMs" | "keysLong">;
	try {
		await sleep(2000);
		const idle0 = treeCpuSeconds(app.pid);
		await sleep(5000);
		const idleCpuS = treeCpuSeconds(app.pid) - idle0;
		const keysEmpty = await bench.typeKeys(app.session);
		await bench.paste(app.session, PASTE_LINES);
		const keysPaste = await bench.typeKeys(app.session);
		const stream = await bench.stream(app, run);
		figures = { firstFrameMs: app.readyMs, mode: app.mode, idleCpuS, keysEmpty, keysPaste, stream };
	} finally {
		await bench.quit(app);
	}

	const copy = join(bench.dir, `long-${run}.jsonl`);
	copyFileSync(longFile, copy); // a fresh copy per launch: continuing a session may append to it
	// Opened means its content is on screen: the status bar shows its id only once the session has loaded.
	const id = String(JSON.parse(readFileSync(copy, "utf8").slice(0, 4096).split("\n")[0] ?? "{}").id);
	const opened = [{ pattern: new RegExp(id), mode: "full-screen app" }];
	const long = await bench.launch(bench.garArgv(["--session", copy]), opened);
	try {
		await sleep(1000);
		const keysLong = await bench.typeKeys(long.session);
		return { ...figures, baselineMs: baseline.readyMs, openLongMs: long.readyMs, keysLong };
	} finally {
		await bench.quit(long);
		rmSync(copy, { force: true });
	}
}

/** Wall time of a plain `node -e 0` spawn with the launches' environment (median of 9 after one warm-up). */
function nodeSpawnMs(env: Record<string, string>): number {
	const times: number[] = [];
	for (let i = 0; i < 10; i++) {
		const started = performance.now();
		spawnSync(process.execPath, ["-e", "0"], { stdio: "ignore", env });
		if (i > 0) times.push(performance.now() - started);
	}
	return median(times);
}

/** Runs the TUI bench; returns the lines to print (one line saying why when tmux is missing). */
export async function benchTui(): Promise<string[]> {
	if (!hasTmux()) return ["TUI figures need tmux (apt-get install tmux): skipped"];
	const dir = mkdtempSync(join(tmpdir(), "gar-bench-tui-"));
	const server = await startServer();
	const bench = new TuiBench(dir, server.url);
	// Interrupted: take the private tmux server (and the app in it) down too, then die of the signal as usual.
	const onSignal = (signal: NodeJS.Signals) => {
		bench.tmux.killServer();
		rmSync(dir, { recursive: true, force: true });
		process.kill(process.pid, signal);
	};
	process.once("SIGINT", onSignal);
	process.once("SIGTERM", onSignal);
	try {
		const longFile = writeSyntheticSession(join(dir, "sessions"), LONG_ENTRIES, { cwd: join(dir, "work") });
		const sessionMb = statSync(longFile).size / 2 ** 20;
		const nodeMs = nodeSpawnMs(launchEnv(dir));
		await bench.start();
		// One uncounted launch of each, so the counted ones do not pay for a cold file cache.
		await bench.quit(await bench.launch(bench.baselineArgv(), BASELINE_READY));
		await bench.quit(await bench.launch(bench.garArgv(["--no-session"]), READY));
		const runs: RunFigures[] = [];
		for (let i = 0; i < runsWanted(); i++) runs.push(await oneRun(bench, longFile, i));
		return report(runs, { nodeMs, sessionMb, deltas: DELTAS, entries: LONG_ENTRIES, cols: COLS, rows: ROWS });
	} catch (error) {
		return [`TUI bench failed: ${error instanceof Error ? error.message : String(error)}`];
	} finally {
		process.off("SIGINT", onSignal);
		process.off("SIGTERM", onSignal);
		await bench.tmux.stop();
		await server.close();
		rmSync(dir, { recursive: true, force: true });
	}
}

/**
 * `--first-frames N [gar args…]`: only the start-up, N launches of the baseline and the app interleaved, each
 * figure printed (for comparing two builds or flags quickly, e.g. `--first-frames 15 --theme dark`).
 */
async function firstFrames(n: number, extra: string[]): Promise<string[]> {
	const dir = mkdtempSync(join(tmpdir(), "gar-bench-tui-"));
	const server = await startServer();
	const bench = new TuiBench(dir, server.url);
	try {
		await bench.start();
		const base: number[] = [];
		const app: number[] = [];
		// BENCH_GAR_B: a second build launched right after each launch of the first, for an A/B comparison.
		const other = process.env.BENCH_GAR_B;
		const appB: number[] = [];
		for (let i = 0; i <= n; i++) {
			const b = await bench.launch(bench.baselineArgv(), BASELINE_READY);
			await bench.quit(b);
			const a = await bench.launch(bench.garArgv(["--no-session", ...extra]), READY);
			await bench.quit(a);
			const a2 = other
				? await bench.launch([process.execPath, other, ...bench.garArgv(["--no-session"]).slice(2)], READY)
				: null;
			if (a2) await bench.quit(a2);
			if (i === 0) continue; // the uncounted warm-up launch
			base.push(b.readyMs);
			app.push(a.readyMs);
			if (a2) appB.push(a2.readyMs);
		}
		const ms = (values: number[]) => values.map((v) => v.toFixed(0)).join(" ");
		const line = (name: string, values: number[]) =>
			`${name} ${ms(values)}  median ${median(values).toFixed(0)} ms  ${(median(values) / median(base)).toFixed(2)}×`;
		return [
			`baseline ${ms(base)}  median ${median(base).toFixed(0)} ms`,
			line("app     ", app),
			...(other ? [line("app B   ", appB)] : []),
		];
	} finally {
		await bench.tmux.stop();
		await server.close();
		rmSync(dir, { recursive: true, force: true });
	}
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
	const at = process.argv.indexOf("--first-frames");
	const lines =
		at >= 0 ? await firstFrames(Number(process.argv[at + 1] ?? 9), process.argv.slice(at + 2)) : await benchTui();
	for (const line of lines) console.log(line);
}
