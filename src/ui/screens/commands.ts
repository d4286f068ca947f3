import type { Setup } from "../../modes/setup.js";
import { formatTotalsCost, formatUsage } from "../../view/format.js";
import { initialView } from "../../view/state.js";
import { HELP_CONTEXTS, KEY_TABLE, REWIND_KEYS, TREE_CONTEXTS } from "../keys/key-table.js";
import { keyHelp } from "../keys/keymap.js";
import type { Completer, CompletionItem, InputModel } from "../state/input-model.js";
import type { UiStore } from "../state/store.js";
import { exportConversation } from "./export-command.js";
import type { SessionIntents } from "./screen.js";
import { pickModel, showChanges } from "./screen-commands.js";

type Level = "info" | "warning" | "error";

/** What a command may touch. Everything is injected, so tests drive commands without a terminal. */
export type CommandContext = {
	setup: Pick<Setup, "conversation" | "channel" | "providerFor"> & Partial<Pick<Setup, "modelRows" | "listModels">>;
	store: UiStore;
	input: InputModel;
	exit: () => void;
	/** The terminal's width (/inspector says when the inspector does not fit). */
	columns: () => number;
	/** Writes straight to the terminal (the OSC 52 clipboard sequence of /copy). */
	writeTerminal: (data: string) => void;
	/** Switches the theme live; returns an error text, or null when done. Absent: themes cannot switch yet. */
	setTheme?: (name: string) => string | null;
	/** The prompt templates (ui/prompt-templates.ts); absent: none. */
	templates?: () => readonly TemplateCommand[];
	/** Sends a text as the person's message (a template's): a new run, or a steer while one goes on. */
	send?: (text: string) => void;
	/** Where gar works (paths in /changes are shown relative to it); default the process's. */
	cwd?: string;
	/** Opens the resume picker, filtered by `query`. Absent: it cannot open yet. */
	openPicker?: (query: string) => void;
	/** The session's tree, fork and clone (absent: not wired, as in tests that need none). */
	session?: SessionIntents;
};

/**
 * A prompt template as a slash command: its argument hint, description and source (built-in, user, project); a
 * `problem` (malformed front matter, a built-in's name) lists it with the reason and keeps it from running. `expand`
 * gives the message to send for the arguments typed (it may throw, with words).
 */
export type TemplateCommand = {
	name: string;
	args: string | null;
	description: string;
	source: string;
	problem?: string;
	expand: (args: string) => string;
};

/** Where completions come from (filled in once the conversation exists). */
export type CompletionSource = {
	models: () => string[];
	themes: () => string[];
	templates?: () => readonly TemplateCommand[];
};

export type CommandSpec = {
	name: string;
	/** The argument, as shown in /help ("NAME", "[focus]"). */
	args?: string;
	/** Whether the argument is required (Enter on a completed name then waits for it). */
	needsArg?: boolean;
	description: string;
	complete?: (arg: string, source: CompletionSource) => string[];
	/** Runs only between runs (refused with a notice while a run is going). */
	idle?: boolean;
	run: (arg: string, ctx: CommandContext) => void | Promise<void>;
};

export const notice = (ctx: CommandContext, message: string, level: Level = "info") =>
	ctx.setup.channel.emit({ type: "notice", level, message });

/** The slash commands of the full-screen app, in the order /help lists them. */
export const COMMANDS: readonly CommandSpec[] = [
	{
		name: "help",
		description: "keys, commands and prompt templates",
		run: (_arg, ctx) => notice(ctx, helpText(ctx.templates?.() ?? [])),
	},
	{
		name: "new",
		description: "start a new session",
		idle: true,
		run: async (_arg, ctx) => {
			const { conversation } = ctx.setup;
			await conversation.newSession();
			ctx.store.view = initialView({ ...conversation.model, priced: conversation.priced });
			ctx.store.toBottom();
			ctx.store.changed();
			notice(ctx, `new session ${conversation.session?.session.header.id ?? "(not saved)"}`);
		},
	},
	{
		name: "model",
		args: "[NAME]",
		description: "switch the model from the next message on (PROVIDER/NAME switches the provider; no name: a list)",
		idle: true,
		// `gpt` finds `openai/gpt-5.4` too: the part after a provider prefix counts.
		complete: (arg, source) =>
			source.models().filter((m) => m.startsWith(arg) || m.slice(m.indexOf("/") + 1).startsWith(arg)),
		run: (arg, ctx) => (arg.trim() ? switchModel(arg, ctx) : pickModel(ctx)),
	},
	{
		name: "theme",
		args: "NAME",
		needsArg: true,
		description: "switch the colour theme",
		complete: (arg, source) => source.themes().filter((t) => t.startsWith(arg)),
		run: (arg, ctx) => {
			if (!ctx.setTheme) return notice(ctx, "themes cannot be switched in this build yet", "warning");
			const error = ctx.setTheme(arg);
			notice(ctx, error ?? `theme: ${arg}`, error ? "warning" : "info");
		},
	},
	{
		name: "inspector",
		description: "show or hide the inspector (also Tab)",
		run: (_arg, ctx) => ctx.store.toggleInspector(ctx.columns()),
	},
	{
		name: "name",
		args: "TEXT",
		needsArg: true,
		description: "name this session",
		run: (arg, ctx) => {
			const writer = ctx.setup.conversation.session;
			if (!writer) return notice(ctx, "this conversation is not saved, so it cannot be named", "warning");
			if (!arg.trim()) return notice(ctx, "/name TEXT: the name is empty", "warning");
			writer.setName(arg.trim());
			ctx.store.changed();
			notice(ctx, `named this session: ${arg.trim()}`);
		},
	},
	{
		name: "label",
		args: "TEXT",
		description: "label the latest entry (no text clears the label)",
		run: (arg, ctx) => {
			const writer = ctx.setup.conversation.session;
			const leaf = writer?.leafId;
			if (!writer || !leaf) return notice(ctx, "there is no entry to label yet", "warning");
			writer.label(leaf, arg.trim() || null);
			notice(ctx, arg.trim() ? `labelled ${leaf}: ${arg.trim()}` : `cleared the label of ${leaf}`);
		},
	},
	{ name: "session", description: "this session's file, id, entries and cost", run: (_arg, ctx) => sessionInfo(ctx) },
	{
		name: "resume",
		args: "[SEARCH]",
		description: "pick a session to continue (filtered by SEARCH; Tab in the picker: every project's)",
		idle: true,
		run: (arg, ctx) =>
			ctx.openPicker ? ctx.openPicker(arg.trim()) : notice(ctx, "the picker cannot open yet", "warning"),
	},
	{
		name: "request",
		args: "[N]",
		description: "the exact request of a model call (the last; N: the nth, -N from the end) — also Alt+R",
		run: async (arg, ctx) => {
			const { openRequest } = await import("./inspect-open.js");
			const error = openRequest(ctx.store, ctx.setup, arg);
			if (error) notice(ctx, error, "warning");
		},
	},
	{
		name: "context",
		description: "what fills the context of the next request, and its 10 largest items",
		run: async (_arg, ctx) => {
			const [{ contextReport, liveContextInput }, { contextLines }] = await Promise.all([
				import("../../inspect/context-report.js"),
				import("../../view/context-view.js"),
			]);
			notice(ctx, contextLines(contextReport(liveContextInput(ctx.setup.conversation))).join("\n"));
		},
	},
	{
		name: "tree",
		description: "the session as a tree: go back, edit and resend, label, fork (also t in the rewind list)",
		run: (_arg, ctx) => {
			const why = intents(ctx).openTree();
			if (why) notice(ctx, why, "warning");
		},
	},
	{
		name: "rewind",
		description: "go back to before one of your prompts: the conversation and/or the files (also Esc Esc)",
		idle: true,
		run: (_arg, ctx) => {
			const why = intents(ctx).openRewind();
			if (why) notice(ctx, why, "warning");
		},
	},
	{
		name: "redo",
		description: "take the last rewind back: the conversation and the files where it found them",
		idle: true,
		run: (_arg, ctx) => intents(ctx).redo(),
	},
	{
		name: "fork",
		args: "[ENTRY]",
		description: "a new session of the path up to ENTRY (default: the current entry), switched to",
		idle: true,
		run: (arg, ctx) => intents(ctx).fork(arg.trim() || undefined),
	},
	{
		name: "clone",
		description: "a new session of the whole current path, switched to",
		idle: true,
		run: (_arg, ctx) => intents(ctx).fork(),
	},
	{
		name: "changes",
		description: "the files this session's writes and edits changed (+/−); Enter shows a file's diff",
		run: (_arg, ctx) => showChanges(ctx),
	},
	{
		name: "compact",
		args: "[focus]",
		description: "summarize older messages to free context",
		idle: true,
		// Esc stops it (the conversation counts as running meanwhile); the chat shows a marker either way.
		run: async (arg, ctx) => {
			await ctx.setup.conversation.compact(arg.trim() || undefined);
			ctx.store.changed();
		},
	},
	{ name: "copy", description: "copy the last answer to the clipboard (OSC 52)", run: (_arg, ctx) => copyLast(ctx) },
	{
		name: "export",
		args: "[FILE]",
		description: "write this conversation to FILE as Markdown or HTML (.html); default gar-ID.md",
		run: (arg, ctx) => exportConversation(arg, ctx),
	},
	{ name: "quit", description: "leave gar (also Ctrl+D on an empty input)", run: (_arg, ctx) => ctx.exit() },
];

const ALIASES: Readonly<Record<string, string>> = { exit: "quit", q: "quit", clear: "new" };

/** The session intents, or an error a person can read (they exist once the conversation does). */
function intents(ctx: CommandContext): SessionIntents {
	if (!ctx.session) throw new Error("the session is not ready yet: try again in a moment");
	return ctx.session;
}

/** Every name a built-in command answers to (aliases too): no prompt template may take one. */
export function commandNames(): string[] {
	return [...COMMANDS.map((c) => c.name), ...Object.keys(ALIASES)];
}

function find(name: string): CommandSpec | undefined {
	const wanted = ALIASES[name] ?? name;
	return COMMANDS.find((c) => c.name === wanted);
}

/** The completer for the input: command names with their descriptions, then each command's argument. */
export function commandCompleter(source: CompletionSource): Completer {
	return (text, all = false) => {
		if (!text.startsWith("/") || text.startsWith("//")) return null;
		const space = text.indexOf(" ");
		if (space === -1) {
			const prefix = text.slice(1);
			const items: CompletionItem[] = COMMANDS.filter((c) => c.name.startsWith(prefix)).map((c) => ({
				value: `/${c.name}${c.args ? " " : ""}`,
				label: `/${c.name}${c.args ? ` ${c.args}` : ""}`,
				description: c.description,
			}));
			for (const t of source.templates?.() ?? []) {
				if (!t.name.startsWith(prefix)) continue;
				const description = t.problem ? `✗ not run: ${t.problem}` : `${t.description} (${t.source})`.trimStart();
				items.push({
					value: `/${t.name}${t.args ? " " : ""}`,
					label: `/${t.name}${t.args ? ` ${t.args}` : ""}`,
					description,
				});
			}
			// The exact name typed in full with nothing left to complete: no popup.
			if (items.length === 0 || (items.length === 1 && items[0]?.value === text)) return null;
			return { from: 0, items };
		}
		const command = find(text.slice(1, space));
		const arg = text.slice(space + 1);
		if (!command?.complete || arg.includes(" ")) return null;
		const values = command.complete(arg, source);
		// Nothing to complete before a letter is typed, or once the argument is a whole candidate, unless Tab asked.
		if (values.length === 0 || (!all && (arg === "" || values.includes(arg)))) return null;
		return { from: space + 1, items: values.slice(0, 50).map((value) => ({ value, description: "" })) };
	};
}

/** What a sent line is: a /command, a !shell line, or a message (what to send). */
export type LineKind = { kind: "command" } | { kind: "shell" } | { kind: "message"; text: string };

/**
 * Sorts a sent line. `//text` is the message `/text`; `offered` is the line put back after an unknown /word, which
 * sent again unchanged is a message as it stands.
 */
export function lineKind(text: string, offered: string | null): LineKind {
	if (text === offered) return { kind: "message", text };
	if (text.startsWith("//")) return { kind: "message", text: text.slice(1) };
	if (text.startsWith("/")) return { kind: "command" };
	if (text.startsWith("!")) return { kind: "shell" };
	return { kind: "message", text };
}

/** Whether a completed command line is ready to run (no argument missing). */
export function readyToRun(text: string): boolean {
	const match = /^\/(\S+)(?: (.*))?$/.exec(text);
	const command = match ? find(match[1] as string) : undefined;
	return !command?.needsArg || (match?.[2] ?? "").trim() !== "";
}

/**
 * Runs a `/command` line. While a run is going, commands that must wait say so and the line goes back into the
 * editor (nothing typed is dropped). Failures become error notices.
 */
export async function runCommand(text: string, ctx: CommandContext): Promise<void> {
	const match = /^\/(\S*)\s*([\s\S]*)$/.exec(text.trim());
	const name = match?.[1] ?? "";
	const arg = match?.[2] ?? "";
	const command = find(name);
	const template = command ? undefined : findTemplate(name, ctx);
	if (template) return runTemplate(template, text, arg, ctx);
	if (!command) {
		// A path or a typo: nothing typed is thrown away, and the same line sent again is a message.
		ctx.input.restore(text);
		ctx.input.offered = text;
		const how = "Enter sends the line as a message (so does starting it with //); /help lists the commands";
		return notice(ctx, `unknown command /${name}: ${how}`, "warning");
	}
	if (command.idle && ctx.setup.conversation.running) {
		ctx.input.restore(text);
		return notice(ctx, `/${command.name} waits until the run ends (Esc stops it)`, "warning");
	}
	try {
		await command.run(arg, ctx);
	} catch (error) {
		notice(ctx, error instanceof Error ? error.message : String(error), "error");
	}
}

function findTemplate(name: string, ctx: CommandContext): TemplateCommand | undefined {
	const all = ctx.templates?.() ?? [];
	return all.find((t) => t.name === name) ?? all.find((t) => t.name.toLowerCase() === name.toLowerCase());
}

/** A template: its text with the arguments filled in goes as the person's message; one that cannot run says why. */
function runTemplate(template: TemplateCommand, text: string, arg: string, ctx: CommandContext) {
	const fail = (why: string) => {
		ctx.input.restore(text);
		notice(ctx, why, "warning");
	};
	if (template.problem)
		return fail(`/${template.name} (${template.source} prompt template) is not run: ${template.problem}`);
	if (!ctx.send) return fail("prompt templates cannot be sent from here");
	let message: string;
	try {
		message = template.expand(arg);
	} catch (error) {
		return fail(error instanceof Error ? error.message : String(error));
	}
	ctx.send(message);
}

/**
 * `!cmd` runs a shell command and adds its output to the context for the next message (shown in the chat);
 * `!!cmd` runs it and only shows the output. Between runs only: while a run goes on, the line goes back to the editor.
 */
export async function runShellLine(text: string, ctx: CommandContext): Promise<void> {
	const { conversation } = ctx.setup;
	const quiet = text.startsWith("!!");
	const command = text.slice(quiet ? 2 : 1).trim();
	if (!command) return notice(ctx, "!cmd runs a shell command; !!cmd runs it without adding it to the context");
	if (conversation.running) {
		ctx.input.restore(text);
		return notice(ctx, "shell commands wait until the run ends (Esc stops it)", "warning");
	}
	const result = await conversation.runShell(command);
	if (quiet || conversation.running) {
		const body = result.content.replace(/\n+$/, "");
		return notice(ctx, `$ ${command}\n${body}`, result.isError ? "warning" : "info");
	}
	conversation.addShellContext(command, result);
}

/** `/model NAME`: switches to the model (and its provider), recorded as a model_change; or says why not. */
export async function switchModel(spec: string, ctx: CommandContext): Promise<void> {
	const { conversation } = ctx.setup;
	const next = await ctx.setup.providerFor(spec);
	if ("error" in next) return notice(ctx, next.error, "warning");
	conversation.setModel(next.provider, next.model, next.contextWindow, next.prices);
	const note = next.note ? `\n${next.note}` : "";
	notice(ctx, `model: ${next.provider.name}/${next.model} from the next message on${note}`);
}

function sessionInfo(ctx: CommandContext) {
	const writer = ctx.setup.conversation.session;
	const totals = ctx.store.view.session;
	const figures = `${formatUsage(totals.usage)} · cost ${formatTotalsCost(totals)}`;
	if (!writer) return notice(ctx, `this conversation is not saved · ${figures}`);
	const { session } = writer;
	const name = session.name ? ` · name ${session.name}` : "";
	const file = session.entries.length > 0 ? writer.file : `${writer.file} (created with the first message)`;
	notice(ctx, `session ${session.header.id}${name}\nfile ${file}\nentries ${session.entries.length} · ${figures}`);
}

/** OSC 52: the terminal (even over SSH, and tmux with set-clipboard) puts the text on the clipboard. */
export function osc52(text: string): string {
	return `\x1b]52;c;${Buffer.from(text, "utf8").toString("base64")}\x07`;
}

function copyLast(ctx: CommandContext) {
	const items = ctx.store.view.items;
	for (let i = items.length - 1; i >= 0; i--) {
		const item = items[i];
		if (item?.kind === "text" && item.text.trim() !== "") {
			ctx.writeTerminal(osc52(item.text));
			return notice(ctx, `copied the last answer (${item.text.length} characters) to the clipboard`);
		}
	}
	notice(ctx, "there is no answer to copy yet", "warning");
}

/** What /help shows: every key (from the key table), command and prompt template. */
export function helpText(templates: readonly TemplateCommand[] = []): string {
	const label = (c: { name: string; args?: string | null }) => `/${c.name}${c.args ? ` ${c.args}` : ""}`;
	const width = Math.max(...COMMANDS.map((c) => label(c).length), ...templates.map((t) => label(t).length));
	const commands = COMMANDS.map((c) => `  ${label(c).padEnd(width)}  ${c.description}`);
	const shown = templates.map((t) => {
		const what = t.problem ? `✗ not run: ${t.problem}` : `${t.description} (${t.source})`.trimStart();
		return `  ${label(t).padEnd(width)}  ${what}`;
	});
	return [
		"Keys",
		...keyHelp(KEY_TABLE, HELP_CONTEXTS).map(([keys, what]) => `  ${keys.padEnd(22)}${what}`),
		"In the transcript (Ctrl+O)",
		...keyHelp(KEY_TABLE, ["transcript"]).map(([keys, what]) => `  ${keys.padEnd(22)}${what}`),
		"Keys in the rewind list (Esc Esc, /rewind)",
		...keyHelp(REWIND_KEYS, ["rewind"]).map(([keys, what]) => `  ${keys.padEnd(22)}${what}`),
		"Keys in the session tree (/tree, t in the rewind list)",
		...keyHelp(KEY_TABLE, TREE_CONTEXTS).map(([keys, what]) => `  ${keys.padEnd(22)}${what}`),
		"Commands",
		...commands,
		`  ${"!cmd".padEnd(width)}  run a shell command; its output goes into the next message's context`,
		`  ${"!!cmd".padEnd(width)}  run a shell command without adding it to the context`,
		`  ${"//text".padEnd(width)}  send /text as a message`,
		...(shown.length > 0 ? ["Prompt templates (sent as your message)", ...shown] : []),
	].join("\n");
}
