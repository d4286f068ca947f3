import { dirname } from "node:path";
import {
	type ConfiguredHook,
	HOOK_EVENTS,
	type HookEventName,
	type LoadResult,
	projectRoot,
	runnableHooks,
} from "../config/index.js";
import { closestKey } from "../config/suggest.js";
import { UsageError } from "../errors.js";
import type { Hooks } from "../hooks/index.js";
import type { HookRun } from "../hooks/types.js";
import { sanitizeForTerminal } from "../term/sanitize.js";
import { tildePath } from "../text/paths.js";
import { createTools, TOOL_NAMES } from "../tools/index.js";
import { toolEnv, userNodeEnv } from "../tools/tool-env.js";

export type HooksContext = {
	result: LoadResult;
	cwd: string;
	env: NodeJS.ProcessEnv;
	write: (text: string) => void;
};

/** Events whose hooks get a tool call (and whose matchers match the tool's name). */
const TOOL_EVENTS = new Set<HookEventName>(["PreToolUse", "PostToolUse"]);
/** Events that ignore a matcher. */
const UNMATCHED = new Set<HookEventName>(["UserPromptSubmit", "Stop"]);

/** Whether a hook runs, in words (with the command that lets a project's hook run). */
function trustWords(hook: ConfiguredHook, home: string): string {
	const root = tildePath(dirname(dirname(hook.file)), home);
	switch (hook.trust) {
		case "user":
			return "runs (your config)";
		case "trusted":
			return "runs (trusted project)";
		case "untrusted":
			return `does not run: the project is not trusted (gar trust ${root})`;
		case "changed":
			return `does not run: changed since the project was trusted (gar trust ${root} again)`;
	}
}

/** `gar hooks`: every hook, with its event, matcher, timeout, command, file and line, and whether it runs. */
export function hooksCommand(ctx: HooksContext, options: { json?: boolean }): number {
	const { hooks, home } = ctx.result;
	if (options.json) {
		ctx.write(`${JSON.stringify({ hooks: hooks.map((hook) => ({ ...hook, runs: runs(hook) })) }, null, 2)}\n`);
		return 0;
	}
	if (hooks.length === 0) {
		ctx.write('no hooks are configured (add [[hooks.EVENT]] tables to a config file: README "Hooks")\n');
		return 0;
	}
	const blocks = hooks.map((hook) => {
		const matcher =
			hook.matcher === undefined
				? "every tool"
				: UNMATCHED.has(hook.event)
					? `matcher ${JSON.stringify(hook.matcher)} (ignored: ${hook.event} has none)`
					: `matcher ${JSON.stringify(hook.matcher)}`;
		const where = `${tildePath(hook.file, home)}${hook.line ? `:${hook.line}` : ""}`;
		const head = [hook.event, ...(TOOL_EVENTS.has(hook.event) || hook.matcher ? [matcher] : [])];
		head.push(`timeout ${hook.timeout} s`, trustWords(hook, home));
		return `${head.join(" · ")}\n  $ ${hook.command}\n  ${where}\n`;
	});
	ctx.write(sanitizeForTerminal(blocks.join("\n")));
	return 0;
}

const runs = (hook: ConfiguredHook) => hook.trust === "user" || hook.trust === "trusted";

export type HooksTestOptions = { tool?: string; input?: string; json?: boolean };

/** The event named (exactly, or in another case), or a usage error naming the events. */
function eventOf(name: string): HookEventName {
	const found = HOOK_EVENTS.find((event) => event.toLowerCase() === name.toLowerCase());
	if (found) return found;
	const meant = closestKey(
		name.toLowerCase(),
		HOOK_EVENTS.map((event) => event.toLowerCase()),
	);
	const hint = meant ? `did you mean ${HOOK_EVENTS.find((e) => e.toLowerCase() === meant)}? ` : "";
	throw new UsageError(`hooks test: no event "${name}"; ${hint}the events are ${HOOK_EVENTS.join(", ")}`);
}

/** A tool event's arguments: `--input` as a JSON object (default `{}`). */
function toolArgs(input: string | undefined): Record<string, unknown> {
	if (input === undefined) return {};
	let parsed: unknown;
	try {
		parsed = JSON.parse(input);
	} catch (error) {
		throw new UsageError(
			`hooks test: --input is not valid JSON (${(error as Error).message}); give the tool's arguments as an object, such as '{"command": "ls"}'`,
		);
	}
	if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
		throw new UsageError(
			`hooks test: --input must be a JSON object of the tool's arguments, such as '{"command": "ls"}'`,
		);
	}
	return parsed as Record<string, unknown>;
}

/**
 * `gar hooks test EVENT [--tool NAME] [--input JSON|-]`: builds the event's payload as a run would (for tool events
 * `--input` is the tool's arguments; for UserPromptSubmit the prompt; for the others the event's one field), runs the
 * matching hooks that may run, and prints each one's exit code, output, decision and time, then what gar would do.
 * Exit 0 when they ran, 1 when one failed (or none matched), 2 for a usage error.
 */
export async function hooksTestCommand(
	ctx: HooksTestContext,
	name: string,
	options: HooksTestOptions,
): Promise<number> {
	const event = eventOf(name);
	const { result, cwd, env } = ctx;
	const tool = options.tool ?? (TOOL_EVENTS.has(event) ? "bash" : undefined);
	if (tool !== undefined && !(TOOL_NAMES as readonly string[]).includes(tool)) {
		throw new UsageError(`hooks test: --tool ${tool}: gar's tools are ${TOOL_NAMES.join(", ")}`);
	}
	if (tool !== undefined && !TOOL_EVENTS.has(event)) {
		throw new UsageError(`hooks test: --tool goes with PreToolUse and PostToolUse, not ${event}`);
	}
	const runnable = runnableHooks(result.hooks);
	const skipped = result.hooks.filter((hook) => hook.event === event && !runs(hook));
	const { Hooks } = await import("../hooks/index.js");
	const toolsEnv = toolEnv(env, {
		secretVars: result.secretVars,
		passEnv: result.config.tools.passEnv,
		userNodeEnv: userNodeEnv(env),
	});
	const hooks = new Hooks({ hooks: runnable, projectDir: projectRoot(cwd), cwd, env: toolsEnv });
	const outcomes: { run: HookRun; output: { stdout: string; stderr: string } }[] = [];
	hooks.attach({
		emit: (run, output) => outcomes.push({ run, output }),
		session: () => null,
		permissionMode: () => (result.config.agent.approve ? "default" : "bypassPermissions"),
	});
	const verdict = await fire(hooks, event, tool, options.input, cwd);
	const failed = outcomes.some(({ run }) => run.status !== "ok");
	if (options.json) {
		const runsOut = outcomes.map(({ run, output }) => ({ ...run, ...output }));
		const skippedOut = skipped.map(({ command, file, trust }) => ({ command, file, trust }));
		ctx.write(`${JSON.stringify({ event, runs: runsOut, verdict, skipped: skippedOut }, null, 2)}\n`);
	} else ctx.write(sanitizeForTerminal(report(event, tool, outcomes, verdict, skipped, result.home)));
	return failed || outcomes.length === 0 ? 1 : 0;
}

export type HooksTestContext = HooksContext;

type Fired = Record<string, unknown>;

/** Runs the event's hooks through the step a run uses, so the combined verdict is the one a run would act on. */
async function fire(
	hooks: Hooks,
	event: HookEventName,
	tool: string | undefined,
	input: string | undefined,
	cwd: string,
): Promise<Fired> {
	const signal = new AbortController().signal;
	const call = { id: "test_call", name: tool ?? "bash", args: TOOL_EVENTS.has(event) ? toolArgs(input) : {} };
	switch (event) {
		case "PreToolUse": {
			const verdict = await hooks.beforeTool(call, signal);
			const tools = createTools({ cwd });
			const parameters = tools.find((t) => t.name === call.name)?.parameters;
			const checked = verdict.updatedInput && parameters?.safeParse(verdict.updatedInput);
			return checked && !checked.success
				? { ...verdict, updatedInputRefused: checked.error.issues.map((issue) => issue.message).join("; ") }
				: { ...verdict };
		}
		case "PostToolUse":
			return {
				...(await hooks.afterTool(call, { content: "", isError: false, outcome: "done", details: null }, signal)),
			};
		case "UserPromptSubmit":
			return { ...(await hooks.beforePrompt(input ?? "", signal)) };
		case "Stop":
			return { ...(await hooks.beforeStop(input ?? "", false, signal)) };
		case "SessionStart":
			await hooks.sessionStart(input ?? "startup", signal);
			return { context: hooks.takeContext() };
		case "SessionEnd":
			await hooks.sessionEnd(input ?? "other", signal);
			return {};
		case "PreCompact":
			await hooks.preCompact(input === "manual" ? "manual" : "auto", "", signal);
			return {};
		case "Notification":
			await hooks.notification("permission_prompt", input ?? "gar needs your permission to use bash", signal);
			return {};
	}
}

/** The text report: each run (exit code, time, decision, output), the hooks not run, and what gar would do. */
function report(
	event: HookEventName,
	tool: string | undefined,
	outcomes: { run: HookRun; output: { stdout: string; stderr: string } }[],
	verdict: Fired,
	skipped: ConfiguredHook[],
	home: string,
): string {
	const lines: string[] = [];
	for (const { run, output } of outcomes) {
		const decision = run.decision ? ` · decision ${run.decision}` : "";
		lines.push(`${run.name} (${tildePath(run.source, home)})`);
		lines.push(`  ${run.status} · exit ${run.exitCode ?? "none"} · ${run.durationMs} ms${decision}`);
		for (const [label, text] of [
			["reason", run.reason],
			["message", run.message],
			["context", run.context],
			["stdout", output.stdout.trimEnd()],
			["stderr", output.stderr.trimEnd()],
		] as const) {
			if (text) lines.push(`  ${label}: ${text.replaceAll("\n", "\n    ")}`);
		}
	}
	for (const hook of skipped) lines.push(`not run: ${hook.command} (${trustWords(hook, home)})`);
	if (outcomes.length === 0) {
		const target = tool ? ` for ${tool}` : "";
		lines.push(`no hook ran: none of the hooks that may run matches ${event}${target} ("gar hooks" lists them)`);
	}
	const shown = Object.entries(verdict).filter(
		([, value]) => value !== undefined && !(Array.isArray(value) && value.length === 0),
	);
	lines.push(
		shown.length === 0 ? "gar would go on as usual" : `gar would act on: ${JSON.stringify(Object.fromEntries(shown))}`,
	);
	return `${lines.join("\n")}\n`;
}
