// The session tree on a 10,000-entry session with branches, the way a person meets it: the built app in tmux
// (120×40), `/tree` typed and Enter sent, until the tree is on screen; then ↓, PgDn, ←/→ and v, each until the screen
// changes, next to typing a letter in the chat of the same session (the chat's keypress speed). In process: the
// tree's model built from the loaded session. Targets (issue 18): open ≤ 100 ms, keys at the chat's speed.
// Run alone: `node --import tsx scripts/bench-tree.ts` (after `node scripts/build.mjs`).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { loadSession } from "../src/session/load.js";
import { SessionWriter } from "../src/session/writer.js";
import { TreeModel } from "../src/ui/state/tree-model.js";
import { median, shellQuote } from "./bench-stats.js";
import { hasTmux, TmuxControl, tmuxQuote } from "./bench-tui-tmux.js";
import { writeSyntheticSession } from "./synthetic-session.js";

const ENTRIES = 10_000;
const BRANCHES = 40;
const COLS = 120;
const ROWS = 40;
const KEYS = 20;
const GAR = process.env.BENCH_GAR ?? new URL("../bin/gar.cjs", import.meta.url).pathname;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The synthetic session (recorded in `cwd`), with BRANCHES branches from replies spread over it. */
function sessionWithBranches(dir: string, cwd: string): string {
	const file = writeSyntheticSession(dir, ENTRIES - BRANCHES * 3, { cwd });
	const writer = SessionWriter.open(file);
	try {
		const replies = writer.session.entries.filter((e) => e.type === "assistant" && e.stopReason === "stop");
		for (let i = 0; i < BRANCHES; i++) {
			const at = replies[Math.floor((i * replies.length) / BRANCHES)];
			if (!at) continue;
			writer.moveTo(at.id);
			writer.appendUser(`another way, try ${i}`);
			writer.appendAssistant({
				role: "assistant",
				content: [{ type: "text", text: `Tried way ${i}.` }],
				provider: "anthropic",
				model: "claude-sonnet-4-5",
				usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 },
				stopReason: "stop",
			});
		}
		// Back on the main line, as a person who looked at a branch and came back.
		const last = replies.at(-1);
		if (last) writer.moveTo(last.id);
	} finally {
		writer.close();
	}
	return file;
}

/** The model of the tree and its first window, built from the loaded session: the first build (cold) and warm. */
function inProcess(file: string): { cold: number; warm: number; entries: number; rows: number; branches: number } {
	const session = loadSession(file);
	const times: number[] = [];
	let model: TreeModel | undefined;
	for (let i = 0; i < 6; i++) {
		const started = performance.now();
		model = new TreeModel(session);
		model.window(ROWS - 3);
		times.push(performance.now() - started);
	}
	const built = model as TreeModel;
	return {
		cold: times[0] ?? Number.NaN,
		warm: median(times.slice(1)),
		entries: session.entries.length,
		rows: built.count,
		branches: built.size.branchPoints,
	};
}

/** One app in tmux over the session: what each step took, in ms. */
class TreeRun {
	constructor(
		private readonly tmux: TmuxControl,
		private readonly session: string,
	) {}

	private async until(test: (screen: string) => boolean, what: string, timeoutMs = 20_000): Promise<number> {
		const deadline = performance.now() + timeoutMs;
		for (;;) {
			const screen = await this.tmux.capture(this.session);
			const now = performance.now();
			if (test(screen)) return now;
			if (now > deadline) throw new Error(`no ${what} after ${timeoutMs / 1000} s; the screen:\n${screen}`);
			await sleep(2);
		}
	}

	private send(keys: string, literal = false): Promise<string[]> {
		return this.tmux.command(`send-keys -t ${tmuxQuote(this.session)} ${literal ? "-l " : ""}${keys}`);
	}

	ready(id: string): Promise<number> {
		return this.until((s) => s.includes(id) && s.includes("Enter send"), "the session on screen");
	}

	/** Letters typed into the chat's input, each until it is on screen. */
	async chatKeys(): Promise<number[]> {
		let typed = "qz";
		await this.send(typed, true);
		await this.until((s) => s.includes(typed), "the primer");
		const out: number[] = [];
		for (let i = 0; i < KEYS; i++) {
			await sleep(60 + Math.random() * 90);
			const letter = String.fromCharCode(97 + Math.floor(Math.random() * 26));
			typed += letter;
			const sent = performance.now();
			await this.send(letter, true);
			out.push((await this.until((s) => s.includes(typed), "a typed letter")) - sent);
		}
		await this.send("C-u");
		await this.until((s) => !s.includes("qz"), "the input cleared");
		return out;
	}

	/** `/tree` and Enter: ms from Enter to the tree on screen. */
	async open(): Promise<number> {
		await this.send("/tree", true);
		await this.until((s) => s.includes("/tree"), "/tree typed");
		await sleep(100);
		const sent = performance.now();
		await this.send("Enter");
		return (await this.until((s) => s.includes("session tree ·"), "the tree")) - sent;
	}

	/** Esc (back to the chat), then Esc Esc (the rewind list) and t: ms from the t to the tree on screen again. */
	async reopen(): Promise<number> {
		await this.send("Escape");
		await this.until((s) => !s.includes("session tree ·"), "the chat");
		await sleep(300);
		await this.send("Escape");
		await sleep(100);
		await this.send("Escape");
		await this.until((s) => s.includes("rewind · your prompts"), "the rewind list");
		await sleep(100);
		const sent = performance.now();
		await this.send("t", true);
		return (await this.until((s) => s.includes("session tree ·"), "the tree again")) - sent;
	}

	/** Each of `keys` in turn, KEYS times in all: ms until the screen changes. */
	async keys(keys: string[]): Promise<number[]> {
		const out: number[] = [];
		for (let i = 0; i < KEYS; i++) {
			await sleep(60 + Math.random() * 90);
			const before = await this.tmux.capture(this.session);
			const sent = performance.now();
			await this.send(keys[i % keys.length] as string);
			out.push((await this.until((s) => s !== before, "a change")) - sent);
		}
		return out;
	}

	async quit(): Promise<void> {
		await this.send("Escape");
		await sleep(200);
		await this.send("C-d");
		await sleep(300);
		await this.tmux.command(`kill-session -t ${tmuxQuote(this.session)}`);
	}
}

/** Launches the app on `file` in `work`, with a clean environment of its own under `dir`. */
async function launch(tmux: TmuxControl, dir: string, work: string, file: string, n: number): Promise<TreeRun> {
	const home = join(dir, "home");
	const env = {
		PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
		HOME: home,
		XDG_CONFIG_HOME: join(home, ".config"),
		XDG_DATA_HOME: join(home, ".local", "share"),
		XDG_CACHE_HOME: join(home, ".cache"),
		TERM: "xterm-256color",
		LANG: "C.UTF-8",
		OPENAI_API_KEY: "dummy",
	};
	const vars = Object.entries(env).map(([k, v]) => shellQuote(`${k}=${v}`));
	const argv = [process.execPath, GAR, "--provider", "openai", "--model", "bench-model", "--session", file];
	const script = join(dir, `launch-${n}.sh`);
	writeFileSync(script, `cd ${shellQuote(work)} && exec env -i ${vars.join(" ")} ${argv.map(shellQuote).join(" ")}\n`);
	const session = `t${n}`;
	await tmux.command(`new-session -d -s ${session} -x ${COLS} -y ${ROWS} ${tmuxQuote(`sh ${script}`)}`);
	return new TreeRun(tmux, session);
}

const ms = (values: number[]) => `${median(values).toFixed(1)} ms`;

export async function benchTree(runs = 3): Promise<string[]> {
	const dir = mkdtempSync(join(tmpdir(), "gar-bench-tree-"));
	const work = join(dir, "work");
	mkdirSync(work, { recursive: true });
	const tmux = new TmuxControl(`gar-bench-tree-${process.pid}`);
	const stopWatching = tmux.downOnInterrupt(dir);
	try {
		const file = sessionWithBranches(join(dir, "sessions"), work);
		const model = inProcess(file);
		const lines = [
			`session tree, ${model.entries.toLocaleString("en")} entries (${model.branches} branch points, ${model.rows.toLocaleString("en")} rows):`,
			`  its model built, first window     ${model.cold.toFixed(1)} ms the first time, ${model.warm.toFixed(1)} ms after`,
		];
		if (!hasTmux()) return [...lines, "  the app's figures need tmux (apt-get install tmux): skipped"];
		await tmux.start(COLS, ROWS);
		const id = loadSession(file).header.id;
		const figures = { open: [] as number[], again: [] as number[], chat: [] as number[], down: [] as number[] };
		const page: number[] = [];
		const more = { fold: [] as number[], filter: [] as number[] };
		for (let n = 0; n <= runs; n++) {
			const run = await launch(tmux, dir, work, file, n);
			await run.ready(id);
			await sleep(1000);
			const chat = await run.chatKeys();
			const open = await run.open();
			const down = await run.keys(["Down"]);
			const pages = await run.keys(["PageUp", "PageDown"]);
			const fold = await run.keys(["Left", "Right"]);
			const filter = await run.keys(["v"]);
			const again = [await run.reopen(), await run.reopen(), await run.reopen()];
			await run.quit();
			// The first launch only warms the file cache.
			if (n === 0) continue;
			figures.open.push(open);
			figures.again.push(...again);
			figures.chat.push(...chat);
			figures.down.push(...down);
			page.push(...pages);
			more.fold.push(...fold);
			more.filter.push(...filter);
		}
		return [
			...lines,
			`  /tree → the tree on screen        ${ms(figures.open)} the first time in a process (median of ${runs}), ${ms(figures.again)} after (Esc Esc t; target ≤ 100 ms)`,
			`  key → screen in the tree          ↓ ${ms(figures.down)} · PgUp/PgDn ${ms(page)} · ←/→ ${ms(more.fold)} · v ${ms(more.filter)}`,
			`  key → screen in the chat          ${ms(figures.chat)} (the same session, for comparison)`,
		];
	} catch (error) {
		return [`tree bench failed: ${error instanceof Error ? error.message : String(error)}`];
	} finally {
		stopWatching();
		await tmux.stop();
		rmSync(dir, { recursive: true, force: true });
	}
}

if (import.meta.url === `file://${process.argv[1]}`) for (const line of await benchTree()) console.log(line);
