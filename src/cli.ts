import { existsSync, fstatSync } from "node:fs";
import { homedir } from "node:os";
import { resolve } from "node:path";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { checkCwd, whyMissing } from "./commands/path-check.js";
import { nearCommand, promptIntent, typoMessage } from "./commands/words.js";
import { isUsageError, UsageError } from "./errors.js";
import type { OutputFormat } from "./output/print-output.js";
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

/**
 * Reads piped stdin to the end, at most `max` bytes (more is a UsageError naming --max-stdin). Only a pipe or a
 * redirected file is read when a prompt was also given.
 */
async function readStdin(promptGiven: boolean, max: number): Promise<string> {
	if (process.stdin.isTTY) return "";
	if (promptGiven) {
		let piped = false;
		try {
			const stat = fstatSync(0);
			piped = stat.isFIFO() || stat.isFile();
		} catch {
			piped = false;
		}
		if (!piped) return ""; // e.g. a socket a parent never closes: don't wait on it
	}
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

type RootOptions = {
	print?: boolean;
	plain?: boolean;
	output: OutputFormat;
	provider?: "anthropic" | "openai";
	model?: string;
	baseUrl?: string;
	maxTurns?: number;
	tools?: string[];
	systemPrompt?: string;
	appendSystemPrompt?: string;
	cwd?: string;
	schema?: string;
	profile?: string;
	approve?: boolean;
	thinking?: "off" | "low" | "medium" | "high";
	bashTimeout?: number;
	idleTimeout?: number;
	continue?: boolean;
	/** An id or path; false with --no-session. */
	session?: string | false;
	at?: string;
	sessionDir?: string;
	/** false with --no-stdin. */
	stdin?: boolean;
	maxStdin?: number;
	/** --theme NAME for the full-screen app. */
	theme?: string;
};

/** How main wants the root command built: `promptOnly` leaves the subcommands out (-p, or words after `--`). */
type ProgramMode = { promptOnly: boolean; literal: boolean };

function buildProgram(run: (code: number) => void, mode: ProgramMode = { promptOnly: false, literal: false }): Command {
	const program: Command = new Command("gar")
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
		.option("--no-session", "save nothing (a throwaway run)")
		.option("--session-dir <dir>", "where sessions are saved")
		.option("--no-stdin", "never read piped stdin (like < /dev/null)")
		.option("--max-stdin <bytes>", "the most piped stdin gar reads (default 1048576, 1 MB)", positiveInt)
		.option("--theme <name>", "colour theme of the full-screen app: dark, light, mono or your own (see [tui] theme)")
		.addHelpText(
			"after",
			'\nAfter --, every word is the prompt, even one that starts with - or names a command: gar -p -- "-v is broken"',
		)
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

	subcommand(program, "config")
		.description(
			"print the model and endpoint that will be used, the effective configuration, and where each value comes from",
		)
		.option("--json", "as JSON")
		.option("--profile <name>", "as with this [profiles.NAME] table")
		.action(async (options: { json?: boolean }) => {
			const { configCommand } = await import("./commands/config.js");
			const { result } = await loadFor(program);
			run(configCommand(result, options, (text) => process.stdout.write(text)));
		});

	subcommand(program, "show <session>")
		.alias("tree")
		.description("print a session's tree: entry ids, types, prompts, labels, branch points and the current leaf")
		.option("--json", "as JSON")
		.action(async (id: string, options: { json?: boolean }) => {
			const { showCommand } = await import("./commands/show.js");
			run(showCommand(await sessionsContext(program), id, options));
		});

	subcommand(program, "sessions")
		.description("list the sessions of this directory (id, name, date, entries, first prompt)")
		.option("--json", "as JSON, for scripts")
		.option("--all", "every project's sessions, with a PROJECT column")
		.action(async (options: { json?: boolean; all?: boolean }) => {
			const { sessionsCommand } = await import("./commands/sessions.js");
			run(sessionsCommand(await sessionsContext(program), options));
		});

	subcommand(program, "fork <session>")
		.description("copy a session's branch (up to --at, default the current leaf) into a new session")
		.option("--at <entry>", "the last entry to copy")
		.option("--json", "print {id, file, parent} as JSON")
		.action(async (id: string, options: { at?: string; json?: boolean }) => {
			const { forkCommand } = await import("./commands/sessions.js");
			run(forkCommand(await sessionsContext(program), id, options));
		});

	subcommand(program, "label <session> <entry> [text]")
		.description("label an entry of a session (no text clears the label)")
		.action(async (id: string, entry: string, text: string | undefined) => {
			const { labelCommand } = await import("./commands/sessions.js");
			run(labelCommand(await sessionsContext(program), id, entry, text));
		});

	subcommand(program, "name <session> <name>")
		.description("name a session")
		.action(async (id: string, name: string) => {
			const { nameCommand } = await import("./commands/sessions.js");
			run(nameCommand(await sessionsContext(program), id, name));
		});

	subcommand(program, "compact <session>")
		.description("summarize the older part of a session now (the file keeps everything; the next run sends less)")
		.option("--focus <text>", "what the summary should keep in particular")
		.option("--json", "print {ok, tokensBefore, tokensAfter, usage, costUsd, sessionId} as JSON")
		.action(async (id: string, options: { focus?: string; json?: boolean; cwd?: string; sessionDir?: string }) => {
			const { compactCommand } = await import("./commands/compact.js");
			const merged = { ...program.opts<RootOptions>(), ...options };
			const cwd = resolve(merged.cwd ?? process.cwd());
			checkCwd(cwd);
			const io = { stdout: (t: string) => process.stdout.write(t), stderr: (t: string) => process.stderr.write(t) };
			const own = { ...(options.focus ? { focus: options.focus } : {}), ...(options.json ? { json: true } : {}) };
			run(await compactCommand(id, { ...configFlags(merged), cwd, ...own }, { ...io, env: process.env }));
		});

	subcommand(program, "trust [dir]")
		.description("let this project's .gar/config.toml set base_url, api_key_env, pass_env and approval")
		.option("--list", "list the trusted projects")
		.action(async (dir: string | undefined, options: { list?: boolean; cwd?: string }) => {
			const { trustCommand } = await import("./commands/trust.js");
			run(trustCommand(await trustContext(options.cwd ?? program.opts<RootOptions>().cwd), dir, options));
		});

	subcommand(program, "untrust [dir]")
		.description("ignore this project's risky settings again")
		.action(async (dir: string | undefined, options: { cwd?: string }) => {
			const { untrustCommand } = await import("./commands/trust.js");
			run(untrustCommand(await trustContext(options.cwd ?? program.opts<RootOptions>().cwd), dir));
		});

	subcommand(program, "replay <session>")
		.description("re-emit a recorded conversation (a file, or a session id) as agent events, without a model")
		.option("--at <entry>", "replay the path up to this entry (default: the current leaf)")
		.option("--speed <n>", "pace events at n times the recorded speed (default: as fast as possible)", positiveNumber)
		.addOption(new Option("--output <format>", "output format").choices(["text", "stream-json"]).default("text"))
		.action(async (target: string, options: { at?: string; speed?: number; output: "text" | "stream-json" }) => {
			const { replayCommand } = await import("./commands/replay.js");
			const ctx = await sessionsContext(program);
			run(await replayCommand(target, { baseDir: ctx.baseDir, cwd: ctx.cwd, ...options }));
		});

	program
		.command("help [command...]")
		.description("show the help of gar or of one command")
		.action((words: string[]) => {
			const [name] = words;
			if (words.length > 1) {
				const text = `help ${words.join(" ")}`;
				throw new UsageError(`help takes one command name; to send "${text}" to the model, use \`gar -- ${text}\``);
			}
			const sub = name === undefined ? program : findCommand(program, name);
			if (!sub) throw new UsageError(`help: ${noCommand(program, name ?? "")}`);
			sub.outputHelp();
			run(0);
		});
	return program;
}

function findCommand(program: Command, name: string): Command | undefined {
	return program.commands.find((c) => c.name() === name || c.aliases().includes(name));
}

/** Every command's name and aliases, in the order of the help. */
function commandNames(program: Command): string[] {
	return program.commands.flatMap((c) => [c.name(), ...c.aliases()]);
}

/** A name that is no command: the one it probably misspells, else the list of commands. */
function noCommand(program: Command, name: string): string {
	const meant = nearCommand(name, commandNames(program));
	if (meant !== undefined) return `no command "${name}"; did you mean \`gar help ${meant}\`?`;
	const all = program.commands.map((c) => `${c.name()}${c.aliases().length > 0 ? ` (${c.aliases().join(", ")})` : ""}`);
	return `no command "${name}"; the commands are ${all.join(", ")}`;
}

/** A subcommand with the options every subcommand shares (root options go before a subcommand). */
function subcommand(program: Command, spec: string): Command {
	return program
		.command(spec)
		.option("--cwd <dir>", "the project directory")
		.option("--session-dir <dir>", "where sessions are saved");
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

function positiveNumber(value: string): number {
	const n = Number(value);
	if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError("expected a number greater than 0");
	return n;
}

/** Loads the configuration with the root command's flags and the subcommand's own (which win). */
async function loadFor(program: Command) {
	const { loadConfig } = await import("./config/index.js");
	const sub = program.commands.find((c) => c.name() === program.args[0]);
	const options = { ...program.opts<RootOptions>(), ...(sub?.opts<RootOptions>() ?? {}) };
	const cwd = resolve(options.cwd ?? process.cwd());
	checkCwd(cwd);
	const result = loadConfig({ cwd, env: process.env, flags: configFlags(options) });
	for (const warning of result.warnings) process.stderr.write(`gar: warning: ${warning}\n`);
	return { cwd, result };
}

async function trustContext(dir: string | undefined) {
	const { configPaths } = await import("./config/index.js");
	const cwd = resolve(dir ?? process.cwd());
	checkCwd(cwd);
	return {
		configDir: configPaths(homedir(), process.env).configDir,
		cwd,
		write: (text: string) => process.stdout.write(text),
	};
}

async function sessionsContext(program: Command) {
	const { cwd, result } = await loadFor(program);
	return { cwd, baseDir: result.config.session.dir, write: (text: string) => process.stdout.write(text) };
}

function configFlags(o: RootOptions) {
	return {
		...(o.provider ? { provider: o.provider } : {}),
		...(o.model ? { model: o.model } : {}),
		...(o.baseUrl ? { baseUrl: o.baseUrl } : {}),
		...(o.maxTurns ? { maxTurns: o.maxTurns } : {}),
		...(o.profile ? { profile: o.profile } : {}),
		...(o.approve ? { approve: true } : {}),
		...(o.thinking ? { thinking: o.thinking } : {}),
		...(o.bashTimeout ? { bashTimeout: o.bashTimeout } : {}),
		...(o.idleTimeout ? { idleTimeout: o.idleTimeout } : {}),
		...(o.sessionDir ? { sessionDir: o.sessionDir } : {}),
	};
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
}

/** A --system-prompt value meant as a file: one word with a slash, or a name ending in .md or .txt. */
function looksLikeFile(value: string): boolean {
	if (/[\r\n]/.test(value)) return false;
	return /\.(md|txt)$/i.test(value) || (value.includes("/") && !/\s/.test(value));
}

async function runRoot(words: string[], o: RootOptions): Promise<number> {
	const cwd = resolve(o.cwd ?? process.cwd());
	checkRoot(o, cwd);
	const headless = o.print || !process.stdout.isTTY || !process.stdin.isTTY;
	if (!headless) interrupts.release();
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

/** The full-screen app's code; the terminal is asked for its background first, so the answer arrives meanwhile. */
async function loadTui(theme: string | undefined) {
	const { earlyBackgroundQuery } = await import("./ui/terminal-background.js");
	const asked = earlyBackgroundQuery(theme, process.env);
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
	const probe = buildProgram(setCode);
	const takesValue = (flag: string) =>
		probe.options.some((opt) => (opt.long === flag || opt.short === flag) && (opt.required || opt.optional));
	const intent = promptIntent(argv, { takesValue });
	const program = buildProgram(setCode, { promptOnly: intent.forcePrompt, literal: intent.literal });
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
