// The interactive app measured the way a person meets it: in a real pseudo-terminal (tmux, 120×40), typing into it,
// against the project's wire server on loopback. Start-up, streaming 20,000 deltas (CPU, bytes written, clears),
// idle CPU, peak RSS, keypress-to-screen latency (empty and with a 10,000-entry session) and opening that session,
// each next to a `node` start launched the same way in the same run; with pi installed (scripts/bench-pi.ts), pi measured
// the same way in the same runs, and the ratios. Run alone: `node --import tsx scripts/bench-tui.ts`; the A/B modes at
// the end compare two builds (or gar and pi) launch by launch.
import { spawnSync } from "node:child_process";
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { startWireServer, type WireServer } from "../test/support/wire-server.js";
import { findPi, PI_ARGS, PI_ENV, PI_READY, writePiHome, writePiSession } from "./bench-pi.js";
import { shellQuote } from "./bench-stats.js";
import { killMembers, treeCpuSeconds, treeMembers, treeRssMib } from "./bench-tui-proc.js";
import {
	median,
	type PiFigures,
	percentile,
	type RunFigures,
	report,
	type StreamFigures,
	sideBySide,
} from "./bench-tui-report.js";
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
/** How often the screen is polled while a key is awaited (BENCH_KEY_POLL_MS; 0: back to back). */
const KEY_POLL_MS = Number(process.env.BENCH_KEY_POLL_MS ?? 2);
const KEY_GAP_MS = Number(process.env.BENCH_KEY_GAP_MS ?? 0);
const STALL_MS = 20_000;
const GAR = process.env.BENCH_GAR ?? new URL("../bin/gar.cjs", import.meta.url).pathname;

/** What the first usable screen shows: the full-screen app's input hint (its welcome text also says Ctrl+D quits). */
const READY: Array<{ pattern: RegExp; mode: string }> = [{ pattern: /Enter send/, mode: "full-screen app" }];
const BASELINE_READY = [{ pattern: /^x$/m, mode: "node" }];

type Ready = typeof READY;
type Launch = { session: string; pid: number; readyMs: number; mode: string };

/** An app the bench launches: its command line, what its first usable screen shows, and how it resumes a session. */
type Profile = {
	name: string;
	argv: (extra: string[]) => string[];
	ready: Ready;
	env?: Record<string, string>;
	/** The command line and ready screen that open the long session `file` (a copy of the profile's own). */
	resume: (file: string) => { argv: string[]; ready: Ready };
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

/** The first line of a gar session's last reply (at most 30 characters) as a pattern, any whitespace between words. */
function lastReplyStart(file: string): string {
	const lines = readFileSync(file, "utf8").trimEnd().split("\n");
	for (let i = lines.length - 1; i > 0; i--) {
		const entry = JSON.parse(lines[i] ?? "{}") as { type?: string; content?: { type: string; text?: string }[] };
		const text =
			entry.type === "assistant" ? entry.content?.find((b) => b.type === "text" && b.text?.trim())?.text : "";
		const start = text?.trim().split("\n")[0]?.slice(0, 30).trim();
		if (start)
			return start
				.split(/\s+/)
				.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
				.join("\\s+");
	}
	throw new Error(`${file} has no reply to wait for`);
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
	private commandFile(argv: string[], env: Record<string, string> = {}): string {
		const vars = Object.entries({ ...launchEnv(this.dir), ...env }).map(([k, v]) => shellQuote(`${k}=${v}`));
		const file = join(this.dir, `launch-${++this.count}.sh`);
		const work = join(this.dir, "work");
		writeFileSync(file, `cd ${shellQuote(work)} && exec env -i ${vars.join(" ")} ${argv.map(shellQuote).join(" ")}\n`);
		return file;
	}

	/** Forgets the first frames gar keeps (src/first-paint.ts): the next launch draws its own. */
	dropFrames(): void {
		const dir = join(this.dir, "home", ".cache", "gar");
		for (const name of existsSync(dir) ? readdirSync(dir) : []) {
			if (/-frame-[0-9a-f]{8}\.txt$/.test(name)) rmSync(join(dir, name));
		}
	}

	/** The app's command line against the wire server (`gar`: another build's bin/gar.cjs). */
	garArgv(extra: string[], gar = GAR): string[] {
		const base = ["--provider", "openai", "--base-url", `${this.serverUrl}/v1`, "--model", "bench-model"];
		return [process.execPath, gar, ...base, ...extra];
	}

	/**
	 * gar (the build at `gar`) as a profile: no session unless resumed; opened means the session's id is shown and the
	 * start of its last reply (the person sees their conversation, not just an id).
	 */
	garProfile(name: string, gar = GAR): Profile {
		return {
			name,
			argv: (extra) => this.garArgv(["--no-session", ...extra], gar),
			ready: READY,
			resume: (file) => {
				const id = String(JSON.parse(readFileSync(file, "utf8").slice(0, 4096).split("\n")[0] ?? "{}").id);
				const both = `^(?=[\\s\\S]*${id})(?=[\\s\\S]*${lastReplyStart(file)})`;
				return { argv: this.garArgv(["--session", file], gar), ready: [{ pattern: new RegExp(both), mode: name }] };
			},
		};
	}

	/** pi as a profile (`command`: findPi's), with its settings for the wire server in the launches' home. */
	piProfile(command: string[]): Profile {
		writePiHome(join(this.dir, "home"), `${this.serverUrl}/v1`);
		const ready = [{ pattern: PI_READY, mode: "pi" }];
		return {
			name: "pi",
			argv: (extra) => [...command, ...PI_ARGS, ...extra],
			ready,
			env: PI_ENV,
			resume: (file) => ({ argv: [...command, ...PI_ARGS, "--session", file], ready }),
		};
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
	async launch(argv: string[], ready: Ready, timeoutMs = 30_000, env: Record<string, string> = {}): Promise<Launch> {
		const session = `l${this.count + 1}`;
		const file = this.commandFile(argv, env);
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
			if (everyMs > 0) await sleep(everyMs);
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

	/** Ms from typing the primer until it is on screen; then it is erased. */
	async keyNow(session: string): Promise<number> {
		const target = tmuxQuote(session);
		const sent = performance.now();
		await this.tmux.command(`send-keys -t ${target} -l ${PRIMER}`);
		const seen = await this.waitFor(session, (s) => s.includes(PRIMER), KEY_POLL_MS, 10_000, "primer");
		await this.tmux.command(`send-keys -t ${target} C-u`);
		await this.waitFor(session, (s) => !s.includes(PRIMER), POLL_MS, 10_000, "erased input");
		return seen - sent;
	}

	/** Types the primer, then KEYS single letters 60–150 ms apart; ms from send-keys until each is on screen. */
	async typeKeys(session: string): Promise<number[]> {
		const target = tmuxQuote(session);
		let typed = PRIMER;
		await this.tmux.command(`send-keys -t ${target} -l ${PRIMER}`);
		await this.waitFor(session, (s) => s.includes(typed), KEY_POLL_MS, 5000, "primer");
		const latencies: number[] = [];
		for (let i = 0; i < KEYS; i++) {
			// A random gap, so keys do not keep the same phase against the app's render throttle (BENCH_KEY_GAP_MS: a
			// shorter one, g to 1.5 g, as a fast typist's keys come).
			await sleep(KEY_GAP_MS ? KEY_GAP_MS * (1 + Math.random() / 2) : 60 + Math.random() * 90);
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

/**
 * Launches `profile` on the session `file` (a fresh copy: continuing may append to it): ms to open, ms to a key typed
 * the moment it is shown (while the rest may still load), then the keys.
 */
async function longSession(bench: TuiBench, profile: Profile, file: string, run: number) {
	const copy = join(bench.dir, `long-${profile.name}-${run}.jsonl`);
	copyFileSync(file, copy);
	const { argv, ready } = profile.resume(copy);
	const long = await bench.launch(argv, ready, 60_000, profile.env);
	try {
		const keyAtOpenMs = await bench.keyNow(long.session);
		await sleep(1000);
		return { openLongMs: long.readyMs, keyAtOpenMs, keysLong: await bench.typeKeys(long.session) };
	} finally {
		await bench.quit(long);
		rmSync(copy, { force: true });
	}
}

/** One counted run: baseline start; the app with no session (start, idle, keys, stream); the app on 10,000 entries. */
async function oneRun(bench: TuiBench, gar: Profile, longFile: string, run: number): Promise<RunFigures> {
	const baseline = await bench.launch(bench.baselineArgv(), BASELINE_READY);
	await bench.quit(baseline);

	// The app's own first frame (none kept from a launch like it), then the one painted from it (src/first-paint.ts).
	bench.dropFrames();
	const own = await bench.launch(gar.argv([]), READY);
	await bench.quit(own);
	const app = await bench.launch(gar.argv([]), READY);
	let figures: Omit<RunFigures, "baselineMs" | "ownFrameMs" | "openLongMs" | "keysLong">;
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
	const long = await longSession(bench, gar, longFile, run);
	return { ...figures, baselineMs: baseline.readyMs, ownFrameMs: own.readyMs, ...long };
}

/** pi's part of a run, the same steps as gar's (without the paste, whose placeholder pi draws its own way). */
async function piRun(bench: TuiBench, pi: Profile, longFile: string, run: number): Promise<PiFigures> {
	const app = await bench.launch(pi.argv([]), pi.ready, 30_000, pi.env);
	let figures: Omit<PiFigures, "openLongMs" | "keysLong">;
	try {
		await sleep(2000);
		const keysEmpty = await bench.typeKeys(app.session);
		const stream = await bench.stream(app, 1000 + run);
		figures = { firstFrameMs: app.readyMs, keysEmpty, stream };
	} finally {
		await bench.quit(app);
	}
	return { ...figures, ...(await longSession(bench, pi, longFile, run)) };
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

/** One bench's scratch space, wire server and tmux server around `body`; all of it is gone afterwards. */
async function withBench<T>(body: (bench: TuiBench) => Promise<T>): Promise<T> {
	const dir = mkdtempSync(join(tmpdir(), "gar-bench-tui-"));
	const server = await startServer();
	const bench = new TuiBench(dir, server.url);
	const stopWatching = bench.tmux.downOnInterrupt(dir);
	try {
		await bench.start();
		return await body(bench);
	} finally {
		stopWatching();
		await bench.tmux.stop();
		await server.close();
		rmSync(dir, { recursive: true, force: true });
	}
}

/** Runs the TUI bench; returns the lines to print (one line saying why when tmux is missing). */
export async function benchTui(): Promise<string[]> {
	if (!hasTmux()) return ["TUI figures need tmux (apt-get install tmux): skipped"];
	let piCommand: string[] | null;
	try {
		piCommand = findPi();
	} catch (error) {
		return [`TUI bench: ${error instanceof Error ? error.message : String(error)}`];
	}
	try {
		return await withBench(async (bench) => {
			const longFile = writeSyntheticSession(join(bench.dir, "sessions"), LONG_ENTRIES, {
				cwd: join(bench.dir, "work"),
			});
			const sessionMb = statSync(longFile).size / 2 ** 20;
			const nodeMs = nodeSpawnMs(launchEnv(bench.dir));
			const gar = bench.garProfile("full-screen app");
			const pi = piCommand ? bench.piProfile(piCommand) : null;
			const piLong = pi ? writePiSession(join(bench.dir, "pi-long.jsonl"), LONG_ENTRIES, join(bench.dir, "work")) : "";
			// One uncounted launch of each, so the counted ones do not pay for a cold file cache.
			await bench.quit(await bench.launch(bench.baselineArgv(), BASELINE_READY));
			await bench.quit(await bench.launch(gar.argv([]), READY));
			if (pi) await bench.quit(await bench.launch(pi.argv([]), pi.ready, 30_000, pi.env));
			const runs: RunFigures[] = [];
			const piRuns: PiFigures[] = [];
			for (let i = 0; i < runsWanted(); i++) {
				runs.push(await oneRun(bench, gar, longFile, i));
				if (pi) piRuns.push(await piRun(bench, pi, piLong, i));
			}
			const setup = { nodeMs, sessionMb, deltas: DELTAS, entries: LONG_ENTRIES, cols: COLS, rows: ROWS };
			const lines = report(runs, setup);
			return [...lines, "", ...(pi ? sideBySide(runs, piRuns, setup) : [PI_NOT_FOUND])];
		});
	} catch (error) {
		return [`TUI bench failed: ${error instanceof Error ? error.message : String(error)}`];
	}
}

/** What the bench says instead of the side-by-side figures when there is no pi to launch. */
const PI_NOT_FOUND =
	"gar next to pi: skipped, pi was not found (no `pi` on PATH and BENCH_PI unset; BENCH_PI=/path/to/pi or its dist/cli.js)";

/** The apps an A/B mode compares: this build, BENCH_GAR_B's, and pi when asked for (`--pi`) and installed. */
function abProfiles(bench: TuiBench, args: string[]): Profile[] {
	const extra = args.filter((arg) => arg !== "--long" && arg !== "--pi");
	const a = bench.garProfile("app");
	const profiles: Profile[] = [{ ...a, argv: (more) => a.argv([...extra, ...more]) }];
	const other = process.env.BENCH_GAR_B;
	if (other) profiles.push(bench.garProfile("app B", other));
	if (process.argv.includes("--pi")) {
		const command = findPi();
		if (command) profiles.push(bench.piProfile(command));
		else console.log(PI_NOT_FOUND);
	}
	return profiles;
}

/**
 * `--first-frames N [gar args…]`: only the start-up, N rounds of launches of the baseline and the app interleaved,
 * each figure printed (for comparing two builds or flags quickly, e.g. `--first-frames 15 --theme dark`). Each round
 * launches the app twice: with no first frame kept (its own frame), then painted from the one that launch kept
 * (src/first-paint.ts), and a key is typed the moment that one is shown.
 */
async function firstFrames(n: number, extra: string[]): Promise<string[]> {
	return withBench(async (bench) => {
		const profiles = abProfiles(bench, extra);
		const base: number[] = [];
		const own: number[][] = profiles.map(() => []);
		const painted: number[][] = profiles.map(() => []);
		const keyAt: number[][] = profiles.map(() => []);
		const keyAtOwn: number[][] = profiles.map(() => []);
		for (let i = 0; i <= n; i++) {
			const b = await bench.launch(bench.baselineArgv(), BASELINE_READY);
			await bench.quit(b);
			for (const [k, profile] of profiles.entries()) {
				bench.dropFrames();
				const first = await bench.launch(profile.argv([]), profile.ready, 30_000, profile.env);
				const ownKey = await bench.keyNow(first.session);
				await bench.quit(first);
				const again = await bench.launch(profile.argv([]), profile.ready, 30_000, profile.env);
				const key = await bench.keyNow(again.session);
				await bench.quit(again);
				if (i === 0) continue; // round 0 is the uncounted warm-up
				own[k]?.push(first.readyMs);
				painted[k]?.push(again.readyMs);
				keyAt[k]?.push(key);
				keyAtOwn[k]?.push(ownKey);
			}
			if (i > 0) base.push(b.readyMs);
		}
		const ms = (values: number[]) => values.map((v) => v.toFixed(0)).join(" ");
		const line = (label: string, values: number[]) =>
			`${label.padEnd(18)} ${ms(values)}  median ${median(values).toFixed(0)} ms  ${(median(values) / median(base)).toFixed(2)}×`;
		return [
			`${"baseline".padEnd(18)} ${ms(base)}  median ${median(base).toFixed(0)} ms`,
			...profiles.flatMap((profile, k) => [
				line(`${profile.name}, painted`, painted[k] ?? []),
				line(`${profile.name}, own frame`, own[k] ?? []),
				`${"".padEnd(18)} a key typed the moment a frame is shown, on screen after: median ${median(keyAt[k] ?? []).toFixed(0)} ms painted, ${median(keyAtOwn[k] ?? []).toFixed(0)} ms own`,
			]),
		];
	});
}

/**
 * `--keys N [--long] [--pi] [gar args…]`: only the keypress latency, N rounds of a launch per app (this build,
 * BENCH_GAR_B's, pi with --pi), each typing KEYS keys after a 2 s settle; with --long, on the 10,000-entry session
 * too, and the time to open it against a `node` start launched in the same round. The order of the apps turns each
 * round, so none always runs first after a quiet moment.
 */
async function keysAB(n: number, args: string[]): Promise<string[]> {
	const long = args.includes("--long");
	return withBench(async (bench) => {
		const profiles = abProfiles(bench, args);
		const garLong = long
			? writeSyntheticSession(join(bench.dir, "sessions"), LONG_ENTRIES, { cwd: join(bench.dir, "work") })
			: "";
		const piLong = long ? writePiSession(join(bench.dir, "pi-long.jsonl"), LONG_ENTRIES, join(bench.dir, "work")) : "";
		const empty: number[][] = profiles.map(() => []);
		const withLong: number[][] = profiles.map(() => []);
		const opens: number[][] = profiles.map(() => []);
		const atOpen: number[][] = profiles.map(() => []);
		const base: number[] = [];
		for (let round = 0; round < n; round++) {
			const b = await bench.launch(bench.baselineArgv(), BASELINE_READY);
			await bench.quit(b);
			base.push(b.readyMs);
			for (let j = 0; j < profiles.length; j++) {
				const k = (round + j) % profiles.length;
				const profile = profiles[k];
				if (!profile) continue;
				const app = await bench.launch(profile.argv([]), profile.ready, 30_000, profile.env);
				try {
					await sleep(2000);
					empty[k]?.push(...(await bench.typeKeys(app.session)));
				} finally {
					await bench.quit(app);
				}
				if (long) {
					const file = profile.name === "pi" ? piLong : garLong;
					const figures = await longSession(bench, profile, file, round);
					withLong[k]?.push(...figures.keysLong);
					opens[k]?.push(figures.openLongMs);
					atOpen[k]?.push(figures.keyAtOpenMs);
				}
			}
		}
		const note = (keys: number[]) =>
			`median ${median(keys).toFixed(2)} ms, p90 ${percentile(keys, 90).toFixed(2)} ms (${keys.length} keys)`;
		const entries = LONG_ENTRIES.toLocaleString("en");
		const lines = [`baseline (node start, ${base.length} launches): median ${median(base).toFixed(0)} ms`];
		for (const [k, profile] of profiles.entries()) {
			lines.push(`${profile.name.padEnd(8)} empty: ${note(empty[k] ?? [])}`);
			if (!long) continue;
			const open = median(opens[k] ?? []);
			lines.push(`${"".padEnd(8)} ${entries} entries: ${note(withLong[k] ?? [])}`);
			lines.push(
				`${"".padEnd(8)} open ${entries} entries: median ${open.toFixed(0)} ms, ${(open / median(base)).toFixed(2)}× the baseline`,
			);
			lines.push(`${"".padEnd(8)} a key typed the moment it is shown: median ${median(atOpen[k] ?? []).toFixed(0)} ms`);
		}
		const ratio = (a: number[], b: number[]) =>
			`median ${(median(a) / median(b)).toFixed(2)}×, p90 ${(percentile(a, 90) / percentile(b, 90)).toFixed(2)}×`;
		for (const [k, profile] of profiles.entries()) {
			if (k === 0) continue;
			lines.push(`app / ${profile.name}, empty: ${ratio(empty[0] ?? [], empty[k] ?? [])}`);
			if (long) lines.push(`app / ${profile.name}, ${entries} entries: ${ratio(withLong[0] ?? [], withLong[k] ?? [])}`);
		}
		return lines;
	});
}

/**
 * `--home-end N [entries]`: Home and End (on the empty input) in a session of `entries` entries (100,000 unless
 * given), N times each per app (this build, BENCH_GAR_B's): ms from the key until the first prompt is on screen, and
 * until the screen is the bottom one again.
 */
async function homeEnd(n: number, entries: number): Promise<string[]> {
	return withBench(async (bench) => {
		const profiles = abProfiles(bench, []).filter((profile) => profile.name !== "pi");
		const file = writeSyntheticSession(join(bench.dir, "sessions"), entries, { cwd: join(bench.dir, "work") });
		const sizeMb = statSync(file).size / 2 ** 20;
		const lines = [`${entries.toLocaleString("en")}-entry session (${sizeMb.toFixed(0)} MB), ${n} presses each`];
		for (const profile of profiles) {
			const { argv, ready } = profile.resume(file);
			const launch = await bench.launch(argv, ready, 300_000, profile.env);
			const home: number[] = [];
			const end: number[] = [];
			try {
				await sleep(2000);
				const target = tmuxQuote(launch.session);
				const bottom = await bench.tmux.capture(launch.session);
				const press = async (key: string, test: (screen: string) => boolean, what: string) => {
					const sent = performance.now();
					await bench.tmux.command(`send-keys -t ${target} ${key}`);
					return (await bench.waitFor(launch.session, test, KEY_POLL_MS, 60_000, what)) - sent;
				};
				for (let i = 0; i < n; i++) {
					home.push(await press("Home", (screen) => screen.includes("Task 0:"), "the first prompt"));
					await sleep(300);
					end.push(await press("End", (screen) => screen === bottom, "the bottom screen"));
					await sleep(300);
				}
			} finally {
				await bench.quit(launch);
			}
			const ms = (values: number[]) => values.map((v) => v.toFixed(1)).join(" ");
			lines.push(
				`${profile.name.padEnd(8)} open ${launch.readyMs.toFixed(0)} ms; Home ${ms(home)} (median ${median(home).toFixed(1)} ms); End ${ms(end)} (median ${median(end).toFixed(1)} ms)`,
			);
		}
		return lines;
	});
}

/** `--stream N`: only the 20,000-delta stream, N rounds of a launch per app (A/B as `--keys`): CPU, wall and bytes. */
async function streamAB(n: number): Promise<string[]> {
	return withBench(async (bench) => {
		const profiles = abProfiles(bench, []).filter((profile) => profile.name !== "pi");
		const figures: StreamFigures[][] = profiles.map(() => []);
		for (let round = 0; round < n; round++) {
			for (let j = 0; j < profiles.length; j++) {
				const k = (round + j) % profiles.length;
				const profile = profiles[k];
				if (!profile) continue;
				const app = await bench.launch(profile.argv([]), profile.ready, 30_000, profile.env);
				try {
					await sleep(2000);
					figures[k]?.push(await bench.stream(app, round * profiles.length + j));
				} finally {
					await bench.quit(app);
				}
			}
		}
		return profiles.map((profile, k) => {
			const runs = figures[k] ?? [];
			const cpu = runs.map((r) => r.cpuS.toFixed(2)).join(" ");
			const m = (pick: (r: StreamFigures) => number) => median(runs.map(pick));
			return `${profile.name.padEnd(8)} CPU ${cpu} (median ${m((r) => r.cpuS).toFixed(2)} s), wall ${m((r) => r.wallS).toFixed(2)} s, ${(m((r) => r.bytes) / 1e6).toFixed(3)} MB, ${m((r) => r.syncFrames)} frames`;
		});
	});
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
	const frames = process.argv.indexOf("--first-frames");
	const keys = process.argv.indexOf("--keys");
	const homeEndAt = process.argv.indexOf("--home-end");
	const count = (at: number, fallback: number) => Number(process.argv[at + 1] ?? fallback);
	const lines =
		frames >= 0
			? await firstFrames(count(frames, 9), process.argv.slice(frames + 2))
			: keys >= 0
				? await keysAB(count(keys, 5), process.argv.slice(keys + 2))
				: homeEndAt >= 0
					? await homeEnd(count(homeEndAt, 5), count(homeEndAt + 1, 100_000))
					: process.argv.includes("--stream")
						? await streamAB(count(process.argv.indexOf("--stream"), 5))
						: await benchTui();
	for (const line of lines) console.log(line);
}
