// The declarations of the subcommands whose code lives in commands/, and `help`. Each command's module, and the
// configuration it needs, is imported only when the command runs: cli.ts's start-up (gar --version) loads none of it.
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { type Command, Option } from "commander";
import { UsageError } from "../errors.js";
import { checkCwd } from "./path-check.js";
import type { ReplayApp } from "./replay.js";
import type { RewindFlags } from "./rewind.js";
import { configFlags, positiveNumber, type RootOptions } from "./root-options.js";
import { nearCommand } from "./words.js";

type Run = (code: number) => void;

/** The full-screen apps a command opens in a terminal, given by cli.ts (commands/ does not import ui/). */
export type Apps = { replay?: ReplayApp };

/**
 * Adds config, show (tree), changes, rewind, sessions, fork, label, name, compact, request, context, trust, untrust, hooks,
 * replay, export, acp, mcp and help, in this order.
 */
export function registerCommands(program: Command, run: Run, apps: Apps = {}): void {
	addConfig(program, run);
	addSessionCommands(program, run);
	addCompact(program, run);
	addInspect(program, run);
	addTrustCommands(program, run);
	addHooks(program, run);
	addReplay(program, run, apps.replay);
	addExport(program, run);
	addServers(program, run);
	addHelp(program, run);
}

function addConfig(program: Command, run: Run): void {
	subcommand(program, "config")
		.description(
			"print the model and endpoint that will be used, the effective configuration, and where each value comes from",
		)
		.option("--json", "as JSON")
		.option("--profile <name>", "as with this [profiles.NAME] table")
		.action(async (options: { json?: boolean }) => {
			const { configCommand } = await import("./config.js");
			const { result } = await loadFor(program);
			run(configCommand(result, options, (text) => process.stdout.write(text)));
		});
}

/** show (tree), changes, rewind, sessions, fork, label and name. */
function addSessionCommands(program: Command, run: Run): void {
	subcommand(program, "show <session>")
		.alias("tree")
		.description("print a session's tree: entry ids, types, prompts, labels, branch points and the current leaf")
		.option("--json", "as JSON")
		.action(async (id: string, options: { json?: boolean }) => {
			const { showCommand } = await import("./show.js");
			run(showCommand(await sessionsContext(program), id, options));
		});

	subcommand(program, "changes <session>")
		.description(
			"list the files a session's writes and edits changed (+/− lines), then each one's diff since before it",
		)
		.option("--json", "as JSON")
		.option("--stat", "the list alone, no diffs")
		.action(async (id: string, options: { json?: boolean; stat?: boolean }) => {
			const { changesCommand } = await import("./changes.js");
			run(changesCommand(await sessionsContext(program), id, options));
		});

	subcommand(program, "rewind <session>")
		.description(
			"move a session's leaf and its files back (or to any entry of its tree): restores what its writes and edits changed, checked against the disk",
		)
		.option("--to <entry>", "the entry to go to: it becomes the leaf, and the files are brought to how they were there")
		.option("--files", "bring back the files only (the conversation stays)")
		.option("--conversation", "move the leaf only (the files stay)")
		.option("--both", "the conversation and the files (the default)")
		.option("--dry-run", "say what it would do; change nothing, on disk or in the session")
		.option("--json", "print {ok, from, to, restored, skipped, bashChanged, notRestorable} as JSON")
		.action(async (id: string, options: RewindFlags) => {
			const { rewindCommand } = await import("./rewind.js");
			const stderr = (text: string) => process.stderr.write(text);
			run(rewindCommand({ ...(await sessionsContext(program)), stderr }, id, options));
		});

	const sessions = subcommand(program, "sessions")
		.description("list the sessions of this directory (id, name, date, entries, first prompt)")
		.option("--json", "as JSON, for scripts")
		.option("--all", "every project's sessions, with a PROJECT column")
		.action(async (options: { json?: boolean; all?: boolean }) => {
			const { sessionsCommand } = await import("./sessions.js");
			run(sessionsCommand(await sessionsContext(program), options));
		});
	sessions
		.command("restore [session]")
		.description("move a session deleted in the picker back from the trash (no id: list the trash)")
		.action(async (id: string | undefined) => {
			const { restoreCommand } = await import("./sessions.js");
			run(restoreCommand(await sessionsContext(program), id));
		});

	subcommand(program, "fork <session>")
		.description("copy a session's branch (up to --at, default the current leaf) into a new session")
		.option("--at <entry>", "the last entry to copy")
		.option("--json", "print {id, file, parent} as JSON")
		.action(async (id: string, options: { at?: string; json?: boolean }) => {
			const { forkCommand } = await import("./sessions.js");
			run(forkCommand(await sessionsContext(program), id, options));
		});

	subcommand(program, "label <session> <entry> [text]")
		.description("label an entry of a session (no text clears the label)")
		.action(async (id: string, entry: string, text: string | undefined) => {
			const { labelCommand } = await import("./sessions.js");
			run(labelCommand(await sessionsContext(program), id, entry, text));
		});

	subcommand(program, "name <session> <name>")
		.description("name a session")
		.action(async (id: string, name: string) => {
			const { nameCommand } = await import("./sessions.js");
			run(nameCommand(await sessionsContext(program), id, name));
		});
}

function addCompact(program: Command, run: Run): void {
	subcommand(program, "compact <session>")
		.description("summarize the older part of a session now (the file keeps everything; the next run sends less)")
		.option("--focus <text>", "what the summary should keep in particular")
		.option("--json", "print {ok, tokensBefore, tokensAfter, usage, costUsd, sessionId} as JSON")
		.action(async (id: string, options: { focus?: string; json?: boolean; cwd?: string; sessionDir?: string }) => {
			const { compactCommand } = await import("./compact.js");
			const merged = { ...program.opts<RootOptions>(), ...options };
			const cwd = resolve(merged.cwd ?? process.cwd());
			checkCwd(cwd);
			const io = { stdout: (t: string) => process.stdout.write(t), stderr: (t: string) => process.stderr.write(t) };
			const own = { ...(options.focus ? { focus: options.focus } : {}), ...(options.json ? { json: true } : {}) };
			run(await compactCommand(id, { ...configFlags(merged), cwd, ...own }, { ...io, env: process.env }));
		});
}

/** request and context: what a model call sent, and what fills the context of the next one. */
function addInspect(program: Command, run: Run): void {
	subcommand(program, "request <session> [request]")
		.description("print one model call of a session (default: the list of calls): its parts, response and body")
		.option("--turn <n>", "the nth model call of the session (1 the first, -1 the last)")
		.option("--last", "the last model call")
		.option("--json", "the whole report as JSON, with the body")
		.option("--raw", "only the JSON body, exactly as it was sent")
		.action(async (id: string, request: string | undefined, options: RequestFlags) => {
			const { requestCommand } = await import("./request.js");
			const ctx = await sessionsContext(program);
			const warn = (text: string) =>
				process.stderr.write(`gar: ${text}
`);
			run(requestCommand({ ...ctx, warn }, id, request, options));
		});

	subcommand(program, "context <session>")
		.description("print what fills the context of the session's next request, and its 10 largest items")
		.option("--json", "as JSON")
		.action(async (id: string, options: { json?: boolean }) => {
			const { contextCommand } = await import("./context.js");
			run(contextCommand(await sessionsContext(program), id, options));
		});
}

type RequestFlags = { turn?: string; last?: boolean; json?: boolean; raw?: boolean };

function addTrustCommands(program: Command, run: Run): void {
	subcommand(program, "trust [dir]")
		.description("let this project's .gar/config.toml set base_url, api_key_env, pass_env and approval")
		.option("--list", "list the trusted projects")
		.action(async (dir: string | undefined, options: { list?: boolean; cwd?: string }) => {
			const { trustCommand } = await import("./trust.js");
			run(trustCommand(await trustContext(options.cwd ?? program.opts<RootOptions>().cwd), dir, options));
		});

	subcommand(program, "untrust [dir]")
		.description("ignore this project's risky settings again")
		.action(async (dir: string | undefined, options: { cwd?: string }) => {
			const { untrustCommand } = await import("./trust.js");
			run(untrustCommand(await trustContext(options.cwd ?? program.opts<RootOptions>().cwd), dir));
		});
}

/** gar hooks (the list) and gar hooks test EVENT. */
function addHooks(program: Command, run: Run): void {
	const hooks = subcommand(program, "hooks")
		.description("list every hook: event, matcher, command, file and line, and whether it runs (project trust)")
		.option("--json", "as JSON")
		.action(async (options: { json?: boolean }) => {
			const { hooksCommand } = await import("./hooks.js");
			run(hooksCommand(await hooksContext(program), options));
		});
	hooks
		.command("test <event>")
		.description(
			"run the hooks of EVENT on the payload a run would give them, and print each one's exit code, output, decision and time",
		)
		.option("--tool <name>", "PreToolUse, PostToolUse: the tool (default bash)")
		.option(
			"--input <json|->",
			"the tool's arguments as JSON (tool events), the prompt (UserPromptSubmit) or the event's field; - reads stdin",
		)
		.option("--json", "as JSON")
		.option("--cwd <dir>", "the project directory")
		.action(async (event: string, options: { tool?: string; input?: string; json?: boolean; cwd?: string }) => {
			const { hooksTestCommand } = await import("./hooks.js");
			const input = options.input === "-" ? await readAll(process.stdin) : options.input;
			const cwd = options.cwd ?? hooks.opts<RootOptions>().cwd;
			const ctx = await hooksContext(program, cwd);
			run(await hooksTestCommand(ctx, event, { ...options, ...(input === undefined ? {} : { input }) }));
		});
}

/** All of a stream, as text (`--input -`). */
async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
	return Buffer.concat(chunks).toString("utf8");
}

async function hooksContext(program: Command, cwdOption?: string) {
	const { cwd, result } = await loadFor(program, cwdOption);
	return { result, cwd, env: process.env, write: (text: string) => process.stdout.write(text) };
}

function addReplay(program: Command, run: Run, app: ReplayApp | undefined): void {
	subcommand(program, "replay <session>")
		.description(
			"play a recorded conversation (a file, or a session id) without a model: in the app in a terminal, else as events",
		)
		.option("--at <entry>", "replay the path up to this entry (default: the current leaf)")
		.option(
			"--speed <n>",
			"pace events at n times the recorded speed (default: the app 1, piped or --output as fast as possible)",
			positiveNumber,
		)
		.addOption(
			new Option("--output <format>", "print a transcript or events instead of playing in the app (piped: text)")
				.choices(["text", "stream-json"])
				.default("text"),
		)
		.action(
			async (
				target: string,
				options: { at?: string; speed?: number; output: "text" | "stream-json" },
				cmd: Command,
			) => {
				const { replayCommand } = await import("./replay.js");
				const ctx = await sessionsContext(program);
				// In a terminal without --output the session plays in the app; piped or with --output it stays text or events.
				const terminal = process.stdout.isTTY && process.stdin.isTTY && cmd.getOptionValueSource("output") !== "cli";
				run(
					await replayCommand(target, { baseDir: ctx.baseDir, cwd: ctx.cwd, ...options }, terminal ? app : undefined),
				);
			},
		);
}

function addExport(program: Command, run: Run): void {
	subcommand(program, "export <session>")
		.description("write a session's path as Markdown or one self-contained HTML page")
		.option("--at <entry>", "export the path up to this entry (default: the current leaf)")
		.addOption(
			new Option("--format <format>", "md or html (default: from -o's extension, else md)").choices(["md", "html"]),
		)
		.option("-o, --output <file>", "write to this file (default: standard output)")
		.option("--force", "overwrite the -o file when it exists")
		.action(
			async (target: string, options: { at?: string; format?: "md" | "html"; output?: string; force?: boolean }) => {
				const { exportCommand } = await import("./export.js");
				const ctx = await sessionsContext(program);
				const io = { stdout: (t: string) => process.stdout.write(t), stderr: (t: string) => process.stderr.write(t) };
				run(exportCommand(target, { baseDir: ctx.baseDir, cwd: ctx.cwd, ...options }, io));
			},
		);
}

/** gar acp and gar mcp: gar driven by an editor or another agent over stdio. */
function addServers(program: Command, run: Run): void {
	subcommand(program, "acp")
		.description("serve the Agent Client Protocol on stdio, for editors (Zed, JetBrains, Neovim, Emacs)")
		.action(async (options: { cwd?: string; sessionDir?: string }) => {
			const { runAcp } = await import("../modes/acp/run.js");
			const { flags, cwd } = serverFlags(program, options);
			const io = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
			run(await runAcp({ flags, cwd, env: process.env, ...io }));
		});

	subcommand(program, "mcp")
		.description("serve MCP on stdio: the agent as the tools gar and gar_reply, for other agents (Claude Code, Codex…)")
		.option("--tools", "expose read, write, edit and bash themselves instead of the agent")
		.action(async (options: { cwd?: string; sessionDir?: string; tools?: boolean }) => {
			const { runMcp } = await import("../modes/mcp/run.js");
			const { flags, cwd } = serverFlags(program, options);
			const io = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
			run(await runMcp({ flags, cwd, env: process.env, tools: options.tools ?? false, ...io }));
		});
}

/** The run flags of the root command (model, provider, approval, tools, prompts…) for the sessions a server opens. */
function serverFlags(program: Command, options: { cwd?: string; sessionDir?: string }) {
	// Only these two of the subcommand's own options are root options too (mcp's --tools is not the root's --tools).
	const own = {
		...(options.cwd === undefined ? {} : { cwd: options.cwd }),
		...(options.sessionDir === undefined ? {} : { sessionDir: options.sessionDir }),
	};
	const merged = { ...program.opts<RootOptions>(), ...own };
	const cwd = resolve(merged.cwd ?? process.cwd());
	checkCwd(cwd);
	const flags = {
		...configFlags(merged),
		...(merged.tools ? { tools: merged.tools } : {}),
		...(merged.systemPrompt !== undefined ? { systemPrompt: merged.systemPrompt } : {}),
		...(merged.appendSystemPrompt !== undefined ? { appendSystemPrompt: merged.appendSystemPrompt } : {}),
	};
	return { flags, cwd };
}

function addHelp(program: Command, run: Run): void {
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
}

/** A subcommand with the options every subcommand shares (root options go before a subcommand). */
function subcommand(program: Command, spec: string): Command {
	return program
		.command(spec)
		.option("--cwd <dir>", "the project directory")
		.option("--session-dir <dir>", "where sessions are saved");
}

function findCommand(program: Command, name: string): Command | undefined {
	return program.commands.find((c) => c.name() === name || c.aliases().includes(name));
}

/** Every command's name and aliases, in the order of the help. */
export function commandNames(program: Command): string[] {
	return program.commands.flatMap((c) => [c.name(), ...c.aliases()]);
}

/** A name that is no command: the one it probably misspells, else the list of commands. */
function noCommand(program: Command, name: string): string {
	const meant = nearCommand(name, commandNames(program));
	if (meant !== undefined) return `no command "${name}"; did you mean \`gar help ${meant}\`?`;
	const all = program.commands.map((c) => `${c.name()}${c.aliases().length > 0 ? ` (${c.aliases().join(", ")})` : ""}`);
	return `no command "${name}"; the commands are ${all.join(", ")}`;
}

/**
 * Loads the configuration with the root command's flags and the subcommand's own (which win); `cwdOption`: a
 * nested command's own --cwd.
 */
async function loadFor(program: Command, cwdOption?: string) {
	const { loadConfig } = await import("../config/index.js");
	const sub = program.commands.find((c) => c.name() === program.args[0]);
	const options = { ...program.opts<RootOptions>(), ...(sub?.opts<RootOptions>() ?? {}) };
	const cwd = resolve(cwdOption ?? options.cwd ?? process.cwd());
	checkCwd(cwd);
	const result = loadConfig({ cwd, env: process.env, flags: configFlags(options) });
	for (const warning of result.warnings) process.stderr.write(`gar: warning: ${warning}\n`);
	return { cwd, result };
}

async function trustContext(dir: string | undefined) {
	const { configPaths } = await import("../config/index.js");
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
	const { configPaths } = await import("../config/index.js");
	const { dataDir } = configPaths(homedir(), process.env);
	const write = (text: string) => process.stdout.write(text);
	return { cwd, baseDir: result.config.session.dir, trashDir: join(dataDir, "trash"), write };
}
