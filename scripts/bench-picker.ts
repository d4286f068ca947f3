// The resume picker and `gar sessions` at scale: 1,000 sessions of about 1 MiB each (1 GiB) in one project, made
// once per run from one synthetic session (new ids, a word of its own in each first prompt), plus a 10,000-entry
// session as the newest. Measures `gar sessions` before the index exists and with it, the picker's first frame with
// its rows (`gar -r` in tmux, 120×40), and opening the 10,000-entry session from it. Run alone:
// `node --import tsx scripts/bench-picker.ts`.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { INDEX_FILE } from "../src/session/catalog.js";
import { sessionDirFor, sessionFileName } from "../src/session/paths.js";
import { median, shellQuote } from "./bench-stats.js";
import { killMembers, treeMembers } from "./bench-tui-proc.js";
import { hasTmux, TmuxControl, tmuxQuote } from "./bench-tui-tmux.js";
import { writeSyntheticSession } from "./synthetic-session.js";

const SESSIONS = 1000;
/** Entries of the template session: about 1 MiB with the synthetic session's 2,500-byte tool results. */
const TEMPLATE_ENTRIES = 400;
const LONG_ENTRIES = 10_000;
const RUNS = 5;
const COLS = 120;
const ROWS = 40;
const GAR = process.env.BENCH_GAR ?? new URL("../bin/gar.cjs", import.meta.url).pathname;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The whole environment of every launch: the bench's own home, nothing of the caller's. */
function launchEnv(dir: string): Record<string, string> {
	const home = join(dir, "home");
	return {
		PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
		HOME: home,
		XDG_CONFIG_HOME: join(home, ".config"),
		XDG_DATA_HOME: join(home, ".local", "share"),
		XDG_CACHE_HOME: join(home, ".cache"),
		TERM: "xterm-256color",
		LANG: "C.UTF-8",
		OPENAI_API_KEY: "dummy",
	};
}

/** Writes the 1,000 sessions (and the long one, newest) into the project `work`; returns the total bytes. */
export function makeSessions(dir: string, work: string): { bytes: number; longId: string } {
	const base = join(dir, "home", ".local", "share", "gar", "sessions");
	const scratch = join(dir, "scratch");
	const template = readFileSync(writeSyntheticSession(scratch, TEMPLATE_ENTRIES, { cwd: work }), "utf8");
	const header = JSON.parse(template.slice(0, template.indexOf("\n"))) as { id: string };
	const folder = sessionDirFor(base, work);
	mkdirSync(folder, { recursive: true });
	const start = Date.now() - (SESSIONS + 10) * 60_000;
	let bytes = 0;
	for (let i = 0; i < SESSIONS; i++) {
		const id = `b${String(i).padStart(11, "0")}`;
		const text = template.replace(header.id, id).replace("Task 0: ", `Task 0 (marker${i}q): `);
		const when = new Date(start + i * 60_000);
		const file = join(folder, sessionFileName(when, id));
		writeFileSync(file, text);
		utimesSync(file, when, when);
		bytes += Buffer.byteLength(text);
	}
	const long = writeSyntheticSession(base, LONG_ENTRIES, { cwd: work });
	rmSync(scratch, { recursive: true, force: true });
	const longId = JSON.parse(readFileSync(long, "utf8").slice(0, 4096).split("\n")[0] ?? "{}").id as string;
	return { bytes, longId };
}

/** One `gar sessions` in the project: wall time. */
function garSessions(env: Record<string, string>, work: string): number {
	const started = performance.now();
	const child = spawnSync(process.execPath, [GAR, "sessions"], { cwd: work, env, stdio: ["ignore", "pipe", "pipe"] });
	const ms = performance.now() - started;
	if (child.status !== 0) throw new Error(`gar sessions failed: ${child.stderr}`);
	if (!child.stdout.toString().includes("marker999q")) throw new Error("gar sessions did not list the sessions");
	return ms;
}

/** One launch of gar in tmux (`args` after the wire flags); `until` polls its screen, `end` stops it. */
async function launch(tmux: TmuxControl, dir: string, n: number, args: string[]) {
	const vars = Object.entries(launchEnv(dir)).map(([k, v]) => shellQuote(`${k}=${v}`));
	const file = join(dir, `launch-${n}.sh`);
	const argv = [process.execPath, GAR, "--provider", "openai", "--base-url", "http://127.0.0.1:9/v1", ...args];
	const work = shellQuote(join(dir, "work"));
	writeFileSync(file, `cd ${work} && exec env -i ${vars.join(" ")} ${argv.map(shellQuote).join(" ")}\n`);
	const session = `p${n}`;
	const started = performance.now();
	const [pid] = await tmux.command(
		`new-session -d -s ${session} -x ${COLS} -y ${ROWS} -P -F '#{pane_pid}' ${tmuxQuote(`sh ${file}`)}`,
	);
	const members = treeMembers(Number(pid));
	/** When `test` first held of the screen (polled every 2 ms). */
	const until = async (test: (screen: string) => boolean, what: string) => {
		const deadline = performance.now() + 60_000;
		for (;;) {
			const screen = await tmux.capture(session);
			if (test(screen)) return performance.now();
			if (performance.now() > deadline) throw new Error(`no ${what}; the screen:\n${screen}`);
			await sleep(2);
		}
	};
	const end = async () => {
		await tmux.command(`kill-session -t ${session}`).catch(() => []);
		killMembers([...members, ...treeMembers(Number(pid))]);
	};
	return { session, started, until, end };
}

/** `gar -r` in tmux: spawn → the rows on screen; then Enter on the newest (the long session) → its id on screen. */
async function pickerLaunch(tmux: TmuxControl, dir: string, n: number, longId: string) {
	const run = await launch(tmux, dir, n, ["-r"]);
	try {
		const rows = await run.until((s) => s.includes(`${SESSIONS + 1} sessions`) && s.includes("marker998q"), "rows");
		await sleep(300);
		const enter = performance.now();
		await tmux.command(`send-keys -t ${run.session} Enter`);
		// Opened: the chat screen's status bar names the session, which it does once the session has loaded.
		const opened = await run.until((s) => s.includes(longId) && !s.includes("Resume a session"), "the session");
		return { firstFrameMs: rows - run.started, openMs: opened - enter };
	} finally {
		await run.end();
	}
}

/**
 * A plain launch the same way (`--no-session`): spawn → the input on screen; after the first, its frame is painted
 * from the launch before's (src/first-paint.ts).
 */
async function chatLaunch(tmux: TmuxControl, dir: string, n: number): Promise<number> {
	const run = await launch(tmux, dir, n, ["--no-session"]);
	try {
		return (await run.until((s) => s.includes("Enter send"), "the input")) - run.started;
	} finally {
		await run.end();
	}
}

/** `--session ID` of the long session, launched the same way: spawn → its id on screen (what the issue compares to). */
async function sessionLaunch(tmux: TmuxControl, dir: string, n: number, longId: string): Promise<number> {
	const run = await launch(tmux, dir, n, ["--session", longId]);
	try {
		return (await run.until((s) => s.includes(longId) && s.includes("Enter send"), "the session")) - run.started;
	} finally {
		await run.end();
	}
}

/** Runs the picker bench; returns the lines to print. */
export async function benchPicker(): Promise<string[]> {
	const dir = mkdtempSync(join(tmpdir(), "gar-bench-picker-"));
	const work = join(dir, "work");
	mkdirSync(work, { recursive: true });
	const env = launchEnv(dir);
	const tmux = new TmuxControl(`gar-bench-picker-${process.pid}`);
	const stopWatching = tmux.downOnInterrupt(dir);
	try {
		const made = performance.now();
		const { bytes, longId } = makeSessions(dir, work);
		const makeMs = performance.now() - made;
		const folder = sessionDirFor(join(env.XDG_DATA_HOME as string, "gar", "sessions"), work);
		const cold = garSessions(env, work);
		const warm = median(Array.from({ length: RUNS }, () => garSessions(env, work)));
		const node = median(
			Array.from({ length: RUNS }, () => {
				const started = performance.now();
				spawnSync(process.execPath, ["-e", "0"], { env, stdio: "ignore" });
				return performance.now() - started;
			}),
		);
		const lines = [
			`sessions: ${SESSIONS.toLocaleString("en")} of ${(bytes / SESSIONS / 2 ** 20).toFixed(2)} MiB (${(bytes / 2 ** 30).toFixed(2)} GiB) + one of ${LONG_ENTRIES.toLocaleString("en")} entries, made in ${(makeMs / 1000).toFixed(1)} s`,
			`  gar sessions, no index yet (reads every file)  ${cold.toFixed(0)} ms`,
			`  gar sessions, with the index                   ${warm.toFixed(0)} ms   (target ≤ 300 ms; node -e 0: ${node.toFixed(0)} ms)`,
			`  index file                                     ${(readFileSync(join(folder, INDEX_FILE)).length / 2 ** 20).toFixed(1)} MiB`,
		];
		if (!hasTmux()) return [...lines, "  picker figures need tmux (apt-get install tmux): skipped"];
		await tmux.start(COLS, ROWS);
		const picks = [];
		const chats: number[] = [];
		const direct: number[] = [];
		// Warm-ups: the file cache, and the code cache of each kind of launch.
		await pickerLaunch(tmux, dir, 0, longId);
		await chatLaunch(tmux, dir, 100);
		await sessionLaunch(tmux, dir, 200, longId);
		for (let i = 1; i <= 3; i++) {
			picks.push(await pickerLaunch(tmux, dir, i, longId));
			chats.push(await chatLaunch(tmux, dir, 100 + i));
			direct.push(await sessionLaunch(tmux, dir, 200 + i, longId));
		}
		const rows = median(picks.map((p) => p.firstFrameMs));
		const opened = median(picks.map((p) => p.openMs));
		lines.push(
			`  gar -r: spawn → the picker's rows on screen      ${rows.toFixed(0)} ms   (target ≤ 300 ms; a plain launch's first frame here: ${median(chats).toFixed(0)} ms, painted from the launch before)`,
			`  Enter on the ${LONG_ENTRIES.toLocaleString("en")}-entry session → its last screen  ${opened.toFixed(0)} ms   (target ≤ 1 s; gar --session ID, spawn → the same screen: ${median(direct).toFixed(0)} ms)`,
		);
		return lines;
	} catch (error) {
		return [`picker bench failed: ${error instanceof Error ? error.message : String(error)}`];
	} finally {
		stopWatching();
		await tmux.stop().catch(() => {});
		rmSync(dir, { recursive: true, force: true });
	}
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
	for (const line of await benchPicker()) console.log(line);
}
