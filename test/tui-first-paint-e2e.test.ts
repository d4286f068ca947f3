// The first frame painted by the start script (src/first-paint.ts) in a real terminal: kept by a launch, painted by
// the next one like it before the bundle loads, then updated by the app without drawing the rows again; never painted
// for another terminal size; given back before a message on stderr.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { readCache, writeCache } from "../src/boot-cache.js";
import { frameFile, frameKey } from "../src/first-paint.js";
import { atBundleRead, tempHome } from "./support/cli.js";
import { garInTerminal, HAS_TMUX, IN_TMUX, TmuxSession } from "./support/tmux.js";

const ROOT = join(import.meta.dirname, "..");
/** The start script's own sequence (alternate screen, home, cursor hidden); the app's Screen never writes it so. */
const PAINT = "\x1b[?1049h\x1b[H\x1b[?25l";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the build names dist/gar.cjs by, and the start script its caches: 16 hex digits of its sha256. */
const bundleHash = () =>
	createHash("sha256")
		.update(readFileSync(join(ROOT, "dist", "gar.cjs")))
		.digest("hex")
		.slice(0, 16);

let tmux: TmuxSession | undefined;
afterEach(() => {
	tmux?.kill();
	tmux = undefined;
});

/** A home with a cache folder of its own, and how to start gar in a terminal there. */
function setup() {
	const { root, project, env } = tempHome();
	const cache = join(root, "cache");
	const home = { ...env, XDG_CACHE_HOME: cache };
	const frames = () => {
		const dir = join(cache, "gar");
		return existsSync(dir) ? readdirSync(dir).filter((name) => name.includes("-frame-")) : [];
	};
	const start = (args: string, columns = 100, rows = 30, extra: NodeJS.ProcessEnv = {}) => {
		// GAR_TEST_TMUX: the terminal's tmux. (TmuxSession records every byte from the first.)
		const gar = garInTerminal({ ...home, ...extra }).replace("env -i ", 'env -i GAR_TEST_TMUX="$TMUX" ');
		const command = `cd '${project}' && ${gar} ${args}; sleep 5`;
		const session = TmuxSession.start(command, { columns, rows });
		tmux = session;
		return { session, bytes: () => session.bytes() };
	};
	return { root, project, cache, home, frames, start };
}

const ARGS = "--no-session --base-url http://127.0.0.1:9/v1 --model m";

describe.skipIf(!HAS_TMUX)("the first frame painted at start", IN_TMUX, () => {
	it("is kept by a launch and painted by the next one like it; the app then draws none of its rows again", async () => {
		const { cache, frames, start } = setup();
		let launch = start(ARGS);
		await launch.session.waitFor(/Enter send/);
		for (let waited = 0; frames().length === 0 && waited < 5000; waited += 20) await sleep(20);
		expect(frames()).toHaveLength(1);
		const file = join(cache, "gar", frames()[0] as string);
		const kept = readFileSync(file);
		// Nothing was painted: the start script found no frame.
		expect(launch.bytes()).not.toContain(PAINT);
		tmux?.kill();

		launch = start(ARGS);
		await launch.session.waitFor(/Enter send/);
		await sleep(1000);
		// Read as the start script reads it: the header's length and checksum are the cache file's own business.
		const text = readCache(file, { hash: bundleHash(), checksum: crc32 })?.data.toString("utf8") ?? "";
		const frame = text.slice(text.indexOf("\n") + 1);
		expect(frame).toContain("Type a task and press Enter.");
		// As the terminal got them: the terminal driver sends each line feed with a carriage return.
		const painted = PAINT + frame.replaceAll("\n", "\r\n");
		const bytes = Buffer.from(launch.bytes(), "latin1").toString("utf8");
		expect(bytes.slice(0, painted.length)).toBe(painted);
		// The app's own first frame was the one painted: its rows were not written again, nor was the frame kept again.
		expect(bytes.slice(painted.length)).not.toContain("Type a task and press Enter.");
		expect(readFileSync(file)).toEqual(kept);
	});

	it("is not painted in a terminal of another size, which keeps a frame of its own", async () => {
		const { frames, start } = setup();
		let launch = start(ARGS);
		await launch.session.waitFor(/Enter send/);
		for (let waited = 0; frames().length === 0 && waited < 5000; waited += 20) await sleep(20);
		tmux?.kill();
		launch = start(ARGS, 90, 30);
		await launch.session.waitFor(/Enter send/);
		for (let waited = 0; frames().length === 1 && waited < 5000; waited += 20) await sleep(20);
		expect(launch.bytes()).not.toContain(PAINT);
		expect(frames()).toHaveLength(2);
	});

	it("given back for a warning of Node's before the app took it, the app enters the screen and draws it whole", async () => {
		const { root, frames, start } = setup();
		let launch = start(ARGS);
		await launch.session.waitFor(/Enter send/);
		for (let waited = 0; frames().length === 0 && waited < 5000; waited += 20) await sleep(20);
		tmux?.kill();
		// Node warns on stderr as the bundle loads (a deprecated module, say): here, as the start script reads it.
		const preload = atBundleRead(join(root, "warn.cjs"), 'process.emitWarning("a warning as gar loads");');
		launch = start(ARGS, 100, 30, { NODE_OPTIONS: `--require ${preload}` });
		const screen = await launch.session.waitFor(/Enter send/);
		await sleep(500);
		expect(screen).toContain("Type a task and press Enter.");
		const bytes = Buffer.from(launch.bytes(), "latin1").toString("utf8");
		const gaveBack = bytes.indexOf(`\x1b[?25h\x1b[?1049l(node:`);
		expect(gaveBack).toBeGreaterThan(0);
		// After it, the app entered the alternate screen itself and wrote its whole frame there.
		const after = bytes.slice(gaveBack);
		expect(after).toContain("\x1b[?1049h\x1b[H\x1b[?2004h");
		expect(after).toContain("Type a task and press Enter.");
		expect(launch.session.screen()).toMatch(/^ gar /);
	});

	it("a terminal resized between the paint and the app: the frame is given back, the app draws afresh", async () => {
		const { root, cache, frames, start } = setup();
		let launch = start(ARGS);
		await launch.session.waitFor(/Enter send/);
		for (let waited = 0; frames().length === 0 && waited < 5000; waited += 20) await sleep(20);
		tmux?.kill();
		const kept = readFileSync(join(cache, "gar", frames()[0] as string));
		// The terminal narrows as the start script reads the bundle, after the paint.
		const preload = atBundleRead(
			join(root, "resize.cjs"),
			`const { execFileSync } = require("node:child_process");
const socket = process.env.GAR_TEST_TMUX.split(",")[0];
const list = ["-S", socket, "list-sessions", "-F", "#{session_name}"];
const [name] = execFileSync("tmux", list, { encoding: "utf8" }).split("\\n");
execFileSync("tmux", ["-S", socket, "resize-window", "-t", name, "-x", "80", "-y", "30"], { stdio: "ignore" });
// As Node does at the SIGWINCH that follows, once the terminal has its new size.
const size = () => execFileSync("stty", ["size"], { stdio: ["inherit", "pipe", "ignore"], encoding: "utf8" }).trim();
for (let i = 0; i < 200 && size() !== "30 80"; i++) execFileSync("sleep", ["0.01"]);
process.stdout._refreshSize();`,
		);
		launch = start(ARGS, 100, 30, { NODE_OPTIONS: `--require ${preload}` });
		await launch.session.waitFor(/Enter send/);
		await sleep(500);
		const bytes = Buffer.from(launch.bytes(), "latin1").toString("utf8");
		expect(bytes.startsWith(PAINT)).toBe(true);
		// Given back, then the app entered the screen and drew its frame whole, at the new width.
		const after = bytes.slice(bytes.indexOf("\x1b[?25h\x1b[?1049l"));
		expect(after).toContain("\x1b[?1049h\x1b[H\x1b[?2004h");
		expect(after).toContain("Type a task and press Enter.");
		const screen = launch.session.screen().split("\n");
		expect(screen[0]).toMatch(/^ gar /);
		expect(screen.find((line) => line.startsWith("›"))).toMatch(/Enter send$/);
		// The frame kept for 100×30 is not replaced by one drawn at 80 columns.
		expect(frames()).toHaveLength(1);
		expect(readFileSync(join(cache, "gar", frames()[0] as string))).toEqual(kept);
	});

	it("gives the screen back before a message on stderr, which is read on the normal screen", async () => {
		const { project, cache, home, start } = setup();
		// A frame kept for a command line that now fails (as if an option had gone since).
		const args = ["--no-such-option"];
		const key = frameKey(100, 30, args, project, { ...home, TERM: "xterm-256color" });
		const hash = bundleHash();
		const file = frameFile(join(cache, "gar"), hash, key);
		writeCache(file, { hash, checksum: crc32 }, Buffer.from(`${key}\nA PAINTED FRAME`, "utf8"));
		const launch = start(args.join(" "));
		const screen = await launch.session.waitFor(/unknown option/);
		expect(screen).not.toContain("A PAINTED FRAME");
		const bytes = await launch.session.waitForBytes((written) => written.includes("unknown option"));
		expect(bytes).toContain(`${PAINT}A PAINTED FRAME\x1b[?25h\x1b[?1049lgar: unknown option '--no-such-option'`);
	});
});
