import { existsSync, fstatSync } from "node:fs";
import { resolve } from "node:path";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { checkCwd, whyMissing } from "./commands/path-check.js";
import { commandNames, registerCommands } from "./commands/register.js";
import type { ReplayApp } from "./commands/replay.js";
import { configFlags, positiveNumber, type RootOptions } from "./commands/root-options.js";
import { nearCommand, promptIntent, typoMessage } from "./commands/words.js";
import { isUsageError, UsageError } from "./errors.js";
import { installInterrupts } from "./signals.js";

// At once, before anything else loads: a signal while gar starts is then kept for the run (see signals.ts).
const interrupts = installInterrupts();

declare const GAR_VERSION: string;
const VERSION = typeof GAR_VERSION === "string" ? GAR_VERSION : "0.0.0-dev";

function positiveInt(value: string): number {
	const n = Number(value);
	if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("expected a whole number of at least 1");
	return n;
}

function list(value: string): string[] {
	return value
		.split(",")
		.map((s) => s.trim())
		.filter(Boolean);
}

/** Piped stdin above this needs --max-stdin (a prompt that large is more likely a mistake than a task). */
const MAX_STDIN = 1024 * 1024;

/** Whether stdin is a pipe or a redirected file. */
function pipedIn(): boolean {
	try {
		const stat = fstatSync(0);
		return stat.isFIFO() || stat.isFile();
	} catch {
		return false;
	}
}

/**
 * Reads piped stdin to the end, at most `max` bytes (more is a UsageError naming --max-stdin). Only a pipe or a
 * redirected file is read when a prompt was also given.
 */
async function readStdin(promptGiven: boolean, max: number): Promise<string> {
	// With a prompt, only a pipe or a file is read: not a terminal, /dev/null, or a socket a parent never closes (don't
	// wait on it). Asked of fd 0 itself, so such a launch never makes process.stdin (a stream, ~1 ms).
	if (promptGiven && !pipedIn()) return "";
	if (process.stdin.isTTY) return "";
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of process.stdin) {
		chunks.push(chunk as Buffer);
		size += (chunk as Buffer).length;
		if (size > max) {
			process.stdin.destroy();
			throw new UsageError(
				`stdin has more than ${max} bytes: pass --max-stdin BYTES to allow more, or --no-stdin (or < /dev/null) to leave it out`,
			);
		}
	}
	return Buffer.concat(chunks).toString("utf8");
}

/** How main wants the root command built: `promptOnly` leaves the subcommands out (-p, or words after `--`). */
type ProgramMode = { promptOnly: boolean; literal: boolean };

function buildProgram(run: (code: number) => void, mode: ProgramMode = { promptOnly: false, literal: false }): Command {
	const program: Command = rootOptions(new Command("gar"))
		.enablePositionalOptions()
		.exitOverride()
		// Commander's errors are printed by main, with gar's prefix (or as a typo of a command).
		.configureOutput({ writeErr: (s) => process.stderr.write(s), outputError: () => {} })
		.action(async (words: string[], options: RootOptions) =>
			run((await bareWord(program, words, options, mode)) ?? (await runRoot(words, options))),
		)
		// Only a run hands signals to a listener; any other command ends at the first one.
		.hook("preAction", (_root, action) => {
			if (action !== program) interrupts.release();
		});
	if (mode.promptOnly) return program;
	addDemo(program, run);
	registerCommands(program, run, { replay: (replay) => replayApp(program, replay) });
	return program;
}

/** gar replay in a terminal: the app plays the loaded session (ui/replay.ts), asking the background first. */
async function replayApp(program: Command, replay: Parameters<ReplayApp>[0]): Promise<number> {
	const theme = program.opts<RootOptions>().theme;
	const { earlyTerminal } = await import("./ui/terminal/background.js");
	const asked = earlyTerminal(theme, process.env);
	const { runReplayTui } = await import("./ui/replay.js");
	return runReplayTui({ ...replay, ...(theme ? { theme } : {}), ...(asked ? { background: asked } : {}) });
}

/** The root command's description, prompt argument and flags (README "Flags" describes each). */
function rootOptions(program: Command): Command {
	return program
		.description("A fast, transparent terminal coding agent.")
		.version(VERSION, "-v, --version")
		.argument("[prompt...]", "the task; piped stdin is appended to it")
		.option("-p, --print", "run headless: do the task, print the result, exit")
		.option("--plain", "in a terminal, use the plain line mode instead of the full-screen app")
		.addOption(
			new Option("--output <format>", "headless output format")
				.choices(["text", "json", "stream-json"])
				.default("text"),
		)
		.addOption(
			new Option("--input-format <format>", "headless input: stream-json reads commands as JSON lines on stdin")
				.choices(["text", "stream-json"])
				.default("text"),
		)
		.addOption(new Option("--provider <name>", "model provider").choices(["anthropic", "openai"]))
		.option("-m, --model <id>", "model id (e.g. claude-sonnet-4-5, gpt-5)")
		.option("--base-url <url>", "API base URL (any OpenAI-compatible server with --provider openai)")
		.option("--max-turns <n>", "model calls per run before stopping (default 50)", positiveInt)
		.option("--tools <list>", "comma-separated allow-list of tools: read,write,edit,bash", list)
		.option("--system-prompt <text|file>", "replace the built-in system prompt")
		.option("--append-system-prompt <text|file>", "append to the system prompt")
		.option("--cwd <dir>", "working directory for the agent and its tools")
		.option("--schema <file>", "JSON Schema the final answer must match (headless)")
		.option("--profile <name>", "use a [profiles.NAME] table from the config")
		.option("--approve", "ask before every write, edit and bash call")
		.addOption(new Option("--thinking <level>", "extended thinking").choices(["off", "low", "medium", "high"]))
		.option("--bash-timeout <seconds>", "default timeout of a bash command (default 120)", positiveNumber)
		.option("--idle-timeout <seconds>", "abandon a model request silent this long (default 300)", positiveNumber)
		.option("-c, --continue", "continue the most recent session of this directory")
		.option("--session <id|path>", "continue a session by id prefix or file path")
		.option("--at <entry>", "with -c or --session: continue from this entry (a new branch)")
		.option("--rewind-to <entry>", "with -p and -c or --session: rewind the conversation and the files first")
		.option("--files", "with --rewind-to: rewind the files only (the conversation goes on from its leaf)")
		.option("-r, --resume [search]", "pick a session to continue in the full-screen picker (filtered by SEARCH)")
		.option("--no-session", "save nothing (a throwaway run)")
		.option("--session-dir <dir>", "where sessions are saved")
		.option("--no-hooks", 'run without any hook (README "Hooks")')
		.option("--no-stdin", "never read piped stdin (like < /dev/null)")
		.option("--max-stdin <bytes>", "the most piped stdin gar reads (default 1048576, 1 MB)", positiveInt)
		.option("--theme <name>", "colour theme of the full-screen app: dark, light, mono or your own (see [tui] theme)")
		.addHelpText(
			"after",
			'\nAfter --, every word is the prompt, even one that starts with - or names a command: gar -p -- "-v is broken"',
		);
}

/** gar demo: the full-screen app with a scripted model (its code is in demo/ and ui/, not commands/). */
function addDemo(program: Command, run: (code: number) => void): void {
	program
		.command("demo")
		.description("watch gar work: a scripted session in a temporary copy of a tiny project (no key needed)")
		.option("--theme <name>", "colour theme: dark, light, mono or your own")
		// Taken only to be refused with a reason: every other subcommand has them.
		.addOption(new Option("--cwd <dir>").hideHelp())
		.addOption(new Option("--session-dir <dir>").hideHelp())
		.action(async (o: { theme?: string }, demo: Command) => {
			refuseUnused(program, demo);
			if (!process.stdout.isTTY || !process.stdin.isTTY) throw new UsageError("gar demo needs a terminal");
			const theme = o.theme ?? program.opts<RootOptions>().theme;
			const { runTui, background } = await loadTui(theme);
			run(await runTui({ cwd: process.cwd(), demo: true, ...(theme ? { theme } : {}), ...background }));
		});
}

/** gar demo uses only --theme: any other option given (before `demo` or after it) is refused, not ignored. */
function refuseUnused(program: Command, demo: Command): void {
	const given = (command: Command) =>
		command.options
			.filter((opt) => opt.attributeName() !== "theme" && command.getOptionValueSource(opt.attributeName()) === "cli")
			.map((opt) => opt.long ?? opt.flags);
	const unused = [...given(program), ...given(demo)];
	if (unused.length === 0) return;
	throw new UsageError(
		`gar demo does not use ${unused.join(", ")}: it runs a scripted model in a temporary project of its own (only --theme applies)`,
	);
}

/**
 * A first word that is not a task: one or two edits from a subcommand is a typo (exit 2), never a run with every
 * tool. Undefined: go on with the run. Skipped with -p and after `--`.
 */
async function bareWord(
	program: Command,
	words: string[],
	o: RootOptions,
	mode: ProgramMode,
): Promise<number | undefined> {
	const [first] = words;
	if (o.print || mode.literal || first === undefined) return undefined;
	const meant = nearCommand(first, commandNames(program));
	if (meant === undefined) return undefined;
	throw new UsageError(typoMessage(first, meant));
}

/**
 * Checks that need no model: the folder is one, a prompt or schema file named is there, --session names something.
 */
function checkRoot(o: RootOptions, cwd: string): void {
	checkCwd(cwd);
	for (const [flag, value] of [
		["--system-prompt", o.systemPrompt],
		["--append-system-prompt", o.appendSystemPrompt],
	] as const) {
		if (value === undefined || !looksLikeFile(value) || existsSync(resolve(cwd, value))) continue;
		throw new UsageError(
			`${flag} ${value}: ${whyMissing(resolve(cwd, value), "no such file")}; to pass text, not a file, include a space or a line break (text of one word with / or ending in .md or .txt is read as a file name)`,
		);
	}
	if (o.schema !== undefined && !existsSync(resolve(cwd, o.schema))) {
		throw new UsageError(`--schema ${o.schema}: ${whyMissing(resolve(cwd, o.schema), "no such file")}`);
	}
	if (o.session === "") throw new UsageError("--session needs a session id or file (gar sessions lists them)");
	if (o.files && !o.rewindTo)
		throw new UsageError("--files goes with --rewind-to ENTRY: gar -p --rewind-to ENTRY --files");
	if (o.rewindTo && (!o.print || o.inputFormat === "stream-json")) {
		throw new UsageError(
			"--rewind-to rewinds before a headless run: use it with -p (in the app, Esc Esc or /rewind; or gar rewind SESSION --to ENTRY)",
		);
	}
}

/** A --system-prompt value meant as a file: one word with a slash, or a name ending in .md or .txt. */
function looksLikeFile(value: string): boolean {
	if (/[\r\n]/.test(value)) return false;
	return /\.(md|txt)$/i.test(value) || (value.includes("/") && !/\s/.test(value));
}

async function runRoot(words: string[], o: RootOptions): Promise<number> {
	const cwd = resolve(o.cwd ?? process.cwd());
	checkRoot(o, cwd);
	if (o.inputFormat === "stream-json") return runStreamInput(words, o, cwd);
	const headless = o.print || !process.stdout.isTTY || !process.stdin.isTTY;
	if (!headless) interrupts.release();
	if (o.resume !== undefined) return runResume(words, o, cwd, headless);
	if (!headless && o.plain) {
		const { runLineMode } = await import("./modes/line.js");
		return runLineMode({ ...runFlags(o, cwd), prompt: words.join(" ") });
	}
	if (!headless) {
		const { runTui, background } = await loadTui(o.theme);
		return runTui({
			...runFlags(o, cwd),
			prompt: words.join(" "),
			...(o.theme ? { theme: o.theme } : {}),
			...background,
		});
	}
	let prompt = words.join(" ").trim();
	const piped = o.stdin === false ? "" : (await readStdin(prompt.length > 0, o.maxStdin ?? MAX_STDIN)).trim();
	if (piped) prompt = prompt ? `${prompt}\n\n${piped}` : piped;
	if (!prompt) throw new UsageError('no prompt: give the task as an argument (gar -p "task") or pipe it on stdin');
	const { runPrintMode } = await import("./modes/print.js");
	return runPrintMode(
		{ ...runFlags(o, cwd), prompt, output: o.output },
		{ stdout: process.stdout, stderr: process.stderr, env: process.env },
	);
}

/**
 * `gar -r [SEARCH]`: the full-screen app opens on the resume picker; words after it join the search
 * (`gar -r fix parser`). Only in a terminal, and never with another way of choosing the session.
 */
async function runResume(words: string[], o: RootOptions, cwd: string, headless: boolean): Promise<number> {
	if (headless || o.plain) {
		const why = headless ? "needs a terminal" : "is the full-screen app's: leave out --plain";
		throw new UsageError(
			`-r opens the resume picker, which ${why}; gar sessions lists the sessions and --session ID continues one`,
		);
	}
	const other = [
		o.continue && "-c",
		typeof o.session === "string" && "--session",
		o.session === false && "--no-session",
	]
		.concat(o.at ? "--at" : false)
		.filter(Boolean);
	if (other.length > 0) throw new UsageError(`-r picks the session itself: leave out ${other.join(" and ")}`);
	const search = [typeof o.resume === "string" ? o.resume : "", ...words].join(" ").trim();
	const { runTui, background } = await loadTui(o.theme);
	return runTui({ ...runFlags(o, cwd), resume: search, ...(o.theme ? { theme: o.theme } : {}), ...background });
}

/** `--input-format stream-json`: one conversation driven by JSON lines on stdin (always headless). */
async function runStreamInput(words: string[], o: RootOptions, cwd: string): Promise<number> {
	if (o.output !== "stream-json") {
		throw new UsageError(
			"--input-format stream-json needs --output stream-json: the answers come back as stream-json events",
		);
	}
	if (o.stdin === false) throw new UsageError("--input-format stream-json reads stdin: leave out --no-stdin");
	const { runStreamMode } = await import("./modes/print-stream.js");
	return runStreamMode(
		{ ...runFlags(o, cwd), prompt: words.join(" "), maxLine: o.maxStdin ?? MAX_STDIN },
		{ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env },
	);
}

/** The full-screen app's code; the terminal is asked for its background first, so the answer arrives meanwhile. */
async function loadTui(theme: string | undefined) {
	const { earlyTerminal } = await import("./ui/terminal/background.js");
	const asked = earlyTerminal(theme, process.env);
	const { runTui } = await import("./ui/run.js");
	return { runTui, background: asked ? { background: asked } : {} };
}

function runFlags(o: RootOptions, cwd: string) {
	return {
		...configFlags(o),
		cwd,
		...(o.tools ? { tools: o.tools } : {}),
		...(o.systemPrompt !== undefined ? { systemPrompt: o.systemPrompt } : {}),
		...(o.appendSystemPrompt !== undefined ? { appendSystemPrompt: o.appendSystemPrompt } : {}),
		...(o.schema ? { schema: o.schema } : {}),
		...(o.continue ? { continue: true } : {}),
		...(typeof o.session === "string" ? { session: o.session } : {}),
		...(o.session === false ? { noSession: true } : {}),
		...(o.at ? { at: o.at } : {}),
		...(o.rewindTo ? { rewindTo: o.rewindTo, ...(o.files ? { rewindFilesOnly: true } : {}) } : {}),
		...(o.hooks === false ? { noHooks: true } : {}),
	};
}

/** Parses argv, runs the command and resolves with the exit code. Never rejects. */
export async function main(argv: string[]): Promise<number> {
	// A reader that stops early (`gar --help | head -1`) is no failure: the rest of the output is dropped. (`gar -p`
	// listens too, and ends its run with exit code 1.)
	process.stdout.on("error", (error: NodeJS.ErrnoException) => {
		if (error.code !== "EPIPE") throw error;
	});
	let code = 0;
	const setCode = (c: number) => {
		code = c;
	};
	// Only the root's options are asked of the probe: built without the subcommands, it is the program of a `-p` run.
	const probe = buildProgram(setCode, { promptOnly: true, literal: false });
	const takesValue = (flag: string) =>
		probe.options.some((opt) => (opt.long === flag || opt.short === flag) && (opt.required || opt.optional));
	const intent = promptIntent(argv, { takesValue });
	const program =
		intent.forcePrompt && !intent.literal
			? probe
			: buildProgram(setCode, { promptOnly: intent.forcePrompt, literal: intent.literal });
	try {
		await program.parseAsync(argv, { from: "user" });
		return code;
	} catch (error) {
		// Messages may quote file names, session names or a server's words: show their control characters inert.
		const { sanitizeForTerminal } = await import("./term/sanitize.js");
		if (error instanceof CommanderError) {
			// --help and --version end here with exit code 0.
			if (error.exitCode === 0) return 0;
			// `gar sessons --all` fails on --all, but the misspelt command is what to tell.
			const meant = intent.forcePrompt || !intent.first ? undefined : nearCommand(intent.first, commandNames(program));
			const message = meant ? typoMessage(intent.first ?? "", meant) : error.message.replace(/^error: /, "");
			process.stderr.write(sanitizeForTerminal(`gar: ${message}\n`));
			return 2;
		}
		if (isUsageError(error)) {
			process.stderr.write(sanitizeForTerminal(`gar: ${error.message}\n`));
			return 2;
		}
		const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
		process.stderr.write(sanitizeForTerminal(`gar: unexpected failure: ${text}\n`));
		return 1;
	}
}

/**
 * Resolves once `stream` has handed everything queued to the OS: into a pipe, writes are asynchronous and
 * `process.exit` drops what a slow reader has not taken yet. At once when nothing is queued; a reader that went away
 * (EPIPE) ends the wait too.
 */
function drained(stream: NodeJS.WriteStream): Promise<void> {
	if (stream.writableLength === 0 || stream.destroyed) return Promise.resolve();
	return new Promise((resolve) => stream.write("", () => resolve()));
}

main(process.argv.slice(2)).then(async (code) => {
	process.exitCode = code;
	await Promise.all([drained(process.stdout), drained(process.stderr)]);
	// Exit now so that nothing left open (a socket, a timer) keeps us alive.
	process.exit(code);
});
